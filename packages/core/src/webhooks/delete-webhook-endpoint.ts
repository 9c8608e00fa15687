import { disablePendingWebhookDeliveries, updateWebhookEndpoint } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";

/**
 * Unsubscribes: the endpoint is soft-deleted (its delivery history stays for the audit trail)
 * and its pending deliveries stop. Afterwards it is 404 everywhere.
 */
export async function deleteWebhookEndpoint(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; endpointId: string; actor: Actor },
): Promise<{ id: string; deleted: true }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const key = { tenantId: input.tenantId, endpointId: input.endpointId };
    await requireWebhookEndpoint(tx, { ...key, lock: true });
    await disablePendingWebhookDeliveries(tx, { ...key, at: now });
    await updateWebhookEndpoint(tx, key, { deletedAt: now, updatedAt: now });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.deleted",
      target: { type: "webhook", id: input.endpointId },
    });
    return { id: input.endpointId, deleted: true as const };
  });
}
