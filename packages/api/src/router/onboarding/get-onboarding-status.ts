import { getOnboardingStatus } from "@qc/core";
import { KYC_STATUSES, ONBOARDING_STEPS } from "@qc/domain";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { tenantStatus } from "./schemas";
import { EXAMPLE } from "../../openapi-examples";

export const getOnboardingStatusProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/onboarding/status",
      tags: ["onboarding"],
      summary: "Onboarding status",
      description:
        "Where the tenant stands: email verification, the latest KYC/KYB case and `nextStep` (`VERIFY_EMAIL`, " +
        "`START_KYC`, `AWAIT_KYC_DECISION`, `RESUBMIT_KYC` or `NONE`). Value-moving routes answer 403 " +
        "`TENANT_NOT_VERIFIED` until `valueMovingEnabled` is true.",
      protect: true,
    },
    example: {
      output: {
        tenantId: EXAMPLE.tenantId,
        status: "PENDING_VERIFICATION",
        emailVerified: true,
        kyc: { status: "PENDING", provider: "sandbox", startedAt: EXAMPLE.createdAt, decidedAt: null, reason: null },
        valueMovingEnabled: false,
        nextStep: "AWAIT_KYC_DECISION",
      },
    },
  })
  .input(z.object({}).optional())
  .output(
    z.object({
      tenantId: uuid,
      status: tenantStatus,
      emailVerified: z.boolean(),
      kyc: z
        .object({
          status: z.enum(KYC_STATUSES),
          provider: z.string(),
          startedAt: timestamp,
          decidedAt: timestamp.nullable(),
          reason: z.string().nullable(),
        })
        .nullable(),
      valueMovingEnabled: z.boolean(),
      nextStep: z.enum(ONBOARDING_STEPS),
    }),
  )
  .query(({ ctx }) =>
    getOnboardingStatus(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.auth.kind === "session" ? ctx.auth.userId : undefined }),
  );
