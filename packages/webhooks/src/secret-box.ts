import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Webhook secrets at rest: AES-256-GCM under a key from configuration, never from the database,
 * so a dump of the database alone cannot sign a webhook.
 *
 * Envelope: `v1.<keyId>.<base64url(nonce)>.<base64url(ciphertext ‖ tag)>`. The key id lets a
 * new key be introduced while rows sealed under the old one still open (`needsReseal` tells
 * which rows to re-seal). Associated data binds a ciphertext to its row, so a ciphertext copied
 * into another endpoint's row does not open there.
 */
const VERSION = "v1";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export type SecretBoxErrorReason = "INVALID_KEY" | "MALFORMED" | "UNKNOWN_KEY" | "AUTHENTICATION_FAILED";

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
  constructor(
    readonly reason: SecretBoxErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export interface SecretBox {
  /** Id of the key new envelopes are sealed with. */
  readonly currentKeyId: string;
  seal(plaintext: string, associatedData: string): string;
  open(envelope: string, associatedData: string): string;
  /** True when the envelope was sealed under an older key and should be re-sealed. */
  needsReseal(envelope: string): boolean;
}

/** 32 random bytes as base64, the format `parseSecretBoxKey` reads (e.g. from `WEBHOOK_SECRET_KEY`). */
export function generateSecretBoxKey(): string {
  return randomBytes(KEY_BYTES).toString("base64");
}

/** Reads a 32-byte key written as 64 hex digits or as base64 / base64url. */
export function parseSecretBoxKey(text: string): Buffer {
  const trimmed = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) key = Buffer.from(trimmed, "hex");
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) key = Buffer.from(trimmed, "base64"); // Node's base64 decoder reads both alphabets
  if (!key || key.length !== KEY_BYTES)
    throw new SecretBoxError("INVALID_KEY", "the secret key must be 32 bytes as 64 hex digits or base64");
  return key;
}

/** A short public fingerprint of a key, stored in each envelope; reveals nothing usable about the key. */
export function secretBoxKeyId(key: Uint8Array): string {
  return createHash("sha256").update("qc-secret-box-key-id\0").update(key).digest("hex").slice(0, 12);
}

/**
 * `current` seals; `previous` keys only open, for the time it takes to re-seal the rows
 * written under them.
 */
export function createSecretBox(options: { current: Uint8Array; previous?: readonly Uint8Array[] }): SecretBox {
  const keys = new Map<string, Uint8Array>();
  for (const key of [options.current, ...(options.previous ?? [])]) {
    if (key.length !== KEY_BYTES) throw new SecretBoxError("INVALID_KEY", "a secret box key must be 32 bytes");
    keys.set(secretBoxKeyId(key), Uint8Array.from(key));
  }
  const currentKeyId = secretBoxKeyId(options.current);

  function parse(envelope: string): { keyId: string; nonce: Buffer; sealed: Buffer } {
    const parts = envelope.split(".");
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError("MALFORMED", "not a v1 secret envelope");
    const [, keyId, nonce, sealed] = parts as [string, string, string, string];
    const nonceBytes = Buffer.from(nonce, "base64url");
    const sealedBytes = Buffer.from(sealed, "base64url");
    if (nonceBytes.length !== NONCE_BYTES || sealedBytes.length < TAG_BYTES)
      throw new SecretBoxError("MALFORMED", "not a v1 secret envelope");
    return { keyId, nonce: nonceBytes, sealed: sealedBytes };
  }

  return {
    currentKeyId,
    seal(plaintext, associatedData) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keys.get(currentKeyId)!, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(associatedData, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, currentKeyId, nonce.toString("base64url"), ciphertext.toString("base64url")].join(".");
    },
    open(envelope, associatedData) {
      const { keyId, nonce, sealed } = parse(envelope);
      const key = keys.get(keyId);
      if (!key) throw new SecretBoxError("UNKNOWN_KEY", `sealed under key ${keyId}, which is not configured`);
      const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(associatedData, "utf8"));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError("AUTHENTICATION_FAILED", "the sealed secret was altered or belongs to another row");
      }
    },
    needsReseal(envelope) {
      return parse(envelope).keyId !== currentKeyId;
    },
  };
}
