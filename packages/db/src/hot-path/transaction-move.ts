import { createHash } from "node:crypto";
import { and, eq, getTableColumns, sql, type Column, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import type { AuditRow } from "../queries/audit";
import type { NewTransactionRow, TransactionRow, TransactionStatusValue } from "../queries/transactions";
import { auditEvents } from "../schema/system";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import { insertSelect, placeholdersFor, rowValues } from "./columns";
import { newRowId } from "../ids";
import { defineQuery, type DefinedQuery } from "./define-query";

/** The audit columns the caller gives; the target, the tenant and the details come from the moved row. */
const AUDIT_KEYS = ["id", "actorType", "actorId", "actorUserId", "action", "requestId", "ip"] as const;
const HISTORY_KEYS = ["id", "actorType", "actorId"] as const;

export interface TransactionMove {
  key: { tenantId: string; transactionId: string };
  /** Moves only from one of these. */
  expected: readonly TransactionStatusValue[];
  /** What the UPDATE sets: the new status and any other column. */
  set: Partial<NewTransactionRow> & { status: TransactionStatusValue };
  /** Who moved it, for the status-history row. */
  history: { actorType: string; actorId: string | null };
  /** The audit row's own columns (`action`, the actor); its id is generated. */
  audit: Pick<AuditRow, "actorType" | "actorId" | "actorUserId" | "action" | "requestId" | "ip">;
}

/**
 * A transaction's status change and its trail in one statement (one round trip, one socket write):
 * the row locked (`FOR UPDATE`) and, when its status is one of `expected`, updated with `set`;
 * its status-history row (from the status it had under the lock to the new one, with the moved
 * row's subStatus and reason) and its audit row (`details`: from, to, subStatus, reason) written
 * by data-modifying CTEs that select from the moved row, so neither is written without the move.
 * Returns the moved row and the status it had under the lock, or undefined when it was not moved
 * (not found, another tenant's, or in another status). The row lock is the CTE's, and the UPDATE
 * of a row changed meanwhile re-checks `expected` against the version it locked (READ COMMITTED),
 * so the previous status is exact.
 *
 * Every status change of every transfer runs this (~5 a transfer): its text is built once per
 * shape of `set` (which columns it sets) and prepared under a name derived from that shape, its
 * values by placeholder — building it on every call was the daemon's largest use of drizzle
 * (docs/performance/nonce-window.md, "The move and its trail in one statement"). The event that
 * follows (its data is the record of the moved row) and the jobs are the caller's, in the same
 * database transaction.
 */
export async function moveTransactionWithTrail(
  db: Executor,
  move: TransactionMove,
): Promise<{ row: TransactionRow; previousStatus: TransactionStatusValue } | undefined> {
  const setKeys = Object.keys(move.set).filter(
    (key) => (move.set as Record<string, unknown>)[key] !== undefined,
  ) as (keyof NewTransactionRow)[];
  const values: Record<string, unknown> = {
    tenantId: move.key.tenantId,
    transactionId: move.key.transactionId,
    expected: move.expected,
    ...rowValues(transactionStatusHistory, move.history, "history_", HISTORY_KEYS),
    ...rowValues(auditEvents, move.audit, "audit_", AUDIT_KEYS),
  };
  // The set's values encoded as drizzle encodes them (dates, JSON, bigints); null stays SQL NULL.
  for (const key of setKeys) {
    const value = (move.set as Record<string, unknown>)[key];
    values[`set_${key}`] = value === null ? null : transactionColumns[key].mapToDriverValue(value);
  }
  const [moved] = await moveStatement(setKeys).on(db).execute(values);
  if (!moved) return undefined;
  const { previousStatus, ...row } = moved;
  return { row: row as TransactionRow, previousStatus };
}

type MoveQuery = DefinedQuery<{
  execute(values: Record<string, unknown>): Promise<(TransactionRow & { previousStatus: TransactionStatusValue })[]>;
}>;

const transactionColumns = getTableColumns(transactions) as Record<keyof NewTransactionRow, Column>;

/** One prepared statement per shape of `set`; the shapes are the code's (a few dozen), never data. */
const byShape = new Map<string, MoveQuery>();
function moveStatement(setKeys: readonly (keyof NewTransactionRow)[]): MoveQuery {
  const shape = [...setKeys].sort().join(",");
  let statement = byShape.get(shape);
  if (!statement) {
    const name = `qc_move_transaction_${createHash("sha256").update(shape).digest("hex").slice(0, 16)}`;
    statement = defineQuery(name, (db) => buildMove(db, setKeys)) as MoveQuery;
    byShape.set(shape, statement);
  }
  return statement;
}

function buildMove(db: Executor, setKeys: readonly (keyof NewTransactionRow)[]) {
  const locked = db.$with("locked").as(
    db
      .select({ id: transactions.id, previousStatus: sql<TransactionStatusValue>`${transactions.status}`.as("previous_status") })
      .from(transactions)
      .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))))
      .for("update"),
  );
  // Plain placeholders cast to the column's type (encoded by the caller), not drizzle's params.
  const set = placeholdersFor(transactions, "set_", setKeys) as Partial<NewTransactionRow>;
  const moved = db.$with("moved").as(
    db
      .update(transactions)
      .set(set)
      .from(locked)
      .where(
        and(
          eq(transactions.id, locked.id),
          eq(transactions.tenantId, sql.placeholder("tenantId")),
          sql`${transactions.status} = any(${sql.placeholder("expected")}::transaction_status[])`,
        ),
      )
      .returning({ ...getTableColumns(transactions), previousStatus: locked.previousStatus }),
  );
  const [history, audit] = movedTrail(db, {
    history: placeholdersFor(transactionStatusHistory, "history_", HISTORY_KEYS),
    audit: placeholdersFor(auditEvents, "audit_", AUDIT_KEYS),
  });
  return db.with(locked, moved, history, audit).select().from(moved);
}

