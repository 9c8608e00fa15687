import {
  claimUndispatchedOutboxEvents,
  insertWebhookDeliveries,
  listEnabledWebhookEndpoints,
  markOutboxEventsDispatched,
  type FanOutEndpoint,
  type OutboxEventRow,
} from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

/**
 * Whether an endpoint receives an event: its filter, except that a test or a simulated event
 * (`data.simulated`, which no real event carries: the catalog's schemas strip unknown keys) goes
 * only to the endpoint it names as its aggregate.
 */
export function endpointReceives(
  endpoint: FanOutEndpoint,
  event: Pick<OutboxEventRow, "tenantId" | "type" | "aggregateId" | "data">,
): boolean {
  if (endpoint.tenantId !== event.tenantId) return false;
  const simulated = (event.data as { simulated?: unknown } | null)?.simulated === true;
  if (event.type === "webhook.test" || simulated) return endpoint.id === event.aggregateId;
  return endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(event.type);
}

/**
 * Fans out up to `limit` undispatched outbox events, oldest first, in one database transaction:
 * one delivery row per matching enabled endpoint of the event's tenant, its `webhooks.deliver`
 * job, and the events marked dispatched. Either all of it commits or none of it: a daemon dying
 * midway leaves the events undispatched for the next pass, and a pass over an event already
 * fanned out creates nothing (one delivery per endpoint and event, enforced by a unique index).
 * Rows another daemon is fanning out are skipped, not waited for. Returns the counts.
 */
export async function dispatchOutboxEvents(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { limit: number },
): Promise<{ events: number; deliveries: number }> {
  return deps.db.transaction(async (tx) => {
    const events = await claimUndispatchedOutboxEvents(tx, input.limit);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const now = deps.now();
    const endpoints = await listEnabledWebhookEndpoints(tx, [...new Set(events.map((event) => event.tenantId))]);
    const rows = events.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpointReceives(endpoint, event))
        .map((endpoint) => ({
          tenantId: event.tenantId,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          nextAttemptAt: now,
          createdAt: now,
        })),
    );
    const created = await insertWebhookDeliveries(tx, rows);
    for (const delivery of created) await deps.jobs.send(tx, "webhooks.deliver", { tenantId: delivery.tenantId, deliveryId: delivery.id });
    await markOutboxEventsDispatched(tx, { seqs: events.map((event) => event.seq), at: now });
    return { events: events.length, deliveries: created.length };
  });
}
