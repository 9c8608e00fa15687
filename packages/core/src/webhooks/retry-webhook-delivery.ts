import { findWebhookDelivery, listWebhookDeliveryAttemptRows, reopenWebhookDelivery } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { toWebhookDeliveryRecord, type WebhookDeliveryRecord } from "./webhook-records";

/**
 * Sends a finished delivery (failed, disabled, or delivered and wanted again) once more, now,
 * with the same `webhook-id` and body, restarting its retry schedule. 409 CONFLICT while it is
 * still pending or while its endpoint is disabled; 404 when it or its endpoint is gone.
 */
export async function retryWebhookDelivery(
  deps: Pick<ServiceDeps, "db" | "now" | "jobs">,
  input: { tenantId: string; deliveryId: string; actor: Actor },
): Promise<WebhookDeliveryRecord> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const key = { tenantId: input.tenantId, deliveryId: input.deliveryId };
    const delivery = await findWebhookDelivery(tx, key);
    if (!delivery) throw new AppError("NOT_FOUND", "webhook delivery not found");
    // Locked: a concurrent disable or delete waits for this retry, or this retry sees it.
    const endpoint = await requireWebhookEndpoint(tx, { tenantId: input.tenantId, endpointId: delivery.endpointId, lock: true });
    if (endpoint.status !== "ENABLED") {
      throw new AppError("CONFLICT", "the webhook is disabled: enable it before retrying its deliveries", {
        details: { webhookId: endpoint.id, disabledReason: endpoint.disabledReason },
      });
    }
    const reopened = await reopenWebhookDelivery(tx, { ...key, at: now });
    if (!reopened) {
      throw new AppError("CONFLICT", "the delivery is still pending: it is attempted on its schedule", {
        details: { status: delivery.status, nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null },
      });
    }
    await deps.jobs.send(tx, "webhooks.deliver", { tenantId: input.tenantId, deliveryId: reopened.id });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.delivery_retried",
      target: { type: "webhook_delivery", id: reopened.id },
      details: { webhookId: endpoint.id, eventId: reopened.eventId, previousStatus: delivery.status },
    });
    const attempts = await listWebhookDeliveryAttemptRows(tx, { tenantId: input.tenantId, deliveryIds: [reopened.id] });
    return toWebhookDeliveryRecord(reopened, attempts);
  });
}
