import type { WebhookDeliveryAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from "@qc/db/queries";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES, WEBHOOK_SIGNATURE_SCHEMES, type WebhookSignatureScheme } from "@qc/domain";
import { z } from "zod";
import { EVENT_TYPES, type EventType } from "../events/catalog";
import { timestampSchema } from "../records/record-schemas";

/**
 * The webhook records the service hands out (REST bodies, tRPC results), declared once in zod:
 * the routers use them as `.output()`. A secret appears only in `webhookEndpointWithSecretSchema`,
 * the answer of creation and rotation.
 */
export const webhookEventTypeSchema = z
  .enum(EVENT_TYPES as [EventType, ...EventType[]])
  .meta({ description: "an event type of the catalog (docs/webhooks.md)" });

/** One or both schemes, each once; `v1` first when both (the order signatures are sent in). */
export const webhookSignatureSchemesSchema = z
  .array(z.enum(WEBHOOK_SIGNATURE_SCHEMES))
  .min(1)
  .max(WEBHOOK_SIGNATURE_SCHEMES.length)
  .refine((schemes) => new Set(schemes).size === schemes.length, "each scheme at most once")
  .meta({
    description:
      "how deliveries are signed: `v1` (HMAC-SHA256 with the secret, Standard Webhooks) and/or `v1a` (Ed25519 with the endpoint's key pair; verify with `publicKey`)",
    example: ["v1", "v1a"],
  });

/** Why an endpoint is disabled: 410 Gone from the receiver, five days of failures, or its owner. */
export const WEBHOOK_DISABLED_REASONS = ["GONE", "FAILING", "MANUAL"] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

export const webhookEndpointRecordSchema = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(webhookEventTypeSchema).meta({ description: "event types delivered here; empty: every type" }),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  disabledReason: z
    .enum(WEBHOOK_DISABLED_REASONS)
    .nullable()
    .meta({ description: "GONE (the receiver answered 410), FAILING (no success for 5 days) or MANUAL" }),
  disabledAt: timestampSchema.nullable(),
  /** First failure since the last success; null while healthy. */
  failingSince: timestampSchema.nullable(),
  /** While a rotation overlaps, deliveries are signed with the previous secret too, until then. */
  previousSecretExpiresAt: timestampSchema.nullable(),
  signatureSchemes: webhookSignatureSchemesSchema,
  publicKey: z
    .string()
    .nullable()
    .meta({ description: "`whpk_` + base64 of the 32-byte Ed25519 public key that verifies `v1a` signatures; null without `v1a`" }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const webhookEndpointWithSecretSchema = webhookEndpointRecordSchema.extend({
  secret: z.string().meta({ description: "whsec_ + base64 of 32 bytes; shown only in this answer" }),
});

export const webhookDeliveryAttemptRecordSchema = z.object({
  id: z.uuid(),
  attemptedAt: timestampSchema,
  statusCode: z.number().int().nullable().meta({ description: "the receiver's HTTP status; null when no answer came" }),
  durationMs: z.number().int(),
  responseExcerpt: z.string().nullable().meta({ description: "the first 4 KB of the answer" }),
  error: z.string().nullable(),
});

export const webhookDeliveryRecordSchema = z.object({
  id: z.uuid(),
  webhookId: z.uuid(),
  eventId: z.uuid().meta({ description: "the event's id, sent as webhook-id on every attempt" }),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attemptCount: z.number().int().meta({ description: "attempts since the delivery was created or last retried by hand" }),
  nextAttemptAt: timestampSchema.nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  attempts: z.array(webhookDeliveryAttemptRecordSchema).meta({ description: "every attempt, oldest first" }),
});

export type WebhookEndpointRecord = z.infer<typeof webhookEndpointRecordSchema>;
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;
export type WebhookDeliveryRecord = z.infer<typeof webhookDeliveryRecordSchema>;

/** The schemes in the catalog's order (`v1`, `v1a`), each once, whatever order they were given in. */
export function orderedSignatureSchemes(schemes: readonly WebhookSignatureScheme[]): WebhookSignatureScheme[] {
  return WEBHOOK_SIGNATURE_SCHEMES.filter((scheme) => schemes.includes(scheme));
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toWebhookEndpointRecord(row: WebhookEndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    url: row.url,
    description: row.description,
    events: row.eventTypes as EventType[],
    status: row.status,
    disabledReason: row.disabledReason as WebhookDisabledReason | null,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    previousSecretExpiresAt: iso(row.previousSecretExpiresAt),
    signatureSchemes: orderedSignatureSchemes(row.signatureSchemes as WebhookSignatureScheme[]),
    publicKey: row.publicKey,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toWebhookDeliveryRecord(row: WebhookDeliveryRow, attempts: WebhookDeliveryAttemptRow[]): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhookId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    deliveredAt: iso(row.deliveredAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === row.id)
      .map((attempt) => ({
        id: attempt.id,
        attemptedAt: attempt.attemptedAt.toISOString(),
        statusCode: attempt.statusCode,
        durationMs: attempt.durationMs,
        responseExcerpt: attempt.responseExcerpt,
        error: attempt.error,
      })),
  };
}
