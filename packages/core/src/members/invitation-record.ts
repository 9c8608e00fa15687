import type { InvitationRow } from "@qc/db/queries";
import type { InvitationStatus, MemberRole } from "@qc/domain";

/** An invitation as `POST` and `GET /v1/members/invitations` answer it (CONTRACT §14). */
export interface InvitationRecord {
  id: string;
  email: string;
  role: MemberRole;
  /** PENDING until accepted or revoked; a PENDING one past `expiresAt` reads EXPIRED. */
  status: InvitationStatus;
  expiresAt: string;
  createdAt: string;
}

export function toInvitationRecord(row: InvitationRow, now: Date): InvitationRecord {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status === "PENDING" && row.expiresAt <= now ? "EXPIRED" : row.status,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
