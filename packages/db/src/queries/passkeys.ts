import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { tenants } from "../schema/identity";
import { passkeys, webauthnChallenges } from "../schema/passkeys";

/*
 * Passkeys (WebAuthn second factor, CONTRACT §14), their single-use challenges and the tenant's
 * `require_passkey` setting. Every statement names the tenant.
 */

export type PasskeyRow = typeof passkeys.$inferSelect;
export type WebauthnChallengePurpose = "REGISTER" | "LOGIN";

export async function insertPasskey(
  db: Executor,
  params: Pick<PasskeyRow, "tenantId" | "userId" | "credentialId" | "publicKey" | "counter" | "transports" | "name" | "createdAt">,
): Promise<PasskeyRow> {
  const [row] = await db.insert(passkeys).values(params).returning();
  return row!;
}

/** The member's passkeys, newest first. */
export function listMemberPasskeys(db: Executor, params: { tenantId: string; userId: string }): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.tenantId, params.tenantId), eq(passkeys.userId, params.userId)))
    .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
}

/** The member's passkey with this credential id (the id the authenticator answered with). */
export async function findMemberPasskeyByCredentialId(
  db: Executor,
  params: { tenantId: string; userId: string; credentialId: string },
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.tenantId, params.tenantId), eq(passkeys.userId, params.userId), eq(passkeys.credentialId, params.credentialId)));
  return row;
}

/**
 * Moves the passkey's counter from the value the verification started from to the new one: two
 * assertions verified at once against the same counter cannot both pass (the second finds it moved).
 */
export async function advancePasskeyCounter(
  db: Executor,
  params: { tenantId: string; id: string; from: number; to: number; usedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter: params.to, lastUsedAt: params.usedAt })
    .where(and(eq(passkeys.tenantId, params.tenantId), eq(passkeys.id, params.id), eq(passkeys.counter, params.from)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

/** Deletes the member's passkey; the deleted row, or undefined when there was none. */
export async function deleteMemberPasskey(
  db: Executor,
  params: { tenantId: string; userId: string; id: string },
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.tenantId, params.tenantId), eq(passkeys.userId, params.userId), eq(passkeys.id, params.id)))
    .returning();
  return row;
}

/**
 * Deletes the user's challenges that can no longer be answered (used, or expired by `now`): each
 * new ceremony clears the user's old ones, so the table holds little more than the live ones.
 */
export async function deleteSpentWebauthnChallenges(db: Executor, params: { userId: string; now: Date }): Promise<void> {
  await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.userId, params.userId),
        or(isNotNull(webauthnChallenges.usedAt), lte(webauthnChallenges.expiresAt, params.now)),
      ),
    );
}

export async function insertWebauthnChallenge(
  db: Executor,
  params: { tenantId: string; userId: string; purpose: WebauthnChallengePurpose; challenge: string; expiresAt: Date; createdAt: Date },
): Promise<{ id: string }> {
  const [row] = await db.insert(webauthnChallenges).values(params).returning({ id: webauthnChallenges.id });
  return row!;
}

/**
 * Uses up a challenge of this purpose, unused and unexpired at `now`, in one conditional UPDATE:
 * of two requests with the same challenge, one gets it. Undefined when unknown, used or expired.
 */
export async function useWebauthnChallenge(
  db: Executor,
  params: { id: string; purpose: WebauthnChallengePurpose; now: Date; tenantId?: string; userId?: string },
): Promise<{ tenantId: string; userId: string; challenge: string } | undefined> {
  const [row] = await db
    .update(webauthnChallenges)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(webauthnChallenges.id, params.id),
        eq(webauthnChallenges.purpose, params.purpose),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, params.now),
        params.tenantId ? eq(webauthnChallenges.tenantId, params.tenantId) : undefined,
        params.userId ? eq(webauthnChallenges.userId, params.userId) : undefined,
      ),
    )
    .returning({ tenantId: webauthnChallenges.tenantId, userId: webauthnChallenges.userId, challenge: webauthnChallenges.challenge });
  return row;
}

/** Whether the tenant's dashboard logins need a passkey after the password. */
export async function findTenantRequirePasskey(db: Executor, params: { tenantId: string }): Promise<boolean> {
  const [row] = await db.select({ requirePasskey: tenants.requirePasskey }).from(tenants).where(eq(tenants.id, params.tenantId));
  return row?.requirePasskey ?? false;
}

/** Sets `require_passkey`; answers the value it had before (read under the row's lock). */
export async function updateTenantRequirePasskey(
  db: Executor,
  params: { tenantId: string; requirePasskey: boolean; updatedAt: Date },
): Promise<{ before: boolean }> {
  const [before] = await db
    .select({ requirePasskey: tenants.requirePasskey })
    .from(tenants)
    .where(eq(tenants.id, params.tenantId))
    .for("update");
  await db
    .update(tenants)
    .set({ requirePasskey: params.requirePasskey, updatedAt: params.updatedAt })
    .where(eq(tenants.id, params.tenantId));
  return { before: before?.requirePasskey ?? false };
}

/** How many passkeys each of these members has (members without one are absent). */
export async function countMemberPasskeys(db: Executor, params: { tenantId: string; userIds: string[] }): Promise<Map<string, number>> {
  if (params.userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: passkeys.userId, count: sql<number>`count(*)::int` })
    .from(passkeys)
    .where(and(eq(passkeys.tenantId, params.tenantId), inArray(passkeys.userId, params.userIds)))
    .groupBy(passkeys.userId);
  return new Map(rows.map((r) => [r.userId, r.count]));
}
