import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (CONTRACT §7): `v1,<base64 HMAC-SHA256(secret bytes,
 * "<id>.<timestamp>.<body>")>`; secrets are `whsec_` + base64 of 32 random bytes.
 */
export const SECRET_PREFIX = "whsec_";

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

export function secretBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new TypeError("webhook secret must start with whsec_");
  const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  if (bytes.length < 24) throw new TypeError("webhook secret is too short");
  return bytes;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function signaturePart(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * Headers for one delivery attempt. With two secrets (during a rotation's 24 h overlap) both
 * signatures are sent, space-separated, so receivers holding either secret verify.
 */
export function signWebhook(options: { id: string; timestamp: number; body: string; secrets: string[] }): SignedHeaders {
  if (options.secrets.length === 0) throw new TypeError("at least one secret is required");
  return {
    "webhook-id": options.id,
    "webhook-timestamp": String(options.timestamp),
    "webhook-signature": options.secrets.map((s) => signaturePart(s, options.id, options.timestamp, options.body)).join(" "),
  };
}
