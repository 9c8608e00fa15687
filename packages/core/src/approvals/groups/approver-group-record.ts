import type { Executor } from "@qc/db";
import { findApproverGroup, listApproverGroupMemberIds, lockCurrentMemberIds, type ApproverGroupRow } from "@qc/db/queries";
import { AppError } from "../../errors";

/** An approver group as `/v1/approver-groups` answers it (CONTRACT §15). */
export interface ApproverGroupRecord {
  id: string;
  name: string;
  /** The members in the group, oldest membership first. */
  memberIds: string[];
  createdAt: string;
  updatedAt: string;
}

export function toApproverGroupRecord(row: ApproverGroupRow, memberIds: string[]): ApproverGroupRecord {
  return { id: row.id, name: row.name, memberIds, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** The tenant's groups with their members (one query for all of them). */
export async function toApproverGroupRecords(
  db: Executor,
  tenantId: string,
  rows: readonly ApproverGroupRow[],
): Promise<ApproverGroupRecord[]> {
  const members = await listApproverGroupMemberIds(db, { tenantId, groupIds: rows.map((row) => row.id) });
  return rows.map((row) => toApproverGroupRecord(row, members.get(row.id) ?? []));
}

/** The tenant's group (locked FOR UPDATE when `lock`) with its members, or 404 for an unknown or another tenant's. */
export async function findApproverGroupOr404(
  db: Executor,
  params: { tenantId: string; groupId: string; lock?: boolean },
): Promise<{ row: ApproverGroupRow; memberIds: string[] }> {
  const row = await findApproverGroup(db, params);
  if (!row) throw new AppError("NOT_FOUND", "approver group not found");
  const members = await listApproverGroupMemberIds(db, { tenantId: params.tenantId, groupIds: [row.id] });
  return { row, memberIds: members.get(row.id) ?? [] };
}

/**
 * `memberIds` without repeats, in the order given, once each is known to be a member of the
 * tenant now (not REMOVED): their rows stay locked FOR SHARE until the commit, so a removal
 * waits and then takes them out of the group. Anything else is 400 VALIDATION_FAILED naming them.
 */
export async function currentMemberIds(db: Executor, tenantId: string, memberIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(memberIds)];
  const found = await lockCurrentMemberIds(db, { tenantId, userIds: unique });
  const unknown = unique.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw new AppError("VALIDATION_FAILED", `not members of the tenant: ${unknown.join(", ")}`, {
      details: {
        fields: unknown.map((id) => ({ path: `memberIds.${memberIds.indexOf(id)}`, message: `${id} is not a member of the tenant` })),
      },
    });
  }
  return unique;
}
