import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import { newRowId } from "../ids";
import { eventOutbox } from "../schema/system";
import { preparedStatement } from "./prepared";

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
export function nextEventSequence(aggregateType: string, aggregateId: string): SQL {
  return sql`(select coalesce(max(e.sequence), 0) + 1 from event_outbox e
    where e.aggregate_type = ${sql.placeholder(aggregateType)}::text and e.aggregate_id = ${sql.placeholder(aggregateId)}::text)`;
}

/**
 * Appends an event with the next `sequence` of its aggregate. A status change holds the
 * aggregate's row lock (its conditional UPDATE) until commit, so concurrent writers of one
 * aggregate are serialised and each statement sees the previous one's row; the unique index
 * (aggregate_type, aggregate_id, sequence) refuses anything that is not.
 */
export async function insertOutboxEvent(db: Executor, params: InsertOutboxEventParams): Promise<{ id: string; sequence: number }> {
  // Every status change of the pipeline writes one: a prepared statement (./prepared), parsed and
  // planned once per connection.
  const { rows } = await preparedStatement<{ id: string; sequence: number }>(
    db,
    "qc_insert_outbox_event",
    () => sql`insert into event_outbox (id, tenant_id, type, aggregate_type, aggregate_id, sequence, data)
      select ${sql.placeholder("id")}::uuid, ${sql.placeholder("tenantId")}::uuid, ${sql.placeholder("type")}, ${sql.placeholder("aggregateType")}::text, ${sql.placeholder("aggregateId")}::text,
             ${nextEventSequence("aggregateType", "aggregateId")}, ${sql.placeholder("data")}::jsonb
      returning id, sequence`,
  ).execute({
    id: newRowId(),
    tenantId: params.tenantId,
    type: params.type,
    aggregateType: params.aggregateType,
    aggregateId: params.aggregateId,
    data: JSON.stringify(params.data),
  });
  const [row] = rows;
  if (!row) throw new Error("the outbox insert returned no row");
  return { id: row.id, sequence: Number(row.sequence) };
}

/** A tenant's events about one aggregate, in sequence order. */
export function listAggregateEvents(db: Executor, params: { tenantId: string; aggregateType: string; aggregateId: string }) {
  return db
    .select()
    .from(eventOutbox)
    .where(and(eq(eventOutbox.tenantId, params.tenantId), eq(eventOutbox.aggregateType, params.aggregateType), eq(eventOutbox.aggregateId, params.aggregateId)))
    .orderBy(eventOutbox.sequence);
}
