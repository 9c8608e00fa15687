/**
 * The hot path: every way a statement here leaves other than as a plain drizzle query. Each one
 * exists because a paired benchmark showed it on a figure users feel (docs/performance/database.md; the
 * reach-ins into libraries are listed in docs/decisions/library-internals.md). Everything else in
 * packages/db is plain drizzle: write a new query that way, and come here only with a measurement.
 *
 * - Named prepared statements (./define-query): `defineQuery` / `defineRead` / `defineStatement`,
 *   each name written once and registered (a second definition of a name throws at import).
 *   Drizzle builds the query once per connection owner instead of on every call (most of a small
 *   query's CPU in the web process) and PostgreSQL parses and plans it once per connection: the
 *   vault read's query 258 → 104 µs in-process.
 * - Statements named by their text (./statement-names): drizzle inserts and updates built from a
 *   row (the other entities' status changes, single audit rows) and pg-boss's SQL, under a hash of the
 *   SQL text, so one name never carries two texts (pg-boss's statements named: transfers/s
 *   7.15–7.68 → 8.49–8.72 paired; docs/history/performance-journal.md, "Eighth sitting").
 * - Pipelined reads (./pipelined-reads, used by `defineRead` on the database handle): the request
 *   path's standalone reads by key share a few pipelined connections, many reads per socket write
 *   (vault read ÷ /healthz 0.247 → 0.319 paired).
 * - Pipelined transactions (./pipelined-transaction): BEGIN travels with the first statement and
 *   COMMIT with the last (a create is 4 round trips, not 7: creates/s 265 → 309 paired); a write
 *   many transactions contend for can be sent with the COMMIT (`writeAtCommit`: the create's
 *   usage buckets, docs/performance/create.md).
 * - The create's CTE insert (./transaction-with-trail): the row, its history, audit and outbox
 *   rows in one statement; every column list from the table definitions (./columns).
 * - A transaction's status change (./transaction-move): the lock, the conditional UPDATE, its
 *   history and audit rows in one statement, built once per shape of what it sets (the daemon's
 *   largest use of drizzle's builder: service CPU a transfer ×0.861 paired, docs/performance/nonce-window.md).
 * - pg-boss's statements on our connection and named (./job-executor).
 *
 * Where a statement runs is decided by the executor it is given, and visible in its type:
 * `Database` runs on the pool (a `defineRead` on the pipelined read connections), `Transaction`
 * in that transaction (`Executor` is either; see ../client).
 */
export { completeRow, insertColumns, recordsetInsert, rowValues } from "./columns";
export { defineQuery, defineRead, defineStatement, type DefinedQuery, type DefinedStatement } from "./define-query";
export { jobExecutor, prepareJobStatements } from "./job-executor";
export { PipelinedReads, type PipelinedReadsOptions } from "./pipelined-reads";
export {
  hasWritesAtCommit,
  pipelinedTransaction,
  TransactionRolledBack,
  writeAtCommit,
  type BuiltStatement,
  type PipelinedTransactionWork,
} from "./pipelined-transaction";
export { executeNamedByText, statementNameOfText } from "./statement-names";
