import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { driverConnection, transactionOpener, type Database, type Executor, type PooledConnection, type Transaction } from "../client";

/**
 * A statement already built, sent to the driver as it is: a named prepared statement
 * (node-postgres parses it once per connection) with its values in placeholder order.
 */
export interface BuiltStatement {
  name: string;
  text: string;
  values: unknown[];
}

export interface PipelinedTransactionWork<F, T> {
  /**
   * The transaction's first statement, sent with BEGIN. It must be harmless outside a
   * transaction (a read; a transaction-scoped lock, which its statement's end would release):
   * when BEGIN fails, it has already been sent and runs on its own. Its result is only used once
   * BEGIN is known to have succeeded.
   */
  first(tx: Transaction): Promise<F>;
  /** Everything else, given the first statement's result; `last` is sent with COMMIT. */
  rest(tx: Transaction, first: F): Promise<{ value: T; last?: BuiltStatement | undefined }>;
}

/**
 * One database transaction, as `db.transaction` runs it, in two round trips fewer: BEGIN travels
 * with the transaction's first statement and COMMIT with its last, on a connection in pipeline
 * mode (node-postgres's `pipeline`: both are written together and PostgreSQL answers both in
 * order, each with its own Sync). For the request path's short transactions, where a round trip
 * is a wake-up of the web process and of its PostgreSQL backend (docs/performance/create.md).
 *
 * What `db.transaction` answers, it answers too: the work's error after a ROLLBACK, BEGIN's error
 * with the connection discarded. It is stricter about COMMIT: a COMMIT that PostgreSQL answered
 * with ROLLBACK (the transaction had failed: the last statement was refused, or the work caught a
 * statement's error and went on) is an error here, never a silent success. When the last
 * statement fails, COMMIT (already sent) ends the failed transaction and its error is thrown.
 *
 * On a connection that does not pipeline (the Neon driver), inside an open transaction (a
 * savepoint, as `db.transaction` would) and on a handle `createDatabase` did not make, the same
 * statements are sent one after another: the same semantics in the usual round trips.
 */
export async function pipelinedTransaction<F, T>(db: Executor, work: PipelinedTransactionWork<F, T>): Promise<T> {
  const opener = is(db, PgTransaction) ? undefined : transactionOpener(db as Database);
  if (!opener) return sequentialTransaction(db, work);
  const connection = await opener.connect();
  const tx: Transaction = opener.on(connection);
  const atCommit: BuiltStatement[] = [];
  writesAtCommit.set(tx, atCommit);
  let firstResult: F;
  if (connection.pipeline) {
    const written = holdWrites(connection);
    const begun = connection.query({ text: "begin" });
    // A synchronous throw becomes a rejection: BEGIN is already in flight and must be awaited.
    const first = (async () => work.first(tx))();
    // The first statement may be queued a few microtasks later (drizzle's execute is async):
    // the writes leave together at the end of this turn of the event loop.
    setImmediate(written);
    const [begin, result] = await Promise.allSettled([begun, first]);
    if (begin.status === "rejected") {
      // The connection's state is unknown (it may have died between checkout and BEGIN): discard it.
      connection.release(asError(begin.reason));
      throw begin.reason;
    }
    if (result.status === "rejected") {
      await rollbackAndRelease(connection);
      throw result.reason;
    }
    firstResult = result.value;
  } else {
    try {
      await connection.query({ text: "begin" });
    } catch (error) {
      connection.release(asError(error));
      throw error;
    }
    try {
      firstResult = await work.first(tx);
    } catch (error) {
      await rollbackAndRelease(connection);
      throw error;
    }
  }

  let done: { value: T; last?: BuiltStatement | undefined };
  try {
    done = await work.rest(tx, firstResult);
  } catch (error) {
    await rollbackAndRelease(connection);
    throw error;
  }

  // The writes queued for the commit (`writeAtCommit`), then the work's last statement, then
  // COMMIT: sent together (on a connection that does not pipeline, queued by the driver in order).
  writesAtCommit.delete(tx);
  const written = connection.pipeline ? holdWrites(connection) : () => {};
  const sent = [...atCommit, ...(done.last ? [done.last] : [])].map((statement) =>
    connection.query({ name: statement.name, text: statement.text, values: statement.values }),
  );
  const commit = connection.query({ text: "commit" });
  written();
  const [commitOutcome, ...outcomes] = await Promise.allSettled([commit, ...sent]);
  // The first statement that failed says why (those after it only saw the aborted transaction).
  const failed = outcomes.find((outcome) => outcome.status === "rejected");
  if (commitOutcome.status === "rejected") {
    // A lost connection or a failure at commit: nothing more is sent on this connection.
    connection.release(asError(commitOutcome.reason));
    throw failed ? failed.reason : commitOutcome.reason;
  }
  connection.release();
  // A statement sent with COMMIT failed: the COMMIT ended the failed transaction.
  if (failed) throw failed.reason;
  if (commitOutcome.value.command !== "COMMIT") {
    throw new TransactionRolledBack(
      `COMMIT was answered with ${commitOutcome.value.command ?? "nothing"}: the transaction had failed and rolled back`,
    );
  }
  return done.value;
}

