import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { Webhook, WebhookVerificationError as StandardWebhookError } from "standardwebhooks";

/** Standard Webhooks' tolerance: a delivery stamped more than 5 minutes away from now is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export const WEBHOOK_PUBLIC_KEY_PREFIX = "whpk_";

/** The envelope of every event (docs/webhooks.md); `data` depends on `type`. */
export interface WebhookEvent<Data = Record<string, unknown>> {
  id: string;
  type: string;
  timestamp: string;
  sequence?: number;
  data: Data;
}

export interface VerifyWebhookOptions {
  /** The endpoint's `whsec_…` secret: checks the `v1` (HMAC-SHA256) signatures. */
  secret?: string;
  /** The endpoint's `whpk_…` public key: checks the `v1a` (Ed25519) signatures. */
  publicKey?: string;
}

/**
 * The delivery's headers: a fetch `Headers`, Node's `req.headers`, or any object of names to
 * values (an interface without an index signature too, hence `object`).
 */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>> | object;

/** A delivery that is not authentic, or too old or too new to accept. The message says which check failed, never a key. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

function headerValues(headers: WebhookHeaders): Record<string, string> {
  const entries: [string, string][] = [];
  if (typeof (headers as Headers).forEach === "function" && typeof (headers as Headers).get === "function") {
    (headers as Headers).forEach((value, name) => entries.push([name.toLowerCase(), value]));
  } else {
    for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
      if (value !== undefined) entries.push([name.toLowerCase(), typeof value === "string" ? value : value.join(" ")]);
    }
  }
  return Object.fromEntries(entries);
}

function ed25519PublicKey(publicKey: string): KeyObject {
  const encoded = publicKey.startsWith(WEBHOOK_PUBLIC_KEY_PREFIX) ? publicKey.slice(WEBHOOK_PUBLIC_KEY_PREFIX.length) : "";
  const bytes = Buffer.from(encoded, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || bytes.length !== 32) {
    throw new TypeError(`publicKey must be "${WEBHOOK_PUBLIC_KEY_PREFIX}" followed by the base64 of 32 bytes`);
  }
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: bytes.toString("base64url") }, format: "jwk" });
}

/** `v1a`: Ed25519 over `<webhook-id>.<webhook-timestamp>.<body>`, the content `v1` signs. */
function verifyV1a(body: Buffer, headers: Record<string, string>, publicKey: KeyObject, now: number): void {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("invalid webhook-timestamp");
  const seconds = Number(timestamp);
  if (now - seconds > WEBHOOK_TOLERANCE_SECONDS) throw new WebhookVerificationError("webhook timestamp too old");
  if (seconds - now > WEBHOOK_TOLERANCE_SECONDS) throw new WebhookVerificationError("webhook timestamp too new");
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  for (const entry of signatures.split(" ")) {
    const [scheme, signature] = entry.split(",", 2);
    if (scheme !== "v1a" || !signature) continue;
    const bytes = Buffer.from(signature, "base64");
    if (bytes.length === 64 && verify(null, content, publicKey, bytes)) return;
  }
  throw new WebhookVerificationError("no matching v1a signature");
}

/**
 * Checks a delivery against the raw body as received (not re-serialised JSON) and returns the
 * event. `v1` is checked by the `standardwebhooks` library with `secret`; `v1a` with Ed25519 and
 * `publicKey`. It is authentic when any listed signature verifies with a key given; either way
 * the timestamp must be within 5 minutes of now. Throws `WebhookVerificationError` otherwise.
 */
export function verifyWebhook<Data = Record<string, unknown>>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyWebhookOptions,
): WebhookEvent<Data> {
  if (options.secret === undefined && options.publicKey === undefined)
    throw new TypeError("verifyWebhook needs a secret (v1) or a publicKey (v1a)");
  const raw = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const values = headerValues(headers);
  const now = Math.floor(Date.now() / 1000);
  const failures: string[] = [];
  let verified = false;
  if (options.publicKey !== undefined) {
    try {
      verifyV1a(raw, values, ed25519PublicKey(options.publicKey), now);
      verified = true;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      failures.push(error.message);
    }
  }
  if (!verified && options.secret !== undefined) {
    try {
      new Webhook(options.secret).verify(raw.toString("utf8"), values);
      verified = true;
    } catch (error) {
      if (!(error instanceof StandardWebhookError)) throw error;
      failures.push(error.message);
    }
  }
  if (!verified) throw new WebhookVerificationError(`webhook not verified: ${failures.join("; ")}`);
  try {
    return JSON.parse(raw.toString("utf8")) as WebhookEvent<Data>;
  } catch {
    throw new WebhookVerificationError("webhook body is not JSON");
  }
}
