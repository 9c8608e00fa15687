import type { WebhookEndpointRow } from "@qc/db/queries";
import { createSecretBox, generateWebhookSigningKeyPair, type SecretBox } from "@qc/webhooks";
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

/** The associated data of a sealed `v1a` signing key (`whsk_…`), as for secrets: its row and its slot. */
export const endpointSigningKeySlot = (endpointId: string, slot: "current" | "previous") =>
  `webhook_endpoint:${endpointId}:signing_key:${slot}`;

/**
 * A fresh `v1a` key pair for an endpoint: the signing key sealed for its current slot (it never
 * leaves the service unsealed), the public key as shown to the owner.
 */
export function sealedSigningKeyPair(box: SecretBox, endpointId: string): { signingKeyCiphertext: string; publicKey: string } {
  const pair = generateWebhookSigningKeyPair();
  return { signingKeyCiphertext: box.seal(pair.signingKey, endpointSigningKeySlot(endpointId, "current")), publicKey: pair.publicKey };
}

const overlapping = (endpoint: WebhookEndpointRow, now: Date) =>
  !!endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;

/**
 * The secrets a delivery is signed with at `now` (`v1`; none when the endpoint does not list
 * `v1`): the current one, then the previous one while a rotation's overlap lasts (CONTRACT §7:
 * both sign for 24 h).
 */
export function endpointSigningSecrets(box: SecretBox, endpoint: WebhookEndpointRow, now: Date): string[] {
  if (!endpoint.signatureSchemes.includes("v1")) return [];
  const secrets = [box.open(endpoint.secretCiphertext, endpointSecretSlot(endpoint.id, "current"))];
  if (endpoint.previousSecretCiphertext && overlapping(endpoint, now)) {
    secrets.push(box.open(endpoint.previousSecretCiphertext, endpointSecretSlot(endpoint.id, "previous")));
  }
  return secrets;
}

/**
 * The `v1a` signing keys at `now` (none when the endpoint does not list `v1a`): the current one,
 * then the previous one while a rotation's overlap lasts, exactly as for `v1` secrets.
 */
export function endpointSigningKeys(box: SecretBox, endpoint: WebhookEndpointRow, now: Date): string[] {
  if (!endpoint.signatureSchemes.includes("v1a") || !endpoint.signingKeyCiphertext) return [];
  const keys = [box.open(endpoint.signingKeyCiphertext, endpointSigningKeySlot(endpoint.id, "current"))];
  if (endpoint.previousSigningKeyCiphertext && overlapping(endpoint, now)) {
    keys.push(box.open(endpoint.previousSigningKeyCiphertext, endpointSigningKeySlot(endpoint.id, "previous")));
  }
  return keys;
}
