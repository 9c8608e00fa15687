import { EVENT_TYPES, MAX_WEBHOOK_URL_LENGTH, webhookEndpointRecordSchema, webhookEventTypeSchema } from "@qc/core";
import { z } from "zod";
import { EXAMPLE } from "../../openapi-examples";
import { multilineText, text } from "../../schemas/common";

export {
  webhookDeliveryRecordSchema as webhookDelivery,
  webhookEndpointRecordSchema as webhookEndpoint,
  webhookEndpointWithSecretSchema as webhookEndpointWithSecret,
} from "@qc/core";

export const webhookIdParam = z.uuid().meta({ description: "the webhook endpoint's id", example: "0194f2c4-cf65-7273-9e8f-60718293a4b5" });
export const deliveryIdParam = z.uuid().meta({ description: "the delivery's id", example: "0194f2c4-d076-7384-8f90-718293a4b5c6" });

export const webhookUrl = text().trim().min(1).max(MAX_WEBHOOK_URL_LENGTH).meta({
  description: "https URL resolving to public addresses only; redirects are not followed",
  example: "https://hooks.example.com/quantum-custody",
});
export const webhookEvents = z
  .array(webhookEventTypeSchema)
  .max(EVENT_TYPES.length * 2)
  .meta({
    description: "event types to deliver; omitted or empty: every type",
    example: ["transaction.status_changed", "transaction.created"],
  });
export const webhookDescription = multilineText().trim().max(500);
export const webhookSignatureSchemes = webhookEndpointRecordSchema.shape.signatureSchemes;

export const EXAMPLE_WEBHOOK = {
  id: "0194f2c4-cf65-7273-9e8f-60718293a4b5",
  tenantId: EXAMPLE.tenantId,
  url: "https://hooks.example.com/quantum-custody",
  description: "treasury ledger",
  events: ["transaction.status_changed", "transaction.created"],
  status: "ENABLED",
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  signatureSchemes: ["v1", "v1a"],
  publicKey: "whpk_dSw4h+gP7NuGPCgpN+nwN/j/ujKMip4Y8T+JvQkhohE=",
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} as const;

/** Not a real secret: the shape of one. */
export const EXAMPLE_WEBHOOK_SECRET = "whsec_3POh3C3Qam3HCAKn1ieh8lS5ovr4tNOROCYB9QIwM/g=";

export const EXAMPLE_DELIVERY = {
  id: "0194f2c4-d076-7384-8f90-718293a4b5c6",
  webhookId: EXAMPLE_WEBHOOK.id,
  eventId: "0194f2c4-e187-7495-9a01-8293a4b5c6d7",
  eventType: "transaction.status_changed",
  status: "DELIVERED",
  attemptCount: 2,
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastError: null,
  deliveredAt: "2026-11-21T10:00:05.412Z",
  createdAt: EXAMPLE.createdAt,
  updatedAt: "2026-11-21T10:00:05.412Z",
  attempts: [
    {
      id: "0194f2c4-f298-75a6-8b12-93a4b5c6d7e8",
      attemptedAt: EXAMPLE.createdAt,
      statusCode: 503,
      durationMs: 87,
      responseExcerpt: "upstream busy",
      error: "HTTP 503",
    },
    {
      id: "0194f2c5-03a9-76b7-9c23-a4b5c6d7e8f9",
      attemptedAt: "2026-11-21T10:00:05.301Z",
      statusCode: 200,
      durationMs: 111,
      responseExcerpt: "ok",
      error: null,
    },
  ],
} as const;
