import { getOnboardingStatus } from "@qc/core";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { tenantStatus } from "./schemas";

export const getOnboardingStatusProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: { method: "GET", path: "/v1/onboarding/status", tags: ["onboarding"], summary: "Identity-verification progress and the next step", protect: true },
  })
  .input(z.object({}).optional())
  .output(
    z.object({
      tenantId: uuid,
      status: tenantStatus,
      emailVerified: z.boolean(),
      kyc: z
        .object({
          status: z.enum(["PENDING", "APPROVED", "REJECTED"]),
          provider: z.string(),
          startedAt: timestamp,
          decidedAt: timestamp.nullable(),
          reason: z.string().nullable(),
        })
        .nullable(),
      valueMovingEnabled: z.boolean(),
      nextStep: z.enum(["VERIFY_EMAIL", "START_KYC", "AWAIT_KYC_DECISION", "RESUBMIT_KYC", "NONE"]),
    }),
  )
  .query(({ ctx }) => getOnboardingStatus({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, userId: ctx.auth.kind === "session" ? ctx.auth.userId : undefined }));
