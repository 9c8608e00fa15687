import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (CONTRACT §7): `v1,<base64 HMAC-SHA256(secret bytes,
 * "<id>.<timestamp>.<body>")>`; secrets are `whsec_` + base64 of 32 random bytes.
 */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const WEBHOOK_SECRET_BYTES = 32;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export class InvalidWebhookSecretError extends Error {
  override name = "InvalidWebhookSecretError";
  constructor() {
    // Never echo the value: it is a signing secret.
    super(`webhook secret must be "${WEBHOOK_SECRET_PREFIX}" followed by the base64 of ${WEBHOOK_SECRET_BYTES} bytes`);
  }
}

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString("base64");
}

/** The HMAC key of a `whsec_` secret; strict, because we only ever sign with secrets we made. */
export function webhookSecretBytes(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : null;
  if (encoded === null || !BASE64.test(encoded)) throw new InvalidWebhookSecretError();
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length !== WEBHOOK_SECRET_BYTES) throw new InvalidWebhookSecretError();
  return bytes;
}

export type WebhookBody = string | Uint8Array;

/** The raw HMAC over `<id>.<timestamp>.<body>`; the body is hashed as the exact bytes sent. */
export function computeWebhookSignature(key: Uint8Array, id: string, timestamp: number, body: WebhookBody): Buffer {
  return createHmac("sha256", key)
    .update(`${id}.${timestamp}.`)
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest();
}

export interface SignedWebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export interface SignWebhookParameters {
  /** The event id: stable across retries so receivers can deduplicate. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  body: WebhookBody;
  /** Current secret first; during a rotation's overlap the previous one too. */
  secrets: readonly string[];
}

/**
 * Headers for one delivery attempt. With two secrets both signatures are sent, space-separated,
 * so a receiver still holding the old secret keeps verifying while it switches.
 */
export function signWebhook(parameters: SignWebhookParameters): SignedWebhookHeaders {
  const { id, timestamp, body, secrets } = parameters;
  if (secrets.length === 0) throw new TypeError("at least one secret is required");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError("timestamp must be Unix seconds");
  // A space or comma in the id would split the signed string differently for the receiver.
  if (!/^[^\s,]{1,256}$/.test(id)) throw new TypeError("webhook id must be 1-256 characters without spaces or commas");
  const signatures = secrets.map(
    (secret) => `v1,${computeWebhookSignature(webhookSecretBytes(secret), id, timestamp, body).toString("base64")}`,
  );
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}
