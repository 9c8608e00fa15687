import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";

/**
 * Emits a `webhook.test` event addressed to this endpoint only (the fan-out sends that type to
 * the endpoint it names, whatever its event filter). Delivered like any event: signed, retried,
 * listed among its deliveries.
 */
export async function sendTestWebhook(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; endpointId: string; actor: Actor },
): Promise<{ eventId: string; webhookId: string; type: "webhook.test" }> {
  return deps.db.transaction(async (tx) => {
    const endpoint = await requireWebhookEndpoint(tx, { tenantId: input.tenantId, endpointId: input.endpointId });
    if (endpoint.status !== "ENABLED") {
      throw new AppError("CONFLICT", "the webhook is disabled: enable it (PUT with enabled: true) before testing it", {
        details: { status: endpoint.status, disabledReason: endpoint.disabledReason },
      });
    }
    const event = await emitEvent(tx, {
      tenantId: input.tenantId,
      type: "webhook.test",
      aggregateId: endpoint.id,
      data: { webhookId: endpoint.id, message: `Test event requested at ${deps.now().toISOString()}` },
    });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.tested",
      target: { type: "webhook", id: endpoint.id },
      details: { eventId: event.id },
    });
    return { eventId: event.id, webhookId: endpoint.id, type: "webhook.test" as const };
  });
}
