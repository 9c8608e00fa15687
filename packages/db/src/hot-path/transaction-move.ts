import { createHash } from "node:crypto";
import { and, eq, getTableColumns, sql, type Column, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import type { AuditRow } from "../queries/audit";
import type { NewTransactionRow, TransactionRow, TransactionStatusValue } from "../queries/transactions";
import { auditEvents } from "../schema/system";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import { insertSelect, placeholdersFor, rowValues } from "./columns";
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
  const from = (column: string): SQL => sql`moved.${sql.identifier(column)}`;
  const history = db.$with("history", { id: sql<string>`id` }).as(
    sql`${insertSelect(transactionStatusHistory, {
      ...placeholdersFor(transactionStatusHistory, "history_", HISTORY_KEYS),
      tenantId: from("tenant_id"),
      transactionId: from("id"),
      fromStatus: from("previous_status"),
      toStatus: from("status"),
      subStatus: from("sub_status"),
      reason: from("status_reason"),
    })} from moved returning id`,
  );
  const audit = db.$with("audit", { id: sql<string>`id` }).as(
    sql`${insertSelect(auditEvents, {
      ...placeholdersFor(auditEvents, "audit_", AUDIT_KEYS),
      tenantId: from("tenant_id"),
      targetType: sql`'transaction'`,
      targetId: sql`moved.id::text`,
      details: sql`jsonb_build_object('from', moved.previous_status, 'to', moved.status, 'subStatus', moved.sub_status, 'reason', moved.status_reason)`,
    })} from moved returning id`,
  );
  return db.with(locked, moved, history, audit).select().from(moved);
}
