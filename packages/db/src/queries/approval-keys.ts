import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "../client";
import { approvalKeys } from "../schema/approvals";

/*
 * A member's approval keys (CONTRACT §15). Every statement names the tenant and the member: a
 * member sees and revokes only their own keys. Revoked keys stay, with `revoked_at`.
 */

export type ApprovalKeyRow = typeof approvalKeys.$inferSelect;

/** The member's own key `keyId`: the condition every lookup and revocation of one key starts from. */
export const memberApprovalKey = (params: { tenantId: string; userId: string; keyId: string }) =>
  and(eq(approvalKeys.id, params.keyId), eq(approvalKeys.tenantId, params.tenantId), eq(approvalKeys.userId, params.userId));

/** A public key is enrolled once across all tenants: inserting it again violates this index. */
export const APPROVAL_KEY_PUBLIC_KEY_UNIQUE = "approval_keys_public_key_unique";

export async function insertApprovalKey(
  db: Executor,
  params: { tenantId: string; userId: string; publicKey: string; createdAt: Date },
): Promise<ApprovalKeyRow> {
  const [row] = await db.insert(approvalKeys).values(params).returning();
  return row!;
}

/** The member's keys, revoked ones included, newest first. */
export function listMemberApprovalKeys(db: Executor, params: { tenantId: string; userId: string }): Promise<ApprovalKeyRow[]> {
  return db
    .select()
    .from(approvalKeys)
    .where(and(eq(approvalKeys.tenantId, params.tenantId), eq(approvalKeys.userId, params.userId)))
    .orderBy(desc(approvalKeys.createdAt), desc(approvalKeys.id));
}

/** How many keys the member has that are not revoked. */
export async function countActiveApprovalKeys(db: Executor, params: { tenantId: string; userId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(approvalKeys)
    .where(and(eq(approvalKeys.tenantId, params.tenantId), eq(approvalKeys.userId, params.userId), isNull(approvalKeys.revokedAt)));
  return row?.n ?? 0;
}

/** The member's own key; undefined for another member's, another tenant's or an unknown id. */
export async function findMemberApprovalKey(
  db: Executor,
  params: { tenantId: string; userId: string; keyId: string },
): Promise<ApprovalKeyRow | undefined> {
  const [row] = await db.select().from(approvalKeys).where(memberApprovalKey(params));
  return row;
}

/** Revokes the member's own key with one conditional UPDATE; undefined when it is not theirs or already revoked. */
export async function revokeMemberApprovalKey(
  db: Executor,
  params: { tenantId: string; userId: string; keyId: string; revokedAt: Date },
): Promise<ApprovalKeyRow | undefined> {
  const [row] = await db
    .update(approvalKeys)
    .set({ revokedAt: params.revokedAt })
    .where(and(memberApprovalKey(params), isNull(approvalKeys.revokedAt)))
    .returning();
  return row;
}
