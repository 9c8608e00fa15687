import { resolveKycProvider, startKyc } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { kycCaseRecord } from "./schemas";

/** 201 with a new case; 200 with the pending one when a case is already open (idempotent). */
export const startKycProcedure = authedProcedure
  .meta({
    scope: "admin",
    openapi: {
      method: "POST",
      path: "/v1/onboarding/kyc",
      tags: ["onboarding"],
      summary: "Start identity verification (KYC/KYB) with the configured provider",
      description: "201 when a case is opened, 200 with the open case when one is pending, 409 once the tenant is verified.",
      protect: true,
    },
  })
  .input(z.object({}).optional())
  .output(z.object({ kyc: kycCaseRecord }))
  .mutation(async ({ ctx }) => {
    const { config, database, jobs, now } = ctx.deps;
    const provider = resolveKycProvider({ ...config.kyc, production: config.production }, { jobs, now });
    const result = await startKyc(
      { db: database.db, now, provider },
      {
        tenantId: ctx.auth.tenantId,
        actor: ctx.auth.kind === "api_key" ? { type: "api_key", id: ctx.auth.keyId! } : { type: "user", id: ctx.auth.userId! },
        requestId: ctx.request.requestId,
        ip: ctx.request.ip,
      },
    );
    if (result.created) ctx.response.status = 201;
    return { kyc: result.kyc };
  });
