import { and, asc, count, desc, eq, inArray, lt, notInArray } from "drizzle-orm";
import type { Executor } from "../client";
import { approverGroupMembers, approverGroups } from "../schema/approvals";
import { users } from "../schema/identity";
import { notRemoved } from "./identity";

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

/*
 * Approver groups' own routes (CONTRACT §15): every statement names the tenant. A change to a
 * group locks its row FOR UPDATE and a policy replacement that names it locks it FOR SHARE
 * (`lockApproverGroups`), so a group cannot be deleted or shrunk while a policy that needs it is
 * being written, nor the reverse.
 */

export interface ApproverGroupWithMembers extends ApproverGroupRow {
  memberIds: string[];
}

export async function insertApproverGroup(
  db: Executor,
  params: { tenantId: string; name: string; createdAt: Date },
): Promise<ApproverGroupRow> {
  const [row] = await db
    .insert(approverGroups)
    .values({ tenantId: params.tenantId, name: params.name, createdAt: params.createdAt, updatedAt: params.createdAt })
    .returning();
  return row!;
}

/** Makes `userIds` the group's members: removes the others, adds the missing ones. */
export async function setApproverGroupMembers(
  db: Executor,
  params: { tenantId: string; groupId: string; userIds: readonly string[]; createdAt: Date },
): Promise<void> {
  await db
    .delete(approverGroupMembers)
    .where(
      and(
        eq(approverGroupMembers.tenantId, params.tenantId),
        eq(approverGroupMembers.groupId, params.groupId),
        params.userIds.length > 0 ? notInArray(approverGroupMembers.userId, [...params.userIds]) : undefined,
      ),
    );
  if (params.userIds.length === 0) return;
  await db
    .insert(approverGroupMembers)
    .values(params.userIds.map((userId) => ({ groupId: params.groupId, tenantId: params.tenantId, userId, createdAt: params.createdAt })))
    .onConflictDoNothing();
}

/** The tenant's groups, newest first (CONTRACT §1), before `beforeId` when given; `limit` rows at most. */
export function listApproverGroupRows(
  db: Executor,
  params: { tenantId: string; limit: number; beforeId?: string | undefined },
): Promise<ApproverGroupRow[]> {
  return db
    .select()
    .from(approverGroups)
    .where(and(eq(approverGroups.tenantId, params.tenantId), params.beforeId ? lt(approverGroups.id, params.beforeId) : undefined))
    .orderBy(desc(approverGroups.id))
    .limit(params.limit);
}

/** The tenant's group, locked FOR UPDATE when `lock`; undefined for another tenant's or an unknown id. */
export async function findApproverGroup(
  db: Executor,
  params: { tenantId: string; groupId: string; lock?: boolean },
): Promise<ApproverGroupRow | undefined> {
  const query = db
    .select()
    .from(approverGroups)
    .where(and(eq(approverGroups.id, params.groupId), eq(approverGroups.tenantId, params.tenantId)));
  const [row] = params.lock ? await query.for("update") : await query;
  return row;
}

/**
 * Locks the tenant's groups among `groupIds` FOR SHARE (in id order) and answers their member
 * counts, as `countApproverGroupMembers`; an unknown group is absent. A policy replacement reads
 * the sizes it validates quorums against this way, so no group changes under it.
 */
export async function lockApproverGroupSizes(
  db: Executor,
  params: { tenantId: string; groupIds: readonly string[] },
): Promise<Map<string, number>> {
  if (params.groupIds.length === 0) return new Map();
  await db
    .select({ id: approverGroups.id })
    .from(approverGroups)
    .where(and(eq(approverGroups.tenantId, params.tenantId), inArray(approverGroups.id, [...params.groupIds])))
    .orderBy(asc(approverGroups.id))
    .for("share");
  return countApproverGroupMembers(db, params);
}

export async function renameApproverGroup(
  db: Executor,
  params: { tenantId: string; groupId: string; name: string; updatedAt: Date },
): Promise<ApproverGroupRow | undefined> {
  const [row] = await db
    .update(approverGroups)
    .set({ name: params.name, updatedAt: params.updatedAt })
    .where(and(eq(approverGroups.id, params.groupId), eq(approverGroups.tenantId, params.tenantId)))
    .returning();
  return row;
}

/** Deletes the group (its memberships go with it); false when it was not there. */
export async function deleteApproverGroup(db: Executor, params: { tenantId: string; groupId: string }): Promise<boolean> {
  const rows = await db
    .delete(approverGroups)
    .where(and(eq(approverGroups.id, params.groupId), eq(approverGroups.tenantId, params.tenantId)))
    .returning({ id: approverGroups.id });
  return rows.length > 0;
}

/**
 * Memberships keyed by one side: each of `ids` (groups, or members) mapped to the other side's
 * ids, oldest membership first; an id without memberships maps to [].
 */
async function membershipsBy(
  db: Executor,
  params: { tenantId: string; by: "groupId" | "userId"; ids: readonly string[] },
): Promise<Map<string, string[]>> {
  const other = params.by === "groupId" ? "userId" : "groupId";
  const found = new Map<string, string[]>(params.ids.map((id) => [id, []]));
  if (params.ids.length === 0) return found;
  const rows = await db
    .select({ groupId: approverGroupMembers.groupId, userId: approverGroupMembers.userId })
    .from(approverGroupMembers)
    .where(and(eq(approverGroupMembers.tenantId, params.tenantId), inArray(approverGroupMembers[params.by], [...params.ids])))
    .orderBy(asc(approverGroupMembers.createdAt), asc(approverGroupMembers[other]));
  for (const row of rows) found.get(row[params.by])?.push(row[other]);
  return found;
}

/** Each of the groups' member ids, oldest membership first; a group without members maps to []. */
export function listApproverGroupMemberIds(db: Executor, params: { tenantId: string; groupIds: readonly string[] }) {
  return membershipsBy(db, { tenantId: params.tenantId, by: "groupId", ids: params.groupIds });
}

/** The groups each of the members `userIds` is in (CONTRACT §14's `approverGroupIds`); a member in none maps to []. */
export function listMembersApproverGroupIds(db: Executor, params: { tenantId: string; userIds: readonly string[] }) {
  return membershipsBy(db, { tenantId: params.tenantId, by: "userId", ids: params.userIds });
}

/** Takes the member out of every group of the tenant (a removal, CONTRACT §14); the groups they left. */
export async function removeMemberFromApproverGroups(db: Executor, params: { tenantId: string; userId: string }): Promise<string[]> {
  const rows = await db
    .delete(approverGroupMembers)
    .where(and(eq(approverGroupMembers.tenantId, params.tenantId), eq(approverGroupMembers.userId, params.userId)))
    .returning({ groupId: approverGroupMembers.groupId });
  return rows.map((row) => row.groupId).sort();
}

/**
 * Which of `userIds` are members of the tenant now (not REMOVED), their rows locked FOR SHARE so
 * a removal waits for the group change that names them (and then takes them out of the group).
 */
export async function lockCurrentMemberIds(db: Executor, params: { tenantId: string; userIds: readonly string[] }): Promise<Set<string>> {
  if (params.userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, params.tenantId), notRemoved, inArray(users.id, [...params.userIds])))
    .orderBy(asc(users.id))
    .for("share");
  return new Set(rows.map((row) => row.id));
}