/**
 * The statements each open pipelined transaction sends with its COMMIT, by its handle. Only the
 * transaction's own handle is here: a savepoint inside it (`tx.transaction(…)`) is another handle,
 * so a write queued there runs at once, and is undone with the savepoint if that rolls back.
 */
const writesAtCommit = new WeakMap<Executor, BuiltStatement[]>();

/**
 * Writes `statement` in the transaction `tx` as late as it can: on a pipelined transaction's own
 * handle, it is sent with the COMMIT (after every statement of the work, before its last one), so
 * the row locks it takes are held from there to the commit, not across the work's remaining round
 * trips; anywhere else (a savepoint, the Neon driver's transaction, drizzle's own) it is sent now.
 * For an upsert of a few rows many transactions write at once (the usage buckets a create counts
 * into: docs/performance/create.md). Its failure fails the transaction as any statement's would.
 * Nothing may read what it writes before the commit: whether it has run yet depends on `tx`.
 */
export async function writeAtCommit(tx: Executor, statement: BuiltStatement): Promise<void> {
  const queued = writesAtCommit.get(tx);
  if (queued) {
    queued.push(statement);
    return;
  }
  await sendBuilt(tx, statement);
}

/** Whether `tx` holds writes queued for its commit (`writeAtCommit`) that have not been sent yet. */
export function hasWritesAtCommit(tx: Executor): boolean {
  return (writesAtCommit.get(tx)?.length ?? 0) > 0;
}

/** A built statement sent in `tx` now, on the connection the transaction holds. */
async function sendBuilt(tx: Executor, statement: BuiltStatement): Promise<void> {
  const connection = driverConnection(tx) as unknown as PooledConnection | undefined;
  if (!connection) throw new Error("pipelinedTransaction: this driver's transaction has no connection to send a built statement on");
  await connection.query({ name: statement.name, text: statement.text, values: statement.values });
}

/** A COMMIT that PostgreSQL answered with ROLLBACK: nothing the transaction did was kept. */
export class TransactionRolledBack extends Error {
  override name = "TransactionRolledBack";
}

/** The same statements one after another, in drizzle's own transaction (or savepoint). */
async function sequentialTransaction<F, T>(db: Executor, work: PipelinedTransactionWork<F, T>): Promise<T> {
  return db.transaction(async (tx) => {
    const { value, last } = await work.rest(tx, await work.first(tx));
    if (last) await sendBuilt(tx, last);
    return value;
  });
}

/** ROLLBACK after the work failed; a connection on which even that fails is discarded. */
async function rollbackAndRelease(connection: PooledConnection): Promise<void> {
  try {
    await connection.query({ text: "rollback" });
    connection.release();
  } catch (error) {
    connection.release(asError(error));
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Holds the connection's socket writes until the returned function is called, so that statements
 * queued meanwhile leave in one write (one packet, one wake-up of the backend).
 */
function holdWrites(connection: PooledConnection): () => void {
  const stream = (connection as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  if (typeof stream?.cork !== "function" || typeof stream.uncork !== "function") return () => {};
  stream.cork();
  return () => stream.uncork!();
}
