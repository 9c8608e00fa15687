import type { Executor } from "@qc/db";
import { countMemberPasskeys, listMembersApproverGroupIds, type MemberRow } from "@qc/db/queries";
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
  /** The approver groups (§15) the member is in now. */
  approverGroupIds: string[];
  createdAt: string;
}

export function toMemberRecord(row: MemberRow, passkeys: number, approverGroupIds: string[] = []): MemberRecord {
  return {
    userId: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: "ACTIVE",
    passkeys,
    approverGroupIds,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The tenant's member rows as records: their passkey counts and approver groups read in one query each. */
export async function toMemberRecords(db: Executor, tenantId: string, rows: readonly MemberRow[]): Promise<MemberRecord[]> {
  const userIds = rows.map((row) => row.id);
  const [passkeys, groups] = await Promise.all([
    countMemberPasskeys(db, { tenantId, userIds }),
    listMembersApproverGroupIds(db, { tenantId, userIds }),
  ]);
  return rows.map((row) => toMemberRecord(row, passkeys.get(row.id) ?? 0, groups.get(row.id) ?? []));
}
