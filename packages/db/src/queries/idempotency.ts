import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { idempotencyKeys } from "../schema/transfers";

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
export type NewIdempotencyKeyRow = typeof idempotencyKeys.$inferInsert;

export interface IdempotencyKeyRef {
  tenantId: string;
  key: string;
}

/**
 * Takes the transaction-scoped advisory lock of (tenant, key) without waiting, then reads the
 * key's stored answer. `locked` false: another transaction holds the key, i.e. a request with
 * it is executing right now. The lock id is a 64-bit hash of both values; it is held until this
 * transaction ends. Two statements on purpose: the read must take its snapshot after the lock
 * is held, or it could miss the answer of the request that released it a moment before.
 */
export async function lockIdempotencyKey(db: Executor, params: IdempotencyKeyRef): Promise<{ locked: boolean; row: IdempotencyKeyRow | undefined }> {
  const [lock] = await db
    .select({ locked: sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${params.tenantId} || ':' || ${params.key}, 0))` })
    .from(sql`(select 1) as one`);
  if (!lock?.locked) return { locked: false, row: undefined };
  return { locked: true, row: await findIdempotencyKey(db, params) };
}

/** The stored answer for (tenant, key), expired or not, or undefined. */
export async function findIdempotencyKey(db: Executor, params: IdempotencyKeyRef): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, params.tenantId), eq(idempotencyKeys.key, params.key)));
  return row;
}

/** Forgets one key of the tenant (its retention ended: the key may be used afresh). */
export async function deleteIdempotencyKey(db: Executor, params: IdempotencyKeyRef): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.tenantId, params.tenantId), eq(idempotencyKeys.key, params.key)));
}

export async function insertIdempotencyKey(db: Executor, row: NewIdempotencyKeyRow): Promise<void> {
  await db.insert(idempotencyKeys).values(row);
}

/**
 * Maintenance across tenants: deletes up to `limit` keys whose retention ended before `now`,
 * oldest first (the expires_at index); returns how many went.
 */
export async function deleteExpiredIdempotencyKeys(db: Executor, params: { now: Date; limit: number }): Promise<number> {
  const expired = db
    .select({ id: idempotencyKeys.id })
    .from(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, params.now))
    .orderBy(idempotencyKeys.expiresAt)
    .limit(params.limit);
  const deleted = await db.delete(idempotencyKeys).where(inArray(idempotencyKeys.id, expired)).returning({ id: idempotencyKeys.id });
  return deleted.length;
}
