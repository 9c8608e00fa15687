import { insertWebhookEndpoint, newWebhookEndpointId } from "@qc/db/queries";
import { generateWebhookSecret } from "@qc/webhooks";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { WebhookSignatureScheme } from "@qc/domain";
import type { EventType } from "../events/catalog";
import { vetEndpointUrl } from "./vet-endpoint-url";
import { orderedSignatureSchemes, toWebhookEndpointRecord, type WebhookEndpointWithSecret } from "./webhook-records";
import { endpointSecretSlot, sealedSigningKeyPair, webhookSecretBox } from "./webhook-secrets";

export interface CreateWebhookEndpointInput {
  tenantId: string;
  url: string;
  /** Omitted or empty: every event type. */
  events?: EventType[];
  description?: string | null;
  /** Default `["v1"]`; with `v1a` an Ed25519 key pair is made and its public key returned. */
  signatureSchemes?: WebhookSignatureScheme[];
  actor: Actor;
}

/**
 * Subscribes a URL (CONTRACT §7). The URL is vetted now (https, public addresses); the secret
 * is generated here, stored only sealed under the configured key, and returned once. With `v1a`
 * (CONTRACT §18) an Ed25519 key pair is generated too: its signing key sealed like the secret and
 * never returned, its public key part of the record.
 */
export async function createWebhookEndpoint(
  deps: Pick<ServiceDeps, "db" | "now" | "config">,
  input: CreateWebhookEndpointInput,
): Promise<WebhookEndpointWithSecret> {
  const url = await vetEndpointUrl(deps.config.webhooks, input.url);
  const events = [...new Set(input.events ?? [])];
  const secret = generateWebhookSecret();
  const id = newWebhookEndpointId();
  const box = webhookSecretBox(deps.config.webhooks);
  const secretCiphertext = box.seal(secret, endpointSecretSlot(id, "current"));
  const signatureSchemes = orderedSignatureSchemes(input.signatureSchemes ?? ["v1"]);
  const keyPair = signatureSchemes.includes("v1a") ? sealedSigningKeyPair(box, id) : null;
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertWebhookEndpoint(tx, {
      id,
      tenantId: input.tenantId,
      url,
      description: input.description ?? null,
      eventTypes: events,
      secretCiphertext,
      signatureSchemes,
      ...(keyPair ?? {}),
      createdAt: now,
      updatedAt: now,
    });
    // The URL's origin only: integrators sometimes put a token in the path or query.
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.created",
      target: { type: "webhook", id },
      details: { origin: new URL(url).origin, events, signatureSchemes },
    });
    return inserted;
  });
  return { ...toWebhookEndpointRecord(row), secret };
}
