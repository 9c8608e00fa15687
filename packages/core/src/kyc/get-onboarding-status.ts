import { and, desc, eq, schema, type Database } from "@qc/db";
import { AppError } from "../errors";

export type OnboardingStep = "VERIFY_EMAIL" | "START_KYC" | "AWAIT_KYC_DECISION" | "RESUBMIT_KYC" | "NONE";

export interface OnboardingStatus {
  tenantId: string;
  status: "PENDING_VERIFICATION" | "VERIFIED" | "REJECTED";
  emailVerified: boolean;
  kyc: { status: "PENDING" | "APPROVED" | "REJECTED"; provider: string; startedAt: string; decidedAt: string | null; reason: string | null } | null;
  valueMovingEnabled: boolean;
  nextStep: OnboardingStep;
}

/**
 * Where the tenant stands: its verification status, whether its admin's email is verified, the
 * latest KYC case, and what to do next. `emailVerified` is the caller's own address for a
 * session, and for an API key whether any admin of the tenant has verified theirs.
 */
export async function getOnboardingStatus(deps: { db: Database }, input: { tenantId: string; userId?: string }): Promise<OnboardingStatus> {
  const { kycCases, tenants, users } = schema;
  const [tenant] = await deps.db.select({ id: tenants.id, status: tenants.status }).from(tenants).where(eq(tenants.id, input.tenantId));
  if (!tenant) throw new AppError("NOT_FOUND", "tenant not found");
  const [verifiedUser] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenant.id), eq(users.status, "EMAIL_VERIFIED"), input.userId ? eq(users.id, input.userId) : undefined))
    .limit(1);
  const [latest] = await deps.db.select().from(kycCases).where(eq(kycCases.tenantId, tenant.id)).orderBy(desc(kycCases.startedAt), desc(kycCases.id)).limit(1);
  const emailVerified = verifiedUser !== undefined;
  let nextStep: OnboardingStep;
  if (!emailVerified) nextStep = "VERIFY_EMAIL";
  else if (tenant.status === "VERIFIED") nextStep = "NONE";
  else if (latest?.status === "PENDING") nextStep = "AWAIT_KYC_DECISION";
  else if (tenant.status === "REJECTED" || latest?.status === "REJECTED") nextStep = "RESUBMIT_KYC";
  else nextStep = "START_KYC";
  return {
    tenantId: tenant.id,
    status: tenant.status,
    emailVerified,
    kyc: latest
      ? { status: latest.status, provider: latest.provider, startedAt: latest.startedAt.toISOString(), decidedAt: latest.decidedAt?.toISOString() ?? null, reason: latest.reason }
      : null,
    valueMovingEnabled: tenant.status === "VERIFIED",
    nextStep,
  };
}