const fromMoved = (column: string): SQL => sql`moved.${sql.identifier(column)}`;

/**
 * The status-history and audit rows of every row of the CTE `moved` (with its `previous_status`),
 * as data-modifying CTEs: the columns the caller gives (ids, actor, action), the rest from the
 * moved row — one trail for the moves of one row and of many.
 */
function movedTrail(
  db: Executor,
  given: {
    history: Partial<Record<keyof typeof transactionStatusHistory.$inferInsert, SQL>>;
    audit: Partial<Record<keyof typeof auditEvents.$inferInsert, SQL>>;
  },
) {
  const history = db.$with("history", { id: sql<string>`id` }).as(
    sql`${insertSelect(transactionStatusHistory, {
      ...given.history,
      tenantId: fromMoved("tenant_id"),
      transactionId: fromMoved("id"),
      fromStatus: fromMoved("previous_status"),
      toStatus: fromMoved("status"),
      subStatus: fromMoved("sub_status"),
      reason: fromMoved("status_reason"),
    })} from moved returning id`,
  );
  const audit = db.$with("audit", { id: sql<string>`id` }).as(
    sql`${insertSelect(auditEvents, {
      ...given.audit,
      tenantId: fromMoved("tenant_id"),
      targetType: sql`'transaction'`,
      targetId: sql`moved.id::text`,
      details: sql`jsonb_build_object('from', moved.previous_status, 'to', moved.status, 'subStatus', moved.sub_status, 'reason', moved.status_reason)`,
    })} from moved returning id`,
  );
  return [history, audit] as const;
}

/** One row of `moveMinedWithTrail`: the transaction and what the chain says of its block. */
export interface MinedMove {
  tenantId: string;
  transactionId: string;
  blockNumber: number;
  blockHash: string;
  confirmations: number;
}

/** Who moves the rows of a many-row move, for their status-history and audit rows. */
interface ManyMoveActor {
  history: { actorType: string; actorId: string | null };
  audit: Pick<AuditRow, "actorType" | "actorId" | "action">;
}

