import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor, Transaction } from "../client";

/**
 * Runs `work` inside a database transaction: `db` itself when it already is one (its statements
 * commit or roll back with it, and no savepoint costs two more round trips), otherwise a new
 * transaction. For services whose writes must commit together whoever calls them.
 */
export function withinTransaction<T>(db: Executor, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (is(db, PgTransaction)) return work(db as Transaction);
  return db.transaction(work);
}

/**
 * Runs several reads on one snapshot (a read-only REPEATABLE READ transaction; inside an open
 * transaction, on that transaction's own). For answers assembled from more than one statement
 * that must not mix states: without it, a row read before a concurrent commit and its children
 * read after it describe a state that never existed.
 */
export function withinSnapshot<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  if (is(db, PgTransaction)) return work(db);
  return db.transaction(work, { isolationLevel: "repeatable read", accessMode: "read only" });
}
