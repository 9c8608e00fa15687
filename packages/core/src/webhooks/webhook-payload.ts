import type { OutboxEventRow } from "@qc/db/queries";

/**
 * The body of every delivery of an event: `{id, type, timestamp, sequence, data}` (CONTRACT §7
 * plus `sequence`, the event's place among its aggregate's events). Rebuilt from the outbox row
 * for each attempt rather than stored per delivery; the bytes are the same every time, because
 * PostgreSQL renders a stored jsonb value identically on every read (keys in one fixed order, no
 * whitespace) and JSON.stringify of the same parsed value is deterministic.
 */
export function webhookPayload(event: Pick<OutboxEventRow, "id" | "type" | "createdAt" | "sequence" | "data">): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    sequence: event.sequence,
    data: event.data,
  });
}
