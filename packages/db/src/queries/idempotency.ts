import { and, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { Executor } from "../client";
import type { BuiltStatement } from "../hot-path/pipelined-transaction";
import { tenants } from "../schema/identity";
import { idempotencyKeys } from "../schema/transfers";
import { insertColumns, rowValues } from "../hot-path/columns";
import { defineQuery, defineStatement } from "../hot-path/define-query";

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
export type NewIdempotencyKeyRow = typeof idempotencyKeys.$inferInsert;
type TenantRow = typeof tenants.$inferSelect;

export interface IdempotencyKeyRef {
  tenantId: string;
  key: string;
}

/** What the key's lock statement answers (`lockIdempotencyKey`). */
export interface LockedIdempotencyKey {
  /** False: another transaction holds the key, i.e. a request with it is executing right now. */
  locked: boolean;
  /** The key's stored answer when the lock was taken (undefined otherwise, or when none is stored). */
  row: IdempotencyKeyRow | undefined;
  /** The tenant's verification status, read in the same statement (undefined for an unknown tenant). */
  tenantStatus: TenantRow["status"] | undefined;
}

/**
 * Takes the transaction-scoped advisory lock of (tenant, key) without waiting and reads the key's
 * stored answer and the tenant's status, in one statement (one round trip). `locked` false:
 * another transaction holds the key, i.e. a request with it is executing right now. The lock id
 * is a 64-bit hash of both values; it is held until this transaction ends.
 *
 * The tenant's status comes along so that a value-moving request with a key needs no read of its
 * own before the transaction (`runIdempotently`'s `requireVerifiedTenant`): one round trip fewer
 * per create. A primary-key lookup adds next to nothing to the statement, so every caller gets it
 * and there is one prepared statement, not two. It is as fresh as a read of its own: this
 * statement's snapshot, never a cache.
 *
 * The read's snapshot is taken when the statement starts, before the lock is granted, so it can
 * miss an answer committed by the holder that released the lock a moment before. That is safe
 * because answers are only ever inserted (never updated) under the unique (tenant, key) index:
 * the caller then executes and its own insert of the key fails with a unique violation, which
 * rolls its whole transaction back (`IDEMPOTENCY_KEY_TAKEN`: read again and replay). Likewise an
 * expired answer seen here is removed only while still expired (`deleteExpiredIdempotencyKey`).
 */
export async function lockIdempotencyKey(db: Executor, params: IdempotencyKeyRef): Promise<LockedIdempotencyKey> {
  // Every request with a key runs this: a prepared statement (../hot-path).
  const [found] = await lockIdempotencyKeyQuery.on(db).execute({ tenantId: params.tenantId, key: params.key });
  const tenantStatus = found?.tenantStatus ?? undefined;
  if (!found?.locked) return { locked: false, row: undefined, tenantStatus };
  return { locked: true, row: found.row ?? undefined, tenantStatus };
}
const lockIdempotencyKeyQuery = defineQuery("qc_lock_idempotency_key", (db) =>
  db
    .select({
      locked: sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${sql.placeholder("tenantId")} || ':' || ${sql.placeholder("key")}, 0))`,
      row: idempotencyKeys,
      tenantStatus: tenants.status,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(
      idempotencyKeys,
      and(eq(idempotencyKeys.tenantId, sql.placeholder("tenantId")), eq(idempotencyKeys.key, sql.placeholder("key"))),
    )
    .leftJoin(tenants, eq(tenants.id, sql.placeholder("tenantId"))),
);

/** The unique index whose violation means another request stored an answer for the key first. */
export const IDEMPOTENCY_KEY_TAKEN = "idempotency_keys_tenant_key_unique";

/** Forgets one key of the tenant only if its retention ended before `now` (a fresh answer stays). */
export async function deleteExpiredIdempotencyKey(db: Executor, params: IdempotencyKeyRef & { now: Date }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.tenantId, params.tenantId), eq(idempotencyKeys.key, params.key), lte(idempotencyKeys.expiresAt, params.now)),
    );
}

/**
 * Whether the open transaction has written anything (PostgreSQL assigns a transaction id at the
 * first write or row lock; advisory locks and reads take none). An aborted transaction counts as
 * written: it can no longer store anything.
 */
export async function transactionHasWritten(db: Executor): Promise<boolean> {
  try {
    const result = await db.execute<{ written: boolean }>(sql`select pg_current_xact_id_if_assigned() is not null as written`);
    return result.rows[0]?.written !== false;
  } catch {
    return true;
  }
}

export async function insertIdempotencyKey(db: Executor, row: NewIdempotencyKeyRow): Promise<void> {
  // Every answer stored runs this: a prepared statement (../hot-path) naming every column.
  await insertIdempotencyKeyStatement.on(db).execute(rowValues(idempotencyKeys, row));
}

/** `insertIdempotencyKey` as a statement for the driver, to send with COMMIT (`pipelinedTransaction`). */
export function idempotencyKeyInsert(row: NewIdempotencyKeyRow): BuiltStatement {
  return insertIdempotencyKeyStatement.with(rowValues(idempotencyKeys, row));
}

const insertIdempotencyKeyStatement = defineStatement("qc_insert_idempotency_key", () => {
  const columns = insertColumns(idempotencyKeys);
  return sql`insert into ${idempotencyKeys} (${columns.names}) values (${columns.placeholders})`;
});

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
