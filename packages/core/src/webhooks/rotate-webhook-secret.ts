import { updateWebhookEndpoint } from "@qc/db/queries";
import { generateWebhookSecret } from "@qc/webhooks";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { toWebhookEndpointRecord, type WebhookEndpointWithSecret } from "./webhook-records";
import { endpointSecretSlot, webhookSecretBox } from "./webhook-secrets";

/** CONTRACT §7: after a rotation the old secret also signs for 24 h. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * Replaces the endpoint's secret and returns the new one, once. For 24 h every delivery carries
 * two signatures, new and old, so the receiver can switch without losing a delivery. Rotating
 * again within the overlap drops the oldest secret: only the last two ever sign.
 */
export async function rotateWebhookSecret(
  deps: Pick<ServiceDeps, "db" | "now" | "config">,
  input: { tenantId: string; endpointId: string; actor: Actor },
): Promise<WebhookEndpointWithSecret> {
  const box = webhookSecretBox(deps.config.webhooks);
  const now = deps.now();
  const secret = generateWebhookSecret();
  return deps.db.transaction(async (tx) => {
    const key = { tenantId: input.tenantId, endpointId: input.endpointId };
    const current = await requireWebhookEndpoint(tx, { ...key, lock: true });
    const outgoing = box.open(current.secretCiphertext, endpointSecretSlot(current.id, "current"));
    const row = (await updateWebhookEndpoint(tx, key, {
      secretCiphertext: box.seal(secret, endpointSecretSlot(current.id, "current")),
      previousSecretCiphertext: box.seal(outgoing, endpointSecretSlot(current.id, "previous")),
      previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS),
      updatedAt: now,
    }))!;
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.secret_rotated",
      target: { type: "webhook", id: row.id },
    });
    return { ...toWebhookEndpointRecord(row), secret };
  });
}
