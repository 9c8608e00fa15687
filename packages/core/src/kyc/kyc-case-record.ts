import type { KycCaseRow } from "@qc/db/queries";
import type { KycStatus } from "@qc/domain";

export interface KycCaseRecord {
  tenantId: string;
  status: KycStatus;
  provider: string;
  reference: string;
  startedAt: string;
  decidedAt: string | null;
  reason: string | null;
}

export function toKycCaseRecord(row: KycCaseRow): KycCaseRecord {
  return {
    tenantId: row.tenantId,
    status: row.status,
    provider: row.provider,
    reference: row.reference,
    startedAt: row.startedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    reason: row.reason,
  };
}
