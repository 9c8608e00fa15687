import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import { auditEvents } from "../schema/system";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import type { AuditRow } from "../queries/audit";
import { outboxEventInsert, outboxEventValues, type InsertOutboxEventParams } from "../queries/events";
import type { TransactionRow } from "../queries/transactions";
import { insertColumns, insertSelect, placeholdersFor, rowValues } from "./columns";
import { defineStatement } from "./define-query";

/** The audit columns the create gives (the rest, `created_at`, takes the table's default). */
const AUDIT_KEYS = [
  "id",
  "tenantId",
  "actorType",
  "actorId",
  "actorUserId",
  "action",
  "targetType",
  "targetId",
  "requestId",
  "ip",
  "details",
] as const;

/** A column of the inserted transaction row, as the CTE's follow-up inserts select it. */
const inserted = (column: { name: string }) => sql`${sql.identifier(column.name)}`;

/**
 * A new transaction and its trail in one statement (one round trip, atomic on its own): the row,
 * exactly as given (every column; nothing left to a database default, so the caller's row is
 * what is stored: build it with `completeRow`), its first status-history entry, its audit row and
 * its first outbox event with the aggregate's next sequence. Data-modifying CTEs: the three
 * follow-up writes select from the inserted row, so none of them is written without it. Every
 * column list comes from the table definitions (./columns); the outbox insert is the one
 * `insertOutboxEvent` sends. The job that follows, and the usage the row counts
 * (../queries/usage `countTransactionUsage`, sent with the COMMIT), are the caller's, in the same
 * database transaction.
 */
export async function insertTransactionWithTrail(
  db: Executor,
  params: {
    row: TransactionRow;
    history: { id: string; actorType: string; actorId: string | null };
    audit: AuditRow & { id: string };
    event: InsertOutboxEventParams & { id: string };
  },
): Promise<{ eventSequence: number }> {
  const { row, history, audit, event } = params;
  // Every create runs this: a named prepared statement, its values by placeholder.
  const values: Record<string, unknown> = {
    history_id: history.id,
    history_actorType: history.actorType,
    history_actorId: history.actorId,
    ...rowValues(auditEvents, { ...audit, details: audit.details ?? {} }, "audit_", AUDIT_KEYS),
    ...outboxEventValues("event_", event),
    ...rowValues(transactions, row, "row_"),
  };
  const result = await insertWithTrailStatement.on(db).execute(values);
  const [written] = result.rows;
  if (!written) throw new Error("the transaction insert wrote no event");
  return { eventSequence: Number(written.event_sequence) };
}

/** The insert-with-trail statement. */
const insertWithTrailSql = () => {
  const columns = insertColumns(transactions, "row_");
  const history = insertSelect(transactionStatusHistory, {
    ...placeholdersFor(transactionStatusHistory, "history_", ["id", "actorType", "actorId"]),
    tenantId: inserted(transactions.tenantId),
    transactionId: inserted(transactions.id),
    fromStatus: sql`null`,
    toStatus: inserted(transactions.status),
    subStatus: inserted(transactions.subStatus),
    reason: inserted(transactions.statusReason),
    createdAt: inserted(transactions.createdAt),
  });
  return sql`
    with inserted as (
      insert into ${transactions} (${columns.names}) values (${columns.placeholders}) returning *
    ), history as (
      ${history} from inserted
    ), audit as (
      ${insertSelect(auditEvents, placeholdersFor(auditEvents, "audit_", AUDIT_KEYS))} from inserted
    ), event as (
      ${outboxEventInsert("event_")} from inserted
      returning sequence
    )
    select sequence as event_sequence from event`;
};
const insertWithTrailStatement = defineStatement<{ event_sequence: number }>("qc_insert_transaction_with_trail", insertWithTrailSql);
