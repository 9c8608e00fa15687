import { and, eq, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { toKycCaseRecord, type KycCaseRecord } from "./kyc-case-record";

export type KycDecision = "APPROVED" | "REJECTED";
type TenantStatus = "PENDING_VERIFICATION" | "VERIFIED" | "REJECTED";

export interface ApplyKycDecisionInput {
  tenantId: string;
  reference: string;
  decision: KycDecision;
  reason?: string | null;
  /** Who reported it: the provider's signed callback, or the sandbox job. */
  source: "callback" | "sandbox";
  requestId?: string;
  ip?: string;
}

export interface ApplyKycDecisionResult {
  /** False for a replay of a decision already applied: nothing changed, no event. */
  applied: boolean;
  tenantId: string;
  tenantStatus: TenantStatus;
  kyc: KycCaseRecord;
}

/**
 * Applies a provider's decision: the case leaves PENDING and the tenant becomes VERIFIED or
 * REJECTED, with an audit row and a `tenant.verification_changed` event, in one transaction.
 * Both transitions are conditional UPDATEs, so a replayed decision changes nothing and emits
 * nothing (`applied: false`); a contradicting decision for a decided case is 409, an unknown
 * case (or one of another tenant) 404. The callback route and the sandbox job both come here.
 */
export async function applyKycDecision(deps: { db: Database; now(): Date }, input: ApplyKycDecisionInput): Promise<ApplyKycDecisionResult> {
  const { kycCases, tenants } = schema;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // The tenant row first, as startKyc does: one lock order, no deadlock between them.
    const [tenant] = await tx.select({ status: tenants.status }).from(tenants).where(eq(tenants.id, input.tenantId)).for("update");
    if (!tenant) throw new AppError("NOT_FOUND", "no such KYC case");
    const [decided] = await tx
      .update(kycCases)
      .set({ status: input.decision, reason: input.reason ?? null, decidedAt: now })
      .where(and(eq(kycCases.reference, input.reference), eq(kycCases.tenantId, input.tenantId), eq(kycCases.status, "PENDING")))
      .returning();
    if (!decided) {
      const [existing] = await tx.select().from(kycCases).where(and(eq(kycCases.reference, input.reference), eq(kycCases.tenantId, input.tenantId)));
      if (!existing) throw new AppError("NOT_FOUND", "no such KYC case");
      if (existing.status !== input.decision) {
        throw new AppError("CONFLICT", `the KYC case was already decided: ${existing.status}`, { details: { status: existing.status } });
      }
      return { applied: false, tenantId: input.tenantId, tenantStatus: tenant.status, kyc: toKycCaseRecord(existing) };
    }
    const previousStatus = tenant.status;
    const status: TenantStatus = input.decision === "APPROVED" ? "VERIFIED" : "REJECTED";
    const [updated] = await tx
      .update(tenants)
      .set({ status, updatedAt: now })
      .where(and(eq(tenants.id, input.tenantId), eq(tenants.status, previousStatus)))
      .returning({ status: tenants.status });
    if (!updated) throw new AppError("CONFLICT", "the tenant's verification status changed concurrently; retry");
    const kyc = toKycCaseRecord(decided);
    await recordAuditEvent(tx, {
      action: "kyc.decided",
      actorType: input.source === "callback" ? "provider" : "system",
      actorId: decided.provider,
      tenantId: input.tenantId,
      targetType: "kyc_case",
      targetId: input.reference,
      requestId: input.requestId,
      ip: input.ip,
      details: { decision: input.decision, reason: input.reason ?? null, previousStatus, status, source: input.source },
    });
    await emitEvent(tx, input.tenantId, "tenant.verification_changed", { tenantId: input.tenantId, status, previousStatus, kyc });
    return { applied: true, tenantId: input.tenantId, tenantStatus: status, kyc };
  });
}