/**
 * The block watcher's two common moves, for many transactions in one statement: BROADCASTING →
 * CONFIRMING (mined: block number, block hash, confirmations) and CONFIRMING → COMPLETED (final:
 * block number, confirmations, `completedAt`), each with its status-history and audit rows — what
 * `moveTransactionWithTrail` does for one, row by row, in the same data-modifying CTEs. The rows
 * are locked in id order (two writers of overlapping sets cannot deadlock on them). A row moves
 * only from `from`, and to COMPLETED only when its stored block hash is still the one observed and
 * no other transaction of its source holds or held its nonce (its siblings, CONTRACT §17: the
 * caller's one-by-one move ends them, or ends this one, in the same step). Returns the moved rows
 * with the status each had under the lock; a row that did not move is absent (the caller judges
 * it on its own).
 */
export async function moveMinedWithTrail(
  db: Executor,
  move: { to: "CONFIRMING" | "COMPLETED"; rows: readonly MinedMove[]; at: Date } & ManyMoveActor,
): Promise<{ row: TransactionRow; previousStatus: TransactionStatusValue }[]> {
  return runManyMove(db, minedStatements[move.to], move, {
    block_number: move.rows.map((row) => row.blockNumber),
    block_hash: move.rows.map((row) => row.blockHash),
    confirmations: move.rows.map((row) => row.confirmations),
  });
}

/** One row of `moveSignedWithTrail`: the transaction and the raw signed transaction stored with its move. */
export interface BroadcastMove {
  tenantId: string;
  transactionId: string;
  rawTransaction: string;
  chainTxHash: string;
}

/**
 * The broadcast's move, for many transactions in one statement: SIGNED → BROADCASTING with the
 * raw transaction, its hash and `broadcastAt`, each with its status-history and audit rows, as
 * `moveMinedWithTrail` does (rows locked in id order; a row moves only from SIGNED; one that did
 * not move is absent from the answer).
 */
export async function moveSignedWithTrail(
  db: Executor,
  move: { rows: readonly BroadcastMove[]; at: Date } & ManyMoveActor,
): Promise<{ row: TransactionRow; previousStatus: TransactionStatusValue }[]> {
  return runManyMove(db, broadcastStatement, move, {
    raw_transaction: move.rows.map((row) => row.rawTransaction),
    chain_tx_hash: move.rows.map((row) => row.chainTxHash),
  });
}

type ManyMoveQuery = DefinedQuery<{
  execute(
    values: Record<string, unknown>,
  ): Promise<(TransactionRow & { previousStatus: TransactionStatusValue; historyId: string; auditId: string })[]>;
}>;

async function runManyMove(
  db: Executor,
  statement: ManyMoveQuery,
  move: { rows: readonly { tenantId: string; transactionId: string }[]; at: Date } & ManyMoveActor,
  given: Record<string, unknown[]>,
): Promise<{ row: TransactionRow; previousStatus: TransactionStatusValue }[]> {
  if (move.rows.length === 0) return [];
  const moved = await statement.on(db).execute({
    ids: move.rows.map((row) => row.transactionId),
    tenantIds: move.rows.map((row) => row.tenantId),
    historyIds: move.rows.map(() => newRowId()),
    auditIds: move.rows.map(() => newRowId()),
    ...Object.fromEntries(Object.entries(given).map(([column, values]) => [`given_${column}`, values])),
    at: transactionColumns.updatedAt.mapToDriverValue(move.at),
    history_actorType: move.history.actorType,
    history_actorId: move.history.actorId,
    audit_actorType: move.audit.actorType,
    audit_actorId: move.audit.actorId,
    audit_action: move.audit.action,
  });
  return moved.map(({ previousStatus, historyId: _history, auditId: _audit, ...row }) => ({ row: row as TransactionRow, previousStatus }));
}

const atPlaceholder = sql`${sql.placeholder("at")}::timestamp(3) with time zone`;
const givenColumn = (column: string): SQL => sql.raw(`locked.given_${column}`);

const minedStatements: Record<"CONFIRMING" | "COMPLETED", ManyMoveQuery> = {
  CONFIRMING: defineQuery("qc_move_mined_confirming", (db) => buildMinedMove(db, "CONFIRMING")) as ManyMoveQuery,
  COMPLETED: defineQuery("qc_move_mined_completed", (db) => buildMinedMove(db, "COMPLETED")) as ManyMoveQuery,
};

