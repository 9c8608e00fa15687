import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from "@qc/domain";
import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity";
import { createdAt, id, updatedAt } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const webhookEndpointStatus = pgEnum("webhook_endpoint_status", WEBHOOK_ENDPOINT_STATUSES);
export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", WEBHOOK_DELIVERY_STATUSES);

/**
 * A tenant's subscription (CONTRACT §7). Secrets are stored only as secret-box envelopes
 * (packages/webhooks `createSecretBox`, key from configuration): a database dump alone cannot
 * sign. During a rotation the previous secret keeps signing until `previous_secret_expires_at`.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    url: text("url").notNull(),
    description: text("description"),
    /** Event types delivered here; empty means every type. */
    eventTypes: text("event_types")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: webhookEndpointStatus("status").notNull().default("ENABLED"),
    /** Why it was disabled, e.g. `GONE` (410) or `FAILING` (five days); null while enabled. */
    disabledReason: text("disabled_reason"),
    disabledAt: ts("disabled_at"),
    secretCiphertext: text("secret_ciphertext").notNull(),
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /**
     * CONTRACT §18: the schemes each delivery is signed with — `v1` (HMAC with the secret) and/or
     * `v1a` (Ed25519 with the endpoint's key pair below).
     */
    signatureSchemes: text("signature_schemes")
      .array()
      .notNull()
      .default(sql`'{v1}'::text[]`),
    /** The Ed25519 private key, sealed like the secret; null until `v1a` is asked for. */
    signingKeyCiphertext: text("signing_key_ciphertext"),
    /** Its public key as shown to the owner: `whpk_<base64 of 32 bytes>`. */
    publicKey: text("public_key"),
    /** During a rotation the previous key pair keeps signing `v1a` until `previous_secret_expires_at`. */
    previousSigningKeyCiphertext: text("previous_signing_key_ciphertext"),
    /** First failure since the last success; null when the last attempt succeeded. */
    failingSince: ts("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    index("webhook_endpoints_tenant_idx")
      .on(t.tenantId, t.id)
      .where(sql`${t.deletedAt} is null`),
    // The fan-out reads a tenant's enabled endpoints for every event.
    index("webhook_endpoints_tenant_enabled_idx")
      .on(t.tenantId)
      .where(sql`${t.status} = 'ENABLED' and ${t.deletedAt} is null`),
    check("webhook_endpoints_url_scheme", sql`${t.url} ~ '^https?://'`),
    check(
      "webhook_endpoints_disabled_shape",
      sql`(${t.status} = 'DISABLED') = (${t.disabledAt} is not null) and (${t.status} = 'DISABLED' or ${t.disabledReason} is null)`,
    ),
    check("webhook_endpoints_previous_secret_pair", sql`(${t.previousSecretCiphertext} is null) = (${t.previousSecretExpiresAt} is null)`),
    check(
      "webhook_endpoints_signature_schemes",
      sql`cardinality(${t.signatureSchemes}) between 1 and 2 and ${t.signatureSchemes} <@ array['v1', 'v1a']::text[]`,
    ),
    check(
      "webhook_endpoints_key_pair",
      sql`(${t.signingKeyCiphertext} is null) = (${t.publicKey} is null) and (not 'v1a' = any(${t.signatureSchemes}) or ${t.signingKeyCiphertext} is not null)`,
    ),
    check(
      "webhook_endpoints_previous_key_during_rotation",
      sql`${t.previousSigningKeyCiphertext} is null or ${t.previousSecretExpiresAt} is not null`,
    ),
  ],
);

/**
 * One event for one endpoint. `event_id` is the outbox event's id, sent as `webhook-id` on
 * every attempt; the unique (endpoint, event) pair makes a repeated fan-out a no-op. No foreign
 * key to the outbox, so old outbox rows can be pruned while their delivery history stays.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    status: webhookDeliveryStatus("status").notNull().default("PENDING"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_unique").on(t.endpointId, t.eventId),
    index("webhook_deliveries_tenant_endpoint_idx").on(t.tenantId, t.endpointId, t.id),
    // The sweeper that re-enqueues due attempts; not a tenant query.
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    check("webhook_deliveries_attempt_count", sql`${t.attemptCount} >= 0`),
    check("webhook_deliveries_pending_has_next", sql`(${t.status} = 'PENDING') = (${t.nextAttemptAt} is not null)`),
  ],
);

/** Every attempt, kept for the owner to debug: status, duration, the start of the answer, the error. */
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attemptedAt: ts("attempted_at").notNull().defaultNow(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [
    index("webhook_delivery_attempts_tenant_delivery_idx").on(t.tenantId, t.deliveryId, t.id),
    check("webhook_delivery_attempts_duration", sql`${t.durationMs} >= 0`),
  ],
);
