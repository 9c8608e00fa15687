import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import { auditEvents } from "../schema/system";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import type { AuditRow } from "../queries/audit";
import { outboxEventInsert, outboxEventValues, type InsertOutboxEventParams } from "../queries/events";
import type { TransactionRow } from "../queries/transactions";
import { usageUpsert } from "../queries/usage";
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
 * its first outbox event with the aggregate's next sequence, and its usage added to the hourly
 * usage buckets (../queries/usage: what the velocity windows and daily quotas read; a create is
 * counted in the same commit that stores it). Data-modifying CTEs: the four follow-up writes
 * select from the inserted row, so none of them is written without it. Every
 * column list comes from the table definitions (./columns); the outbox insert is the one
 * `insertOutboxEvent` sends. The job that follows is the caller's to enqueue in the same
 * database transaction.
 *
 * `usage: "skip"` leaves the usage buckets alone: for the service's own nonce records (a
 * NONCE_FILL, a REPLACEMENT, a CANCELLATION, CONTRACT §17), which are not new transfers and
 * must not count against the tenant's velocity windows or daily quotas (a replacement's value is
 * its original's, counted once at the original's create). Another named statement, without the
 * usage CTE, so the create's own statement is unchanged.
 */
export async function insertTransactionWithTrail(
  db: Executor,
  params: {
    row: TransactionRow;
    history: { id: string; actorType: string; actorId: string | null };
    audit: AuditRow & { id: string };
    event: InsertOutboxEventParams & { id: string };
    /** "count" (default): the create's usage is added to the buckets; "skip": not (nonce records). */
    usage?: "count" | "skip";
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
  const statement = params.usage === "skip" ? insertWithTrailWithoutUsageStatement : insertWithTrailStatement;
  const result = await statement.on(db).execute(values);
  const [written] = result.rows;
  if (!written) throw new Error("the transaction insert wrote no event");
  return { eventSequence: Number(written.event_sequence) };
}

/** The insert-with-trail statement, with or without the usage upsert (one text per named statement). */
const insertWithTrailSql = (usage: boolean) => {
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
    ), ${
      usage
        ? sql`usage as (
      ${usageUpsert(1, sql`inserted`)}
    ), `
        : sql``
    }event as (
      ${outboxEventInsert("event_")} from inserted
      returning sequence
    )
    select sequence as event_sequence from event`;
};
const insertWithTrailStatement = defineStatement<{ event_sequence: number }>("qc_insert_transaction_with_trail", () =>
  insertWithTrailSql(true),
);
const insertWithTrailWithoutUsageStatement = defineStatement<{ event_sequence: number }>(
  "qc_insert_transaction_with_trail_without_usage",
  () => insertWithTrailSql(false),
);
