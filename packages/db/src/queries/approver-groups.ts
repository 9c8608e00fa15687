import { and, count, eq, inArray } from "drizzle-orm";
import type { Executor } from "../client";
import { approverGroupMembers, approverGroups } from "../schema/approvals";

export type ApproverGroupRow = typeof approverGroups.$inferSelect;

/**
 * How many members each of the tenant's groups `groupIds` has now; a group that does not exist
 * (or is another tenant's) is absent from the answer. A REQUIRE_APPROVAL decision reads it:
 * a quorum above its group's size fails closed.
 */
export async function countApproverGroupMembers(
  db: Executor,
  params: { tenantId: string; groupIds: readonly string[] },
): Promise<Map<string, number>> {
  if (params.groupIds.length === 0) return new Map();
  const rows = await db
    .select({ groupId: approverGroups.id, members: count(approverGroupMembers.userId) })
    .from(approverGroups)
    .leftJoin(approverGroupMembers, eq(approverGroupMembers.groupId, approverGroups.id))
    .where(and(eq(approverGroups.tenantId, params.tenantId), inArray(approverGroups.id, [...params.groupIds])))
    .groupBy(approverGroups.id);
  return new Map(rows.map((row) => [row.groupId, row.members]));
}