function buildMinedMove(db: Executor, to: "CONFIRMING" | "COMPLETED") {
  return buildManyMove(db, {
    given: { block_number: "bigint", block_hash: "text", confirmations: "integer" },
    from: to === "CONFIRMING" ? "BROADCASTING" : "CONFIRMING",
    set: {
      status: to,
      statusReason: null,
      blockNumber: givenColumn("block_number"),
      ...(to === "CONFIRMING" ? { blockHash: givenColumn("block_hash") } : { completedAt: atPlaceholder }),
      confirmations: givenColumn("confirmations"),
      updatedAt: atPlaceholder,
    },
    where:
      to === "COMPLETED"
        ? sql` and ${transactions.blockHash} = locked.given_block_hash and not exists (
          select 1 from ${transactions} sibling
          where sibling.tenant_id = ${transactions.tenantId} and sibling.source_wallet_id = ${transactions.sourceWalletId}
            and sibling.network_code = ${transactions.networkCode} and sibling.nonce = ${transactions.nonce}
            and sibling.direction = 'OUTBOUND' and sibling.id <> ${transactions.id})`
        : sql``,
  });
}

const broadcastStatement = defineQuery("qc_move_signed_broadcasting", (db) =>
  buildManyMove(db, {
    given: { raw_transaction: "text", chain_tx_hash: "text" },
    from: "SIGNED",
    set: {
      status: "BROADCASTING",
      rawTransaction: givenColumn("raw_transaction"),
      chainTxHash: givenColumn("chain_tx_hash"),
      broadcastAt: atPlaceholder,
      updatedAt: atPlaceholder,
    },
    where: sql``,
  }),
) as ManyMoveQuery;

/**
 * One statement moving many rows from `from`, each with its own values (`given`: column → SQL
 * type, one array each, read as `locked.given_<column>`) and its status-history and audit rows:
 * the rows locked in id order, moved only from `from` and when `where` holds.
 */
function buildManyMove(
  db: Executor,
  move: { given: Record<string, string>; from: TransactionStatusValue; set: Partial<Record<keyof NewTransactionRow, unknown>>; where: SQL },
) {
  const columns = Object.keys(move.given);
  const arrays = columns.map((column) => sql`${sql.placeholder(`given_${column}`)}::${sql.raw(move.given[column]!)}[]`);
  const locked = db.$with("locked").as(
    db
      .select({
        id: transactions.id,
        previousStatus: sql<TransactionStatusValue>`${transactions.status}`.as("previous_status"),
        ...Object.fromEntries(columns.map((column) => [column, sql`given.${sql.identifier(column)}`.as(`given_${column}`)])),
        historyId: sql<string>`given.history_id`.as("history_id"),
        auditId: sql<string>`given.audit_id`.as("audit_id"),
      })
      .from(transactions)
      .innerJoin(
        sql`unnest(${sql.placeholder("ids")}::uuid[], ${sql.placeholder("tenantIds")}::uuid[], ${sql.join(arrays, sql`, `)},
          ${sql.placeholder("historyIds")}::uuid[], ${sql.placeholder("auditIds")}::uuid[])
          as given(id, tenant_id, ${sql.join(
            columns.map((column) => sql.identifier(column)),
            sql`, `,
          )}, history_id, audit_id)`,
        sql`${transactions.id} = given.id and ${transactions.tenantId} = given.tenant_id`,
      )
      .orderBy(transactions.id)
      .for("update", { of: transactions }),
  );
  const moved = db.$with("moved").as(
    db
      .update(transactions)
      .set(move.set as Partial<NewTransactionRow>)
      .from(locked)
      .where(sql`${transactions.id} = locked.id and ${transactions.status} = ${move.from}::transaction_status${move.where}`)
      .returning({
        ...getTableColumns(transactions),
        previousStatus: locked.previousStatus,
        historyId: locked.historyId,
        auditId: locked.auditId,
      }),
  );
  const [history, audit] = movedTrail(db, {
    history: { ...placeholdersFor(transactionStatusHistory, "history_", ["actorType", "actorId"]), id: fromMoved("history_id") },
    audit: { ...placeholdersFor(auditEvents, "audit_", ["actorType", "actorId", "action"]), id: fromMoved("audit_id") },
  });
  return db.with(locked, moved, history, audit).select().from(moved);
}
