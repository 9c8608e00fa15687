import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign as signBytes,
  type KeyObject,
} from "node:crypto";

/**
 * Standard Webhooks signing (CONTRACT §7): `v1,<base64 HMAC-SHA256(secret bytes,
 * "<id>.<timestamp>.<body>")>`; secrets are `whsec_` + base64 of 32 random bytes. And the
 * asymmetric scheme (CONTRACT §18): `v1a,<base64 Ed25519 signature>` over the same content, with
 * the endpoint's key pair (public key `whpk_` + base64 of 32 bytes, private key `whsk_` + base64 of
 * its 32-byte seed, which never leaves the service).
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

export const WEBHOOK_PUBLIC_KEY_PREFIX = "whpk_";
export const WEBHOOK_SIGNING_KEY_PREFIX = "whsk_";
const ED25519_KEY_BYTES = 32;
/** The DER headers that wrap a raw Ed25519 seed (PKCS#8) and public key (SPKI), RFC 8410. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export class InvalidWebhookKeyError extends Error {
  override name = "InvalidWebhookKeyError";
  constructor(kind: "public" | "signing") {
    // Never echo the value: a signing key is a secret.
    const prefix = kind === "public" ? WEBHOOK_PUBLIC_KEY_PREFIX : WEBHOOK_SIGNING_KEY_PREFIX;
    super(`webhook ${kind} key must be "${prefix}" followed by the base64 of ${ED25519_KEY_BYTES} bytes`);
  }
}

function keyBytes(text: string, kind: "public" | "signing"): Buffer {
  const prefix = kind === "public" ? WEBHOOK_PUBLIC_KEY_PREFIX : WEBHOOK_SIGNING_KEY_PREFIX;
  const encoded = text.startsWith(prefix) ? text.slice(prefix.length) : null;
  if (encoded === null || !BASE64.test(encoded)) throw new InvalidWebhookKeyError(kind);
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length !== ED25519_KEY_BYTES) throw new InvalidWebhookKeyError(kind);
  return bytes;
}

/** A `whsk_` signing key as a node:crypto private key. */
function signingKeyObject(signingKey: string): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, keyBytes(signingKey, "signing")]), format: "der", type: "pkcs8" });
}

/** A `whpk_` public key as a node:crypto public key (what a receiver verifies `v1a` with). */
export function webhookPublicKeyObject(publicKey: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, keyBytes(publicKey, "public")]), format: "der", type: "spki" });
}

function rawPublicKey(key: KeyObject): string {
  const spki = createPublicKey(key).export({ format: "der", type: "spki" });
  return WEBHOOK_PUBLIC_KEY_PREFIX + spki.subarray(SPKI_ED25519_PREFIX.length).toString("base64");
}

/** A fresh Ed25519 key pair for `v1a`: `signingKey` is sealed at rest, `publicKey` shown to the owner. */
export function generateWebhookSigningKeyPair(): { signingKey: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync("ed25519");
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" });
  return {
    signingKey: WEBHOOK_SIGNING_KEY_PREFIX + pkcs8.subarray(PKCS8_ED25519_PREFIX.length).toString("base64"),
    publicKey: rawPublicKey(privateKey),
  };
}

/** The `whpk_` public key of a `whsk_` signing key. */
export function webhookPublicKeyOf(signingKey: string): string {
  return rawPublicKey(signingKeyObject(signingKey));
}

/** The content both schemes sign: `<id>.<timestamp>.<body>`, the body as the exact bytes sent. */
export function webhookSignedContent(id: string, timestamp: number, body: WebhookBody): Buffer {
  return Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), typeof body === "string" ? Buffer.from(body, "utf8") : body]);
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
  /** `v1`: current secret first; during a rotation's overlap the previous one too. Empty: no `v1`. */
  secrets: readonly string[];
  /** `v1a`: `whsk_` signing keys, current first, then the previous one during a rotation's overlap. */
  signingKeys?: readonly string[];
}

/**
 * Headers for one delivery attempt: a `v1` entry per secret, then a `v1a` entry per signing key,
 * space-separated. With two secrets (or keys) both signatures are sent, so a receiver still
 * holding the old one keeps verifying while it switches.
 */
export function signWebhook(parameters: SignWebhookParameters): SignedWebhookHeaders {
  const { id, timestamp, body, secrets } = parameters;
  const signingKeys = parameters.signingKeys ?? [];
  if (secrets.length + signingKeys.length === 0) throw new TypeError("at least one secret or signing key is required");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError("timestamp must be Unix seconds");
  // A space or comma in the id would split the signed string differently for the receiver.
  if (!/^[^\s,]{1,256}$/.test(id)) throw new TypeError("webhook id must be 1-256 characters without spaces or commas");
  const signatures = secrets.map(
    (secret) => `v1,${computeWebhookSignature(webhookSecretBytes(secret), id, timestamp, body).toString("base64")}`,
  );
  if (signingKeys.length > 0) {
    const content = webhookSignedContent(id, timestamp, body);
    for (const signingKey of signingKeys) {
      signatures.push(`v1a,${signBytes(null, content, signingKeyObject(signingKey)).toString("base64")}`);
    }
  }
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}
