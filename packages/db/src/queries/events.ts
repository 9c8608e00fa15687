import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Executor } from "../client";
import { insertSelect, placeholdersFor, rowValues } from "../hot-path/columns";
import { defineStatement } from "../hot-path/define-query";
import { newRowId } from "../ids";
import { eventOutbox } from "../schema/system";

export interface InsertOutboxEventParams {
  tenantId: string;
  type: string;
  aggregateType: string;
  aggregateId: string;
  data: Record<string, unknown>;
}

/**
 * The next `sequence` of an aggregate's events (1 for its first), as a subquery for an insert's
 * select list; the aggregate's type and id are the placeholders of these names. One rule for
 * every statement that appends an event.
 */
function nextEventSequence(aggregateType: SQLWrapper, aggregateId: SQLWrapper): SQL {
  return sql`(select coalesce(max(e.sequence), 0) + 1 from event_outbox e
    where e.aggregate_type = ${aggregateType}::text and e.aggregate_id = ${aggregateId}::text)`;
}

const OUTBOX_EVENT_KEYS = ["id", "tenantId", "type", "aggregateType", "aggregateId", "data"] as const;

/**
 * `insert into event_outbox (…) select …` of one event whose values are the placeholders
 * `<prefix><key>` (`outboxEventValues`) with the aggregate's next sequence: the one outbox insert,
 * on its own (`insertOutboxEvent`) and in the create's CTE (`insertTransactionWithTrail`), which
 * appends `from <the inserted row>`. Its columns come from the table definition.
 */
export function outboxEventInsert(prefix: string): SQL {
  return insertSelect(eventOutbox, {
    ...placeholdersFor(eventOutbox, prefix, OUTBOX_EVENT_KEYS),
    sequence: nextEventSequence(sql.placeholder(`${prefix}aggregateType`), sql.placeholder(`${prefix}aggregateId`)),
  });
}

/** The placeholders' values of `outboxEventInsert(prefix)`, encoded as drizzle encodes them. */
export function outboxEventValues(prefix: string, event: InsertOutboxEventParams & { id: string }): Record<string, unknown> {
  return rowValues(eventOutbox, event, prefix, OUTBOX_EVENT_KEYS);
}

/**
 * Appends an event with the next `sequence` of its aggregate. A status change holds the
 * aggregate's row lock (its conditional UPDATE) until commit, so concurrent writers of one
 * aggregate are serialised and each statement sees the previous one's row; the unique index
 * (aggregate_type, aggregate_id, sequence) refuses anything that is not.
 */
export async function insertOutboxEvent(db: Executor, params: InsertOutboxEventParams): Promise<{ id: string; sequence: number }> {
  // Every status change of the pipeline writes one: a named prepared statement (../hot-path).
  const { rows } = await insertOutboxEventStatement.on(db).execute(outboxEventValues("", { ...params, id: newRowId() }));
  const [row] = rows;
  if (!row) throw new Error("the outbox insert returned no row");
  return { id: row.id, sequence: Number(row.sequence) };
}
const insertOutboxEventStatement = defineStatement<{ id: string; sequence: number }>(
  "qc_insert_outbox_event",
  () => sql`${outboxEventInsert("")} returning id, sequence`,
);

/**
 * Appends several events in one statement, each with the next `sequence` of its aggregate — for
 * writers that record many aggregates at once (the chain follower's block of deposits, the block
 * watcher's moves). The aggregates must be distinct: the sequence subquery does not see the
 * statement's own rows, and the unique index refuses two events of one aggregate here. An event
 * without `createdAt` takes the column's default (the database transaction's time), as
 * `insertOutboxEvent`'s do.
 */
export async function insertOutboxEvents(db: Executor, events: readonly (InsertOutboxEventParams & { createdAt?: Date })[]): Promise<void> {
  if (events.length === 0) return;
  const values = sql.join(
    events.map(
      (e) =>
        sql`(${newRowId()}::uuid, ${e.tenantId}::uuid, ${e.type}::text, ${e.aggregateType}::text, ${e.aggregateId}::text, ${JSON.stringify(e.data)}::jsonb, ${e.createdAt ?? null}::timestamptz)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    insert into ${eventOutbox} (id, tenant_id, type, aggregate_type, aggregate_id, sequence, data, created_at)
    select v.id, v.tenant_id, v.type, v.aggregate_type, v.aggregate_id, ${nextEventSequence(sql`v.aggregate_type`, sql`v.aggregate_id`)}, v.data, coalesce(v.created_at, now())
      from (values ${values}) as v(id, tenant_id, type, aggregate_type, aggregate_id, data, created_at)`);
}

/** A tenant's events about one aggregate, in sequence order. */
export function listAggregateEvents(db: Executor, params: { tenantId: string; aggregateType: string; aggregateId: string }) {
  return db
    .select()
    .from(eventOutbox)
    .where(
      and(
        eq(eventOutbox.tenantId, params.tenantId),
        eq(eventOutbox.aggregateType, params.aggregateType),
        eq(eventOutbox.aggregateId, params.aggregateId),
      ),
    )
    .orderBy(eventOutbox.sequence);
}
