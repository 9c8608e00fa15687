import {
  disablePendingWebhookDeliveries,
  updateWebhookEndpoint as updateWebhookEndpointRow,
  type NewWebhookEndpointRow,
} from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { WebhookSignatureScheme } from "@qc/domain";
import type { EventType } from "../events/catalog";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { vetEndpointUrl } from "./vet-endpoint-url";
import { orderedSignatureSchemes, toWebhookEndpointRecord, type WebhookEndpointRecord } from "./webhook-records";
import { sealedSigningKeyPair, webhookSecretBox } from "./webhook-secrets";

export interface UpdateWebhookEndpointInput {
  tenantId: string;
  endpointId: string;
  url?: string;
  /** Replaces the list; empty: every event type. */
  events?: EventType[];
  /** Null clears it. */
  description?: string | null;
  enabled?: boolean;
  /** Replaces the list; adding `v1a` makes the endpoint's key pair, removing it destroys the pair. */
  signatureSchemes?: WebhookSignatureScheme[];
  actor: Actor;
}

/**
 * Changes a subscription; a field left out is unchanged. A new URL is vetted as on creation.
 * Disabling stops its pending deliveries (they can be retried by hand once it is enabled
 * again); enabling clears the reason it was disabled for and its failing streak. Adding `v1a` to
 * the signature schemes makes a key pair (its public key in the answer); removing `v1a` destroys
 * the pair, so adding it again later makes a new one (receivers must fetch the new public key).
 */
export async function updateWebhookEndpoint(
  deps: Pick<ServiceDeps, "db" | "now" | "config">,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointRecord> {
  const url = input.url === undefined ? undefined : await vetEndpointUrl(deps.config.webhooks, input.url);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const key = { tenantId: input.tenantId, endpointId: input.endpointId };
    const current = await requireWebhookEndpoint(tx, { ...key, lock: true });
    const set: Partial<NewWebhookEndpointRow> = { updatedAt: now };
    if (url !== undefined) set.url = url;
    if (input.events !== undefined) set.eventTypes = [...new Set(input.events)];
    if (input.description !== undefined) set.description = input.description;
    if (input.signatureSchemes !== undefined) {
      set.signatureSchemes = orderedSignatureSchemes(input.signatureSchemes);
      if (!set.signatureSchemes.includes("v1a")) {
        Object.assign(set, { signingKeyCiphertext: null, publicKey: null, previousSigningKeyCiphertext: null });
      } else if (!current.signingKeyCiphertext) {
        Object.assign(set, sealedSigningKeyPair(webhookSecretBox(deps.config.webhooks), current.id));
      }
    }
    if (input.enabled === true && current.status === "DISABLED") {
      Object.assign(set, { status: "ENABLED", disabledReason: null, disabledAt: null, failingSince: null });
    } else if (input.enabled === false && current.status === "ENABLED") {
      Object.assign(set, { status: "DISABLED", disabledReason: "MANUAL", disabledAt: now });
      await disablePendingWebhookDeliveries(tx, { ...key, at: now });
    }
    const row = (await updateWebhookEndpointRow(tx, key, set))!;
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.updated",
      target: { type: "webhook", id: row.id },
      details: {
        changed: Object.keys(set).filter((field) => field !== "updatedAt"),
        ...(url !== undefined ? { origin: new URL(url).origin } : {}),
        ...(set.status ? { status: set.status } : {}),
        ...(set.signatureSchemes ? { signatureSchemes: set.signatureSchemes } : {}),
      },
    });
    return toWebhookEndpointRecord(row);
  });
}
