import { timingSafeEqual } from "node:crypto";
import { computeWebhookSignature, WEBHOOK_SECRET_PREFIX, type WebhookBody } from "./sign";

/** Standard Webhooks' default: a delivery older or newer than this is refused (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationReason =
  | "INVALID_SECRET"
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

  const expected = computeWebhookSignature(key, id, timestamp, body);
  let matched = false;
  for (const versioned of signatures.split(" ")) {
    const comma = versioned.indexOf(",");
    if (comma < 0 || versioned.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(versioned.slice(comma + 1), "base64");
    // No early exit: every candidate is compared, so timing says nothing about which matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError("NO_MATCHING_SIGNATURE", "no webhook-signature matches this secret and body");

  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  try {
    return { id, timestamp, payload: JSON.parse(text) };
  } catch {
    throw new WebhookVerificationError("INVALID_PAYLOAD", "the signed body is not JSON");
  }
}
