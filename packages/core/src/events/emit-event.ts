import type { Executor } from "@qc/db";
import { insertOutboxEvent, insertOutboxEvents } from "@qc/db/queries";
import { EVENTS, type EventData, type EventType } from "./catalog";

export type { EventType } from "./catalog";

export interface EmitEventInput<T extends EventType> {
  tenantId: string;
  type: T;
  /** The id of the aggregate the catalog names for `type` (transaction id, wallet id, …). */
  aggregateId: string;
  data: EventData<T>;
}

/**
 * Appends a domain event to the outbox inside the caller's transaction, so an event exists if
 * and only if the change it reports committed. The data is validated against the catalog, so a
 * malformed event fails the change that emits it instead of reaching a receiver. Returns the
 * event id (the webhook-id receivers deduplicate on) and its sequence within the aggregate.
 */
export async function emitEvent<T extends EventType>(tx: Executor, input: EmitEventInput<T>): Promise<{ id: string; sequence: number }> {
  return insertOutboxEvent(tx, outboxRowOf(input));
}

/**
 * `emitEvent` for events of distinct aggregates, validated the same way, in one statement (each
 * with its aggregate's next sequence): for a writer that changes many aggregates at once (the
 * block watcher's moves). Two events of one aggregate belong in `emitEvent` calls, one after another.
 */
export async function emitEvents<T extends EventType>(tx: Executor, inputs: readonly EmitEventInput<T>[]): Promise<void> {
  await insertOutboxEvents(tx, inputs.map(outboxRowOf));
}

/** The outbox row of an event: its data checked against the catalog, its aggregate named by it. */
function outboxRowOf<T extends EventType>(input: EmitEventInput<T>) {
  const definition = EVENTS[input.type];
  return {
    tenantId: input.tenantId,
    type: input.type,
    aggregateType: definition.aggregate,
    aggregateId: input.aggregateId,
    data: definition.data.parse(input.data) as Record<string, unknown>,
  };
}
