import type { WebhookEndpointRow } from "@qc/db/queries";
import { createSecretBox, type SecretBox } from "@qc/webhooks";
import type { WebhookConfig } from "../deps/service-config";

const boxes = new WeakMap<WebhookConfig["secretKeys"], SecretBox>();

/** The secret box of the configured keys (WEBHOOK_SECRET_KEY), built once per configuration. */
export function webhookSecretBox(config: Pick<WebhookConfig, "secretKeys">): SecretBox {
  let box = boxes.get(config.secretKeys);
  if (!box) {
    box = createSecretBox({ current: config.secretKeys.current, previous: config.secretKeys.previous });
    boxes.set(config.secretKeys, box);
  }
  return box;
}

/**
 * The associated data of a sealed secret: its row and its slot, so a ciphertext copied into
 * another endpoint, or from the previous slot into the current one, does not open.
 */
export const endpointSecretSlot = (endpointId: string, slot: "current" | "previous") => `webhook_endpoint:${endpointId}:${slot}`;

/**
 * The secrets a delivery is signed with at `now`: the current one, then the previous one while
 * a rotation's overlap lasts (CONTRACT §7: both sign for 24 h).
 */
export function endpointSigningSecrets(box: SecretBox, endpoint: WebhookEndpointRow, now: Date): string[] {
  const secrets = [box.open(endpoint.secretCiphertext, endpointSecretSlot(endpoint.id, "current"))];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(box.open(endpoint.previousSecretCiphertext, endpointSecretSlot(endpoint.id, "previous")));
  }
  return secrets;
}
