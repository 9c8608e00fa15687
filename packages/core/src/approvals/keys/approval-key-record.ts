import type { ApprovalKeyRow } from "@qc/db/queries";

/** One of a member's approval keys as `/v1/members/me/approval-keys` answers it (CONTRACT §15). */
export interface ApprovalKeyRecord {
  keyId: string;
  /** ML-DSA-87 public key, lower-case hex with `0x` (2,592 bytes). */
  publicKey: string;
  createdAt: string;
  /** Null while the key counts; a revoked key stays listed so past approvals can still be verified with it. */
  revokedAt: string | null;
}

export function toApprovalKeyRecord(row: ApprovalKeyRow): ApprovalKeyRecord {
  return {
    keyId: row.id,
    publicKey: row.publicKey,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The member a "me" route acts for: the session's user, or the member who created the API key. */
export interface CurrentMember {
  tenantId: string;
  /** Undefined for a credential that acts for no member (a key a tool seeded): 404. */
  userId: string | undefined;
}
