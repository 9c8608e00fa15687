import { decidePendingKycCase, findKycCase, lockTenantForKyc, updateTenantVerificationStatus } from "@qc/db/queries";
import type { KycDecision, TenantStatus } from "@qc/domain";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { toKycCaseRecord, type KycCaseRecord } from "./kyc-case-record";

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
export async function applyKycDecision(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: ApplyKycDecisionInput,
): Promise<ApplyKycDecisionResult> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // The tenant row first, as startKyc does: one lock order, no deadlock between them.
    const tenant = await lockTenantForKyc(tx, { tenantId: input.tenantId });
    if (!tenant) throw new AppError("NOT_FOUND", "no such KYC case");
    const decided = await decidePendingKycCase(tx, {
      tenantId: input.tenantId,
      reference: input.reference,
      status: input.decision,
      reason: input.reason ?? null,
      decidedAt: now,
    });
    if (!decided) {
      const existing = await findKycCase(tx, { tenantId: input.tenantId, reference: input.reference });
      if (!existing) throw new AppError("NOT_FOUND", "no such KYC case");
      if (existing.status !== input.decision) {
        throw new AppError("CONFLICT", `the KYC case was already decided: ${existing.status}`, { details: { status: existing.status } });
      }
      return { applied: false, tenantId: input.tenantId, tenantStatus: tenant.status, kyc: toKycCaseRecord(existing) };
    }
    const previousStatus = tenant.status;
    const status: TenantStatus = input.decision === "APPROVED" ? "VERIFIED" : "REJECTED";
    const updated = await updateTenantVerificationStatus(tx, {
      tenantId: input.tenantId,
      from: previousStatus,
      to: status,
      updatedAt: now,
    });
    if (!updated) throw new AppError("CONFLICT", "the tenant's verification status changed concurrently; retry");
    const kyc = toKycCaseRecord(decided);
    const actor: Actor = {
      type: input.source === "callback" ? "provider" : "system",
      id: decided.provider,
      requestId: input.requestId,
      ip: input.ip,
    };
    await auditAction(tx, actor, {
      tenantId: input.tenantId,
      action: "kyc.decided",
      target: { type: "kyc_case", id: input.reference },
      details: { decision: input.decision, reason: input.reason ?? null, previousStatus, status, source: input.source },
    });
    await emitEvent(tx, {
      tenantId: input.tenantId,
      type: "tenant.verification_changed",
      aggregateId: input.tenantId,
      data: { tenantId: input.tenantId, status, previousStatus, kyc },
    });
    return { applied: true, tenantId: input.tenantId, tenantStatus: status, kyc };
  });
}
