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
