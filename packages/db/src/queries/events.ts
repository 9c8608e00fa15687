import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { eventOutbox } from "../schema/system";

export interface InsertOutboxEventParams {
  tenantId: string;
  type: string;
  aggregateType: string;
  aggregateId: string;
  data: Record<string, unknown>;
}

/**
 * Appends an event with the next `sequence` of its aggregate. A status change holds the
 * aggregate's row lock (its conditional UPDATE) until commit, so concurrent writers of one
 * aggregate are serialised and each statement sees the previous one's row; the unique index
 * (aggregate_type, aggregate_id, sequence) refuses anything that is not.
 */
export async function insertOutboxEvent(db: Executor, params: InsertOutboxEventParams): Promise<{ id: string; sequence: number }> {
  const next = sql<number>`(select coalesce(max(${eventOutbox.sequence}), 0) + 1 from ${eventOutbox}
    where ${eventOutbox.aggregateType} = ${params.aggregateType} and ${eventOutbox.aggregateId} = ${params.aggregateId})`;
  const [row] = await db
    .insert(eventOutbox)
    .values({ ...params, sequence: next })
    .returning({ id: eventOutbox.id, sequence: eventOutbox.sequence });
  return row!;
}

/** A tenant's events about one aggregate, in sequence order. */
export function listAggregateEvents(db: Executor, params: { tenantId: string; aggregateType: string; aggregateId: string }) {
  return db
    .select()
    .from(eventOutbox)
    .where(and(eq(eventOutbox.tenantId, params.tenantId), eq(eventOutbox.aggregateType, params.aggregateType), eq(eventOutbox.aggregateId, params.aggregateId)))
    .orderBy(eventOutbox.sequence);
}
