import { getPolicy, policyRecordSchema } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_POLICY } from "./examples";

export const getPolicyProcedure = authedProcedure
  .meta({
    // The rules name whitelisted destinations and velocity thresholds: what a thief would want to
    // stay under. Configuration reads are admin, as the allowlist and denylist are (review L6).
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/policies",
      tags: ["policies"],
      summary: "Get the transfer policy",
      description:
        "The tenant's current policy: ordered rules, the first that matches decides, `defaultAction` when none does. " +
        "Version 0 with no rules and `ALLOW` while the tenant has never set one.",
      protect: true,
    },
    example: { output: EXAMPLE_POLICY },
  })
  .input(z.object({}).optional())
  .output(policyRecordSchema)
  .query(({ ctx }) => getPolicy(ctx.deps, { tenantId: ctx.auth.tenantId }));
