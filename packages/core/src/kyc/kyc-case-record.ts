import type { schema } from "@qc/db";

export interface KycCaseRecord {
  tenantId: string;
  status: "PENDING" | "APPROVED" | "REJECTED";
  provider: string;
  reference: string;
  startedAt: string;
  decidedAt: string | null;
  reason: string | null;
}

export function toKycCaseRecord(row: typeof schema.kycCases.$inferSelect): KycCaseRecord {
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
