import { findLatestKycCase, getTenantStatus, hasEmailVerifiedUser } from "@qc/db/queries";
import type { KycStatus, OnboardingStep, TenantStatus } from "@qc/domain";
import type { ServiceDeps } from "../deps/service-deps";
import { valueMovingAllowed } from "./assert-tenant-verified";
import { AppError } from "../errors";

export interface OnboardingStatus {
  tenantId: string;
  status: TenantStatus;
  emailVerified: boolean;
  kyc: { status: KycStatus; provider: string; startedAt: string; decidedAt: string | null; reason: string | null } | null;
  valueMovingEnabled: boolean;
  nextStep: OnboardingStep;
}

/**
 * Where the tenant stands: its verification status, whether its admin's email is verified, the
 * latest KYC case, and what to do next. `emailVerified` is the caller's own address for a
 * session, and for an API key whether any admin of the tenant has verified theirs.
 */
export async function getOnboardingStatus(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; userId?: string },
): Promise<OnboardingStatus> {
  const status = await getTenantStatus(deps.db, input.tenantId);
  if (!status) throw new AppError("NOT_FOUND", "tenant not found");
  const emailVerified = await hasEmailVerifiedUser(deps.db, { tenantId: input.tenantId, userId: input.userId });
  const latest = await findLatestKycCase(deps.db, { tenantId: input.tenantId });
  let nextStep: OnboardingStep;
  if (!emailVerified) nextStep = "VERIFY_EMAIL";
  else if (status === "VERIFIED") nextStep = "NONE";
  else if (latest?.status === "PENDING") nextStep = "AWAIT_KYC_DECISION";
  else if (status === "REJECTED" || latest?.status === "REJECTED") nextStep = "RESUBMIT_KYC";
  else nextStep = "START_KYC";
  return {
    tenantId: input.tenantId,
    status,
    emailVerified,
    kyc: latest
      ? {
          status: latest.status,
          provider: latest.provider,
          startedAt: latest.startedAt.toISOString(),
          decidedAt: latest.decidedAt?.toISOString() ?? null,
          reason: latest.reason,
        }
      : null,
    valueMovingEnabled: valueMovingAllowed(status),
    nextStep,
  };
}
