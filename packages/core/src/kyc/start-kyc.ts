import { and, desc, eq, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../errors";
import { toKycCaseRecord, type KycCaseRecord } from "./kyc-case-record";
import type { KycProvider } from "./kyc-provider";

export interface StartKycInput {
  tenantId: string;
  actor: { type: "user" | "api_key"; id: string };
  requestId?: string;
  ip?: string;
}

/**
 * Opens a KYC/KYB case with the provider. Idempotent while a case is pending (that case is
 * returned, `created: false`); refused with 409 once the tenant is VERIFIED; a REJECTED tenant
 * may start a new case. The tenant row is locked for the decision, so concurrent starts open one
 * case between them.
 */
export async function startKyc(deps: { db: Database; now(): Date; provider: KycProvider }, input: StartKycInput): Promise<{ created: boolean; kyc: KycCaseRecord }> {
  const { kycCases, tenants } = schema;
  return deps.db.transaction(async (tx) => {
    const [tenant] = await tx
      .select({ id: tenants.id, name: tenants.name, accountType: tenants.accountType, status: tenants.status })
      .from(tenants)
      .where(eq(tenants.id, input.tenantId))
      .for("update");
    if (!tenant) throw new AppError("NOT_FOUND", "tenant not found");
    if (tenant.status === "VERIFIED") throw new AppError("CONFLICT", "the tenant is already verified");
    const [pending] = await tx
      .select()
      .from(kycCases)
      .where(and(eq(kycCases.tenantId, tenant.id), eq(kycCases.status, "PENDING")))
      .orderBy(desc(kycCases.startedAt))
      .limit(1);
    if (pending) return { created: false, kyc: toKycCaseRecord(pending) };
    const { reference } = await deps.provider.start(tenant, tx);
    const [row] = await tx
      .insert(kycCases)
      .values({ tenantId: tenant.id, provider: deps.provider.name, reference, status: "PENDING", startedAt: deps.now() })
      .returning();
    await recordAuditEvent(tx, {
      action: "kyc.started",
      actorType: input.actor.type,
      actorId: input.actor.id,
      tenantId: tenant.id,
      targetType: "kyc_case",
      targetId: reference,
      requestId: input.requestId,
      ip: input.ip,
      details: { provider: deps.provider.name, tenantStatus: tenant.status },
    });
    return { created: true, kyc: toKycCaseRecord(row!) };
  });
}
