import { findLatestKycCase, insertKycCase, lockTenantForKyc } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { toKycCaseRecord, type KycCaseRecord } from "./kyc-case-record";
import { resolveKycProvider } from "./kyc-provider";

export interface StartKycInput {
  tenantId: string;
  actor: Actor;
}

/**
 * Opens a KYC/KYB case with the configured provider. Idempotent while a case is pending (that
 * case is returned, `created: false`); refused with 409 once the tenant is VERIFIED; a REJECTED
 * tenant may start a new case. The tenant row is locked for the decision, so concurrent starts
 * open one case between them. A provider that is not available is 503 before anything is read.
 */
export async function startKyc(
  deps: Pick<ServiceDeps, "db" | "now" | "jobs" | "config">,
  input: StartKycInput,
): Promise<{ created: boolean; kyc: KycCaseRecord }> {
  const provider = resolveKycProvider(deps);
  return deps.db.transaction(async (tx) => {
    const tenant = await lockTenantForKyc(tx, { tenantId: input.tenantId });
    if (!tenant) throw new AppError("NOT_FOUND", "tenant not found");
    if (tenant.status === "VERIFIED") throw new AppError("CONFLICT", "the tenant is already verified");
    const pending = await findLatestKycCase(tx, { tenantId: tenant.id, status: "PENDING" });
    if (pending) return { created: false, kyc: toKycCaseRecord(pending) };
    const { reference } = await provider.start(tenant, tx);
    const row = await insertKycCase(tx, { tenantId: tenant.id, provider: provider.name, reference, startedAt: deps.now() });
    await auditAction(tx, input.actor, {
      tenantId: tenant.id,
      action: "kyc.started",
      target: { type: "kyc_case", id: reference },
      details: { provider: provider.name, tenantStatus: tenant.status },
    });
    return { created: true, kyc: toKycCaseRecord(row) };
  });
}
