import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../client";
import { approvalKeys, approverGroupMembers, transactionApprovals } from "../schema/approvals";
import { users } from "../schema/identity";
import { transactions } from "../schema/transfers";
import { notRemoved } from "./identity";

export type TransactionApprovalRow = typeof transactionApprovals.$inferSelect;
export type NewTransactionApprovalRow = typeof transactionApprovals.$inferInsert;

/**
 * The groups among `groupIds` the tenant's member `userId` belongs to now (none for a removed
 * member): which of a transaction's required groups their decision counts for (CONTRACT §15).
 */
export async function findMemberApproverGroups(
  db: Executor,
  params: { tenantId: string; userId: string; groupIds: readonly string[] },
): Promise<string[]> {
  if (params.groupIds.length === 0) return [];
  const rows = await db
    .select({ groupId: approverGroupMembers.groupId })
    .from(approverGroupMembers)
    .innerJoin(users, and(eq(users.id, approverGroupMembers.userId), eq(users.tenantId, approverGroupMembers.tenantId), notRemoved))
    .where(
      and(
        eq(approverGroupMembers.tenantId, params.tenantId),
        eq(approverGroupMembers.userId, params.userId),
        inArray(approverGroupMembers.groupId, [...params.groupIds]),
      ),
    );
  return rows.map((row) => row.groupId).sort();
}

/**
 * Records a member's decision; undefined when the member already decided on this transaction
 * (the unique index on transaction and member: one decision each).
 */
export async function insertTransactionApproval(
  db: Executor,
  values: NewTransactionApprovalRow,
): Promise<TransactionApprovalRow | undefined> {
  const [row] = await db
    .insert(transactionApprovals)
    .values(values)
    .onConflictDoNothing({ target: [transactionApprovals.transactionId, transactionApprovals.userId] })
    .returning();
  return row;
}

/** What it takes to judge a decision now: its key, whether the member was removed, their groups now. */
export interface ApprovalStanding {
  publicKey: string | null;
  keyRevokedAt: Date | null;
  memberRemoved: boolean;
  /** The groups the member is in now (any group of the tenant). */
  currentGroupIds: string[];
}

/** A decision with its standing now. */
export interface TransactionApprovalWithStanding extends TransactionApprovalRow, ApprovalStanding {}

/**
 * The standing columns of a decisions table (`transaction_approvals`, `address_book_approvals`: the
 * same `user_id`, `tenant_id` and `key_id`), to select joined with `users` on the member and
 * `approval_keys` (left) on the key.
 */
export function approvalStandingColumns(decisions: { userId: AnyPgColumn; tenantId: AnyPgColumn }) {
  return {
    publicKey: approvalKeys.publicKey,
    keyRevokedAt: approvalKeys.revokedAt,
    memberRemoved: sql<boolean>`${users.status} = 'REMOVED'`,
    currentGroupIds: sql<string[]>`array(
        select ${approverGroupMembers.groupId}::text from ${approverGroupMembers}
        where ${approverGroupMembers.userId} = ${decisions.userId}
          and ${approverGroupMembers.tenantId} = ${decisions.tenantId}
        order by 1)`,
  };
}

/**
 * Every decision on the transaction, oldest first, each with its approval key (public key and
 * revocation), whether its member was removed since, and the groups the member is in now: what
 * counting a quorum again (at a decision and before release) and an auditor's export read.
 */
export async function findTransactionApprovals(
  db: Executor,
  params: { tenantId: string; transactionId: string },
): Promise<TransactionApprovalWithStanding[]> {
  return db
    .select({
      id: transactionApprovals.id,
      tenantId: transactionApprovals.tenantId,
      transactionId: transactionApprovals.transactionId,
      userId: transactionApprovals.userId,
      decision: transactionApprovals.decision,
      groupIds: transactionApprovals.groupIds,
      keyId: transactionApprovals.keyId,
      approvalHash: transactionApprovals.approvalHash,
      signature: transactionApprovals.signature,
      reason: transactionApprovals.reason,
      decidedAt: transactionApprovals.decidedAt,
      ...approvalStandingColumns(transactionApprovals),
    })
    .from(transactionApprovals)
    .innerJoin(users, eq(users.id, transactionApprovals.userId))
    .leftJoin(approvalKeys, eq(approvalKeys.id, transactionApprovals.keyId))
    .where(and(eq(transactionApprovals.tenantId, params.tenantId), eq(transactionApprovals.transactionId, params.transactionId)))
    .orderBy(asc(transactionApprovals.decidedAt), asc(transactionApprovals.id));
}

/**
 * `GET /v1/approvals?status=PENDING` (CONTRACT §15): the tenant's AWAITING_APPROVAL transactions
 * that require a group the member is in and on which the member has not decided, oldest first.
 */
export async function listPendingApprovalsFor(
  db: Executor,
  params: { tenantId: string; userId: string; limit: number },
): Promise<(typeof transactions.$inferSelect)[]> {
  return db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.tenantId, params.tenantId),
        eq(transactions.status, "AWAITING_APPROVAL"),
        sql`exists (
          select 1 from ${approverGroupMembers}
          where ${approverGroupMembers.tenantId} = ${params.tenantId}
            and ${approverGroupMembers.userId} = ${params.userId}
            and ${transactions.approvals} -> 'required' @> jsonb_build_array(jsonb_build_object('groupId', ${approverGroupMembers.groupId}::text)))`,
        sql`not exists (
          select 1 from ${transactionApprovals}
          where ${transactionApprovals.transactionId} = ${transactions.id}
            and ${transactionApprovals.userId} = ${params.userId})`,
      ),
    )
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .limit(params.limit);
}
