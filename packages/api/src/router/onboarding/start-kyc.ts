import { startKyc } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { kycCaseRecord } from "./schemas";
import { EXAMPLE_KYC_CASE } from "../../openapi-examples";

/** 201 with a new case; 200 with the pending one when a case is already open (idempotent). */
export const startKycProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 201,
    otherSuccess: { 200: "A case is already pending: that case, unchanged (nothing new is started)." },
    openapi: {
      method: "POST",
      path: "/v1/onboarding/kyc",
      tags: ["onboarding"],
      summary: "Start identity verification",
      description:
        "Opens a KYC/KYB case with the configured provider (201). While a case is pending, calling again returns it " +
        "(200). A rejected tenant may start a new case; a verified one gets 409 `CONFLICT`. The decision arrives from " +
        "the provider later; follow it with `GET /v1/onboarding/status`. An unreachable provider is 503.",
      protect: true,
    },
    errors: ["CONFLICT"],
    example: { output: { kyc: EXAMPLE_KYC_CASE } },
  })
  .input(z.object({}).optional())
  .output(z.object({ kyc: kycCaseRecord }))
  .mutation(async ({ ctx }) => {
    const result = await startKyc(ctx.deps, { tenantId: ctx.auth.tenantId, actor: ctx.actor });
    if (!result.created) ctx.response.status = 200;
    return { kyc: result.kyc };
  });
