import { timingSafeEqual, verify as verifyBytes, type KeyObject } from "node:crypto";
import {
  computeWebhookSignature,
  InvalidWebhookKeyError,
  WEBHOOK_SECRET_PREFIX,
  webhookPublicKeyObject,
  webhookSignedContent,
  type WebhookBody,
} from "./sign";

/** Standard Webhooks' default: a delivery older or newer than this is refused (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationReason =
  | "INVALID_SECRET"
  | "INVALID_PUBLIC_KEY"
  | "MISSING_HEADERS"
  | "INVALID_TIMESTAMP"
  | "TIMESTAMP_TOO_OLD"
  | "TIMESTAMP_TOO_NEW"
  | "NO_MATCHING_SIGNATURE"
  | "INVALID_PAYLOAD";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** Node's `req.headers`, a fetch `Headers`, or a plain object with any header-name case. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  toleranceSeconds?: number;
  /** Unix seconds; defaults to the clock. */
  nowSeconds?: number;
}

export interface VerifiedWebhook {
  /** `webhook-id`: the event id, the same on every retry; deduplicate on it. */
  id: string;
  /** `webhook-timestamp` in Unix seconds (the time of this attempt, not of the event). */
  timestamp: number;
  /** The parsed body: `{id, type, timestamp, data}`. */
  payload: unknown;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(" ") : value;
  }
  return undefined;
}

function secretKey(secret: string): Buffer {
  // Lenient like the reference library: the prefix is optional for integrators.
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, "base64") : Buffer.alloc(0);
  if (key.length < 16) throw new WebhookVerificationError("INVALID_SECRET", "the webhook secret is not a whsec_ secret");
  return key;
}

/** The signed headers, checked for presence and freshness; the signature entries split by version. */
function readSignedHeaders(headers: WebhookHeaders, options: VerifyWebhookOptions) {
  const id = header(headers, "webhook-id");
  const timestampHeader = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestampHeader || !signatures) {
    throw new WebhookVerificationError("MISSING_HEADERS", "webhook-id, webhook-timestamp and webhook-signature are required");
  }
  if (!/^\d{1,12}$/.test(timestampHeader)) throw new WebhookVerificationError("INVALID_TIMESTAMP", "webhook-timestamp is not Unix seconds");
  const timestamp = Number(timestampHeader);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (now - timestamp > tolerance) throw new WebhookVerificationError("TIMESTAMP_TOO_OLD", "webhook-timestamp is too old");
  if (timestamp - now > tolerance) throw new WebhookVerificationError("TIMESTAMP_TOO_NEW", "webhook-timestamp is in the future");
  /** The decoded signatures of one version (`v1`, `v1a`). */
  const entries = (version: string): Buffer[] =>
    signatures.split(" ").flatMap((versioned) => {
      const comma = versioned.indexOf(",");
      return comma >= 0 && versioned.slice(0, comma) === version ? [Buffer.from(versioned.slice(comma + 1), "base64")] : [];
    });
  return { id, timestamp, entries };
}

function parsedPayload(id: string, timestamp: number, body: WebhookBody): VerifiedWebhook {
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  try {
    return { id, timestamp, payload: JSON.parse(text) };
  } catch {
    throw new WebhookVerificationError("INVALID_PAYLOAD", "the signed body is not JSON");
  }
}

/**
 * Verifies a Standard Webhooks delivery as an integrator's receiver does: pass the raw body
 * exactly as received (re-serialised JSON would not match). Any of the space-separated `v1`
 * signatures may match (two are sent while a secret rotates). Throws `WebhookVerificationError`.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: WebhookBody,
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  const key = secretKey(secret);
  const { id, timestamp, entries } = readSignedHeaders(headers, options);
  const expected = computeWebhookSignature(key, id, timestamp, body);
  let matched = false;
  for (const given of entries("v1")) {
    // No early exit: every candidate is compared, so timing says nothing about which matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError("NO_MATCHING_SIGNATURE", "no webhook-signature matches this secret and body");
  return parsedPayload(id, timestamp, body);
}

/**
 * Verifies the `v1a` (Ed25519) signatures of a delivery with the endpoint's public key
 * (`whpk_…`, from `GET /v1/webhooks/{id}`): no shared secret needed. Any `v1a` entry may match
 * (two are sent while a rotation overlaps). Throws `WebhookVerificationError`.
 */
export function verifyWebhookWithPublicKey(
  publicKey: string,
  headers: WebhookHeaders,
  body: WebhookBody,
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  let key: KeyObject;
  try {
    key = webhookPublicKeyObject(publicKey);
  } catch (error) {
    if (error instanceof InvalidWebhookKeyError) throw new WebhookVerificationError("INVALID_PUBLIC_KEY", error.message);
    throw error;
  }
  const { id, timestamp, entries } = readSignedHeaders(headers, options);
  const content = webhookSignedContent(id, timestamp, body);
  const matched = entries("v1a").some((signature) => signature.length === 64 && verifyBytes(null, content, key, signature));
  if (!matched) throw new WebhookVerificationError("NO_MATCHING_SIGNATURE", "no v1a webhook-signature matches this public key and body");
  return parsedPayload(id, timestamp, body);
}
