import { policyDocumentSchema, policyRecordSchema, replacePolicy } from "@qc/core";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_POLICY, EXAMPLE_POLICY_DOCUMENT } from "./examples";

export const replacePolicyProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "PUT",
      path: "/v1/policies",
      tags: ["policies"],
      summary: "Replace the transfer policy",
      description:
        "Replaces the whole policy and answers it as a new version (previous + 1; earlier versions are kept). Rules " +
        "are evaluated in order and the first match wins; a rule's `match` conditions all must hold (a list matches " +
        "any of its values); a rule with `velocity` matches only when the sum moved by its scope in the window, the " +
        "transfer included, is above `velocity.amount`. Applies to every transfer checked after it; audited.",
      protect: true,
    },
    errors: ["CONFLICT"],
    example: { input: EXAMPLE_POLICY_DOCUMENT, output: EXAMPLE_POLICY },
  })
  .input(policyDocumentSchema)
  .output(policyRecordSchema)
  .mutation(({ ctx, input }) => replacePolicy(ctx.deps, { tenantId: ctx.auth.tenantId, document: input, actor: ctx.actor }));
