import type { MemberRow } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";

/** A member as `GET /v1/members` and `PUT /v1/members/{userId}` answer it (CONTRACT §14). */
export interface MemberRecord {
  userId: string;
  email: string;
  name: string | null;
  role: MemberRole;
  /** Every member is ACTIVE: someone invited and not yet joined is an invitation, not a member. */
  status: "ACTIVE";
  /** How many passkeys the member has registered. */
  passkeys: number;
  /** The approver groups (§15) the member is in (none until approver groups land). */
  approverGroupIds: string[];
  createdAt: string;
}

export function toMemberRecord(row: MemberRow, passkeys: number): MemberRecord {
  return {
    userId: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: "ACTIVE",
    passkeys,
    approverGroupIds: [],
    createdAt: row.createdAt.toISOString(),
  };
}
