import { updateWebhookEndpoint } from "@qc/db/queries";
import { generateWebhookSecret } from "@qc/webhooks";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { toWebhookEndpointRecord, type WebhookEndpointWithSecret } from "./webhook-records";
import { endpointSecretSlot, endpointSigningKeySlot, sealedSigningKeyPair, webhookSecretBox } from "./webhook-secrets";

/** CONTRACT §7: after a rotation the old secret also signs for 24 h. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * Replaces the endpoint's secret and returns the new one, once. For 24 h every delivery carries
 * two signatures, new and old, so the receiver can switch without losing a delivery. Rotating
 * again within the overlap drops the oldest secret: only the last two ever sign. With `v1a` the key
 * pair is replaced the same way (the new public key is in the answer; the previous key pair signs
 * `v1a` beside it until `previousSecretExpiresAt`).
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
    // The key pair turns over only where `v1a` signs; an endpoint without it keeps none.
    const keys =
      current.signatureSchemes.includes("v1a") && current.signingKeyCiphertext
        ? {
            ...sealedSigningKeyPair(box, current.id),
            previousSigningKeyCiphertext: box.seal(
              box.open(current.signingKeyCiphertext, endpointSigningKeySlot(current.id, "current")),
              endpointSigningKeySlot(current.id, "previous"),
            ),
          }
        : { previousSigningKeyCiphertext: null };
    const row = (await updateWebhookEndpoint(tx, key, {
      ...keys,
      secretCiphertext: box.seal(secret, endpointSecretSlot(current.id, "current")),
      previousSecretCiphertext: box.seal(outgoing, endpointSecretSlot(current.id, "previous")),
      previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_MS),
      updatedAt: now,
    }))!;
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.secret_rotated",
      target: { type: "webhook", id: row.id },
      details: { signatureSchemes: row.signatureSchemes },
    });
    return { ...toWebhookEndpointRecord(row), secret };
  });
}
