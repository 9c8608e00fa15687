import { listTransactionEvents } from "@qc/core";
import { z } from "zod";
import { EXAMPLE } from "../../openapi-examples";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION } from "./examples";
import { transactionIdParam, transactionStatusEvent } from "./schemas";

export const listTransactionEventsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/transactions/{transactionId}/events",
      tags: ["transactions"],
      summary: "List a transaction's status changes",
      description:
        "Every status change of the transaction, oldest first, its creation included: when, from, to, subStatus, " +
        "reason and who (an API key, a user or a pipeline job).",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { transactionId: EXAMPLE_PENDING_TRANSACTION.id },
      output: {
        events: [
          {
            id: "0194f2c5-1a2c-7000-8000-000000000001",
            at: EXAMPLE.createdAt,
            from: null,
            to: "SUBMITTED",
            subStatus: null,
            reason: null,
            actor: { type: "api_key", id: EXAMPLE.keyId },
          },
          {
            id: "0194f2c5-1a2c-7000-8000-000000000002",
            at: EXAMPLE.updatedAt,
            from: "SUBMITTED",
            to: "PENDING_SIGNATURE",
            subStatus: null,
            reason: null,
            actor: { type: "system", id: "transfers.check" },
          },
        ],
      },
    },
  })
  .input(z.object({ transactionId: transactionIdParam }))
  .output(z.object({ events: z.array(transactionStatusEvent) }))
  .query(({ ctx, input }) => listTransactionEvents(ctx.deps, { tenantId: ctx.auth.tenantId, transactionId: input.transactionId }));
