import { insertOutboxEvent } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { EventType } from "../events/catalog";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { sampleEventData } from "./sample-event-data";

/**
 * Sends this endpoint a simulated event of any catalog type (CONTRACT §18): a real, signed
 * delivery whose `data` is sample data generated from the type's schema, with `simulated: true`.
 * Like a test event it goes to this endpoint only (its aggregate is the endpoint), whatever its
 * event filter, and is delivered, retried and listed like any event. Refused in production (404
 * NOT_FOUND, as for the other development-only routes: it does not exist there) so a receiver's
 * production ledger never sees made-up transactions; 409 CONFLICT while the endpoint is disabled.
 */
export async function simulateWebhookEvent(
  deps: Pick<ServiceDeps, "db" | "now" | "config">,
  input: { tenantId: string; endpointId: string; type: EventType; actor: Actor },
): Promise<{ eventId: string; webhookId: string; type: EventType }> {
  if (deps.config.production) throw new AppError("NOT_FOUND", "simulated events do not exist in production: use a sandbox deployment");
  const data = sampleEventData(input.type, deps.now());
  return deps.db.transaction(async (tx) => {
    const endpoint = await requireWebhookEndpoint(tx, { tenantId: input.tenantId, endpointId: input.endpointId });
    if (endpoint.status !== "ENABLED") {
      throw new AppError("CONFLICT", "the webhook is disabled: enable it (PUT with enabled: true) before simulating events", {
        details: { status: endpoint.status, disabledReason: endpoint.disabledReason },
      });
    }
    const event = await insertOutboxEvent(tx, {
      tenantId: input.tenantId,
      type: input.type,
      aggregateType: "webhook",
      aggregateId: endpoint.id,
      data,
    });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.simulated",
      target: { type: "webhook", id: endpoint.id },
      details: { eventId: event.id, type: input.type },
    });
    return { eventId: event.id, webhookId: endpoint.id, type: input.type };
  });
}
