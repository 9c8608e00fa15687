import { evaluatePolicy } from "@qc/core";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_CREATE_TRANSFER } from "../transactions/examples";
import { transferIntent } from "../transactions/schemas";
import { policyDecision } from "./schemas";

export const evaluatePolicyProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    idempotencyKey: "optional",
    openapi: {
      method: "POST",
      path: "/v1/policies/evaluate",
      tags: ["policies"],
      summary: "Dry-run the policy on a transfer",
      description:
        "What the current policy would decide for this transfer body if it were created now (velocity windows end now " +
        "and include this amount). The body is validated as on create; nothing is written. Screening, quotas and " +
        "balance are not part of the dry run.",
      protect: true,
    },
    errors: ["NOT_FOUND", "WALLET_ARCHIVED", "NETWORK_MISMATCH", "UNKNOWN_ASSET", "WATCH_ONLY_SOURCE", "INVALID_ADDRESS"],
    example: {
      input: { ...EXAMPLE_CREATE_TRANSFER, externalId: undefined, note: undefined },
      output: {
        decision: "BLOCK",
        ruleId: "hot-wallet-daily",
        ruleName: "Hot wallet: at most 100 Q a day",
        policyVersion: 3,
        reason:
          'blocked by policy rule "Hot wallet: at most 100 Q a day" (hot-wallet-daily): 101500000000000000000 moved by the wallet in the last 86400 s (this transfer included) is above the limit of 100000000000000000000',
        velocitySum: "101500000000000000000",
      },
    },
  })
  .input(transferIntent)
  .output(policyDecision)
  .mutation(({ ctx, input }) => evaluatePolicy(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
