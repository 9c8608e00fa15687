import { and, desc, eq, gt, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Executor } from "../client";
import { operatorPasskeys, operatorSettings, operatorWebauthnChallenges } from "../schema/operators";
import type { WebauthnChallengePurpose } from "./passkeys";

/*
 * Operators' passkeys (the console's second factor, CONTRACT §14), their single-use challenges and
 * the service-wide `require_operator_passkey` setting. Every statement names the operator.
 */

export type OperatorPasskeyRow = typeof operatorPasskeys.$inferSelect;

export async function insertOperatorPasskey(
  db: Executor,
  params: Pick<OperatorPasskeyRow, "operatorId" | "credentialId" | "publicKey" | "counter" | "transports" | "name" | "createdAt">,
): Promise<OperatorPasskeyRow> {
  const [row] = await db.insert(operatorPasskeys).values(params).returning();
  return row!;
}

/** The operator's passkeys, newest first. */
export function listOperatorPasskeys(db: Executor, params: { operatorId: string }): Promise<OperatorPasskeyRow[]> {
  return db
    .select()
    .from(operatorPasskeys)
    .where(eq(operatorPasskeys.operatorId, params.operatorId))
    .orderBy(desc(operatorPasskeys.createdAt), desc(operatorPasskeys.id));
}

export async function findOperatorPasskeyByCredentialId(
  db: Executor,
  params: { operatorId: string; credentialId: string },
): Promise<OperatorPasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(operatorPasskeys)
    .where(and(eq(operatorPasskeys.operatorId, params.operatorId), eq(operatorPasskeys.credentialId, params.credentialId)));
  return row;
}

/** As `advancePasskeyCounter`: one conditional UPDATE, so two answers verified at once cannot both pass. */
export async function advanceOperatorPasskeyCounter(
  db: Executor,
  params: { operatorId: string; id: string; from: number; to: number; usedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(operatorPasskeys)
    .set({ counter: params.to, lastUsedAt: params.usedAt })
    .where(
      and(
        eq(operatorPasskeys.operatorId, params.operatorId),
        eq(operatorPasskeys.id, params.id),
        eq(operatorPasskeys.counter, params.from),
      ),
    )
    .returning({ id: operatorPasskeys.id });
  return rows.length === 1;
}

export async function deleteOperatorPasskey(
  db: Executor,
  params: { operatorId: string; id: string },
): Promise<OperatorPasskeyRow | undefined> {
  const [row] = await db
    .delete(operatorPasskeys)
    .where(and(eq(operatorPasskeys.operatorId, params.operatorId), eq(operatorPasskeys.id, params.id)))
    .returning();
  return row;
}

export async function deleteSpentOperatorWebauthnChallenges(db: Executor, params: { operatorId: string; now: Date }): Promise<void> {
  await db
    .delete(operatorWebauthnChallenges)
    .where(
      and(
        eq(operatorWebauthnChallenges.operatorId, params.operatorId),
        or(isNotNull(operatorWebauthnChallenges.usedAt), lte(operatorWebauthnChallenges.expiresAt, params.now)),
      ),
    );
}

export async function insertOperatorWebauthnChallenge(
  db: Executor,
  params: { operatorId: string; purpose: WebauthnChallengePurpose; challenge: string; expiresAt: Date; createdAt: Date },
): Promise<{ id: string }> {
  const [row] = await db.insert(operatorWebauthnChallenges).values(params).returning({ id: operatorWebauthnChallenges.id });
  return row!;
}

/** Uses up an unused, unexpired challenge of this purpose in one conditional UPDATE (as `useWebauthnChallenge`). */
export async function useOperatorWebauthnChallenge(
  db: Executor,
  params: { id: string; purpose: WebauthnChallengePurpose; now: Date; operatorId?: string },
): Promise<{ operatorId: string; challenge: string } | undefined> {
  const [row] = await db
    .update(operatorWebauthnChallenges)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(operatorWebauthnChallenges.id, params.id),
        eq(operatorWebauthnChallenges.purpose, params.purpose),
        isNull(operatorWebauthnChallenges.usedAt),
        gt(operatorWebauthnChallenges.expiresAt, params.now),
        params.operatorId ? eq(operatorWebauthnChallenges.operatorId, params.operatorId) : undefined,
      ),
    )
    .returning({ operatorId: operatorWebauthnChallenges.operatorId, challenge: operatorWebauthnChallenges.challenge });
  return row;
}

/** Whether console logins need a passkey after the password (no row yet: no). */
export async function findRequireOperatorPasskey(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ value: operatorSettings.requireOperatorPasskey })
    .from(operatorSettings)
    .where(eq(operatorSettings.id, true));
  return row?.value ?? false;
}

/** Sets `require_operator_passkey` (creating the one row if needed); answers the value it had before, read under the row's lock. */
export async function updateRequireOperatorPasskey(
  db: Executor,
  params: { value: boolean; updatedAt: Date },
): Promise<{ before: boolean }> {
  await db.insert(operatorSettings).values({ id: true }).onConflictDoNothing();
  const [before] = await db
    .select({ value: operatorSettings.requireOperatorPasskey })
    .from(operatorSettings)
    .where(eq(operatorSettings.id, true))
    .for("update");
  await db
    .update(operatorSettings)
    .set({ requireOperatorPasskey: params.value, updatedAt: params.updatedAt })
    .where(eq(operatorSettings.id, true));
  return { before: before?.value ?? false };
}
