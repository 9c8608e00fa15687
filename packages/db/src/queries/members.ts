import { and, desc, eq, gt, isNull, lt } from "drizzle-orm";
import type { Executor } from "../client";
import { apiKeys, invitations, tenants, users } from "../schema/identity";

/*
 * Invitations and member removal (CONTRACT §14). Every statement names the tenant, except
 * the acceptance's, which finds the invitation by its token's hash before any tenant is known.
 */

export type InvitationRow = typeof invitations.$inferSelect;

/** The tenant's name, as an invitation email says it; undefined for an unknown tenant. */
export async function findTenantName(db: Executor, params: { tenantId: string }): Promise<string | undefined> {
  const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, params.tenantId));
  return row?.name;
}

export async function insertInvitation(
  db: Executor,
  params: Pick<InvitationRow, "tenantId" | "email" | "role" | "tokenHash" | "invitedByUserId" | "expiresAt" | "createdAt">,
): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(params).returning();
  return row!;
}

/** Revokes the tenant's PENDING invitations to `email` (a newer invitation replaces them); their ids. */
export async function revokePendingInvitationsTo(
  db: Executor,
  params: { tenantId: string; email: string; revokedAt: Date },
): Promise<string[]> {
  const rows = await db
    .update(invitations)
    .set({ status: "REVOKED", revokedAt: params.revokedAt })
    .where(and(eq(invitations.tenantId, params.tenantId), eq(invitations.email, params.email), eq(invitations.status, "PENDING")))
    .returning({ id: invitations.id });
  return rows.map((row) => row.id);
}

/** The tenant's invitations, newest first (CONTRACT §1), before `beforeId` when given; `limit` rows at most. */
export function listTenantInvitations(
  db: Executor,
  params: { tenantId: string; limit: number; beforeId?: string | undefined },
): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tenantId, params.tenantId), params.beforeId ? lt(invitations.id, params.beforeId) : undefined))
    .orderBy(desc(invitations.id))
    .limit(params.limit);
}

/** The tenant's invitation, locked FOR UPDATE; undefined for another tenant's or an unknown id. */
export async function lockTenantInvitation(
  db: Executor,
  params: { tenantId: string; invitationId: string },
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, params.invitationId), eq(invitations.tenantId, params.tenantId)))
    .for("update");
  return row;
}

/** PENDING → REVOKED; false when the invitation was no longer PENDING. */
export async function revokeTenantInvitation(
  db: Executor,
  params: { tenantId: string; invitationId: string; revokedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ status: "REVOKED", revokedAt: params.revokedAt })
    .where(and(eq(invitations.id, params.invitationId), eq(invitations.tenantId, params.tenantId), eq(invitations.status, "PENDING")))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/**
 * Uses an invitation's token up: one conditional UPDATE (PENDING, unexpired), so of two
 * concurrent acceptances exactly one gets the invitation. Unknown, used, revoked and expired
 * tokens all give undefined.
 */
export async function consumeInvitationToken(
  db: Executor,
  params: { tokenHash: string; acceptedAt: Date },
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set({ status: "ACCEPTED", acceptedAt: params.acceptedAt })
    .where(
      and(eq(invitations.tokenHash, params.tokenHash), eq(invitations.status, "PENDING"), gt(invitations.expiresAt, params.acceptedAt)),
    )
    .returning();
  return row;
}

export async function setInvitationAcceptedUser(
  db: Executor,
  params: { tenantId: string; invitationId: string; userId: string },
): Promise<void> {
  await db
    .update(invitations)
    .set({ acceptedUserId: params.userId })
    .where(and(eq(invitations.id, params.invitationId), eq(invitations.tenantId, params.tenantId)));
}

/** The member leaves the tenant: status REMOVED (the row stays for the audit trail; the address stays taken). */
export async function markMemberRemoved(db: Executor, params: { tenantId: string; userId: string; removedAt: Date }): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ status: "REMOVED", updatedAt: params.removedAt })
    .where(and(eq(users.id, params.userId), eq(users.tenantId, params.tenantId)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Revokes every key the member created that is not revoked yet (in a rotation's grace period too); their key ids. */
export async function revokeMemberApiKeys(db: Executor, params: { tenantId: string; userId: string; revokedAt: Date }): Promise<string[]> {
  const rows = await db
    .update(apiKeys)
    .set({ status: "REVOKED", revokedAt: params.revokedAt })
    .where(
      and(
        eq(apiKeys.tenantId, params.tenantId),
        eq(apiKeys.createdByUserId, params.userId),
        eq(apiKeys.status, "ACTIVE"),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning({ keyId: apiKeys.keyId });
  return rows.map((row) => row.keyId);
}
