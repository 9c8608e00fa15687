import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { randomBytes } from "@noble/ciphers/utils.js";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { z } from "zod";
import { SignerError } from "../errors";

/**
 * The keystore file, version 2. Everything a person keeps secret (seeds, the API key) and
 * everything that tells which addresses they hold is inside `ciphertext`; the header says
 * only how to decrypt it, and is authenticated as associated data so that a changed
 * parameter fails like a wrong passphrase instead of weakening anything.
 *
 *   { format, version: 2,
 *     kdf: { name: "scrypt", n, r, p, salt },            salt: base64, 16 bytes
 *     cipher: { name: "xchacha20-poly1305", nonce },     nonce: base64, 24 bytes, fresh per write
 *     ciphertext }                                       base64 of the sealed JSON contents
 */
export const KEYSTORE_FORMAT = "quantum-signer-keystore";
/**
 * Version 2 added the approval keys (CONTRACT §15). A version 1 file is read (it has none) and
 * written back as version 2 on its first change, so that a version 1 signer refuses it ("upgrade
 * the signer") instead of rewriting it without the approval keys it cannot read.
 */
export const KEYSTORE_VERSION = 2;

export type KdfParameters = { n: number; r: number; p: number };

/**
 * scrypt at N = 2^17, r = 8, p = 1: 128 MiB and about half a second per unlock on a laptop,
 * the cost OWASP recommends for interactive logins, paid once per command.
 */
export const DEFAULT_KDF: KdfParameters = { n: 2 ** 17, r: 8, p: 1 };

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

const kdfSchema = z.object({
  name: z.literal("scrypt"),
  // Bounded both ways: below 2^14 is too cheap to guess against; above 2^22 a tampered
  // file could make every unlock take minutes and gigabytes.
  n: z
    .number()
    .int()
    .min(2 ** 14)
    .max(2 ** 22)
    .refine((n) => (n & (n - 1)) === 0, "must be a power of two"),
  r: z.number().int().min(1).max(32),
  p: z.number().int().min(1).max(16),
  salt: base64,
});

export const keystoreFileSchema = z.object({
  format: z.literal(KEYSTORE_FORMAT),
  version: z.number().int().min(1).max(KEYSTORE_VERSION),
  kdf: kdfSchema,
  cipher: z.object({ name: z.literal("xchacha20-poly1305"), nonce: base64 }),
  ciphertext: base64,
});
export type KeystoreFile = z.infer<typeof keystoreFileSchema>;
export type KeystoreHeader = Pick<KeystoreFile, "format" | "version" | "kdf"> & { cipher: { name: "xchacha20-poly1305" } };

export const storedKeySchema = z.object({
  address: z.string().regex(/^0x[0-9a-f]{40}$/),
  publicKey: z.string().regex(/^0x[0-9a-f]+$/),
  /** The 32-byte FIPS 204 seed (ξ) the key pair is derived from, hex. */
  seed: z.string().regex(/^0x[0-9a-f]{64}$/),
  origin: z.enum(["GENERATED", "IMPORTED"]),
  /**
   * PENDING_ENROLLMENT / PENDING_REGISTRATION: written before the upload, so that the
   * service never holds a key whose secret is not on this disk; ENROLLED / REGISTERED only
   * once the service accepted it.
   */
  status: z.enum(["PENDING_ENROLLMENT", "ENROLLED", "PENDING_REGISTRATION", "REGISTERED"]),
  tenantId: z.string(),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
  vaultId: z.string().nullable(),
  walletId: z.string().nullable(),
  label: z.string().nullable(),
});
export type StoredKey = z.infer<typeof storedKeySchema>;

/**
 * An approval key (CONTRACT §15): an ML-DSA-87 key that signs a member's approvals and nothing
 * else. It lives apart from the transaction keys (`keys`), so `review` never finds it and
 * `approve` never finds a transaction key. It belongs to one member (`userId`) of one tenant.
 */
export const approvalKeySchema = z.object({
  /** The service's id for it, from `POST /v1/members/me/approval-keys`; null until then. */
  keyId: z.string().nullable(),
  publicKey: z.string().regex(/^0x[0-9a-f]+$/),
  seed: z.string().regex(/^0x[0-9a-f]{64}$/),
  /** PENDING_ENROLLMENT: written before the upload; ENROLLED once the service accepted it. */
  status: z.enum(["PENDING_ENROLLMENT", "ENROLLED"]),
  tenantId: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
});
export type StoredApprovalKey = z.infer<typeof approvalKeySchema>;

export const keystoreContentsSchema = z.object({
  keys: z.array(storedKeySchema),
  /** Absent from a version 1 keystore. */
  approvalKeys: z.array(approvalKeySchema).default([]),
  /** `<keyId>:<secret>` of the profile's API key, or null before `login`. */
  apiKey: z.string().nullable(),
});
export type KeystoreContents = z.infer<typeof keystoreContentsSchema>;

export function newKeystoreHeader(kdf: KdfParameters = DEFAULT_KDF): KeystoreHeader {
  return {
    format: KEYSTORE_FORMAT,
    version: KEYSTORE_VERSION,
    kdf: { name: "scrypt", ...kdf, salt: Buffer.from(randomBytes(16)).toString("base64") },
    cipher: { name: "xchacha20-poly1305" },
  };
}

/** The 32-byte encryption key of a passphrase under the header's scrypt parameters. */
export function deriveKeystoreKey(passphrase: string, header: KeystoreHeader): Promise<Uint8Array> {
  // NFKC so that the same passphrase typed on another system or keyboard gives the same key.
  return scryptAsync(passphrase.normalize("NFKC"), Buffer.from(header.kdf.salt, "base64"), {
    N: header.kdf.n,
    r: header.kdf.r,
    p: header.kdf.p,
    dkLen: 32,
  });
}

function associatedData(header: KeystoreHeader): Uint8Array {
  const { format, version, kdf, cipher } = header;
  return new TextEncoder().encode(JSON.stringify([format, version, kdf.name, kdf.n, kdf.r, kdf.p, kdf.salt, cipher.name]));
}

/** Encrypts the contents under `key` with a fresh nonce. */
export function sealKeystore(header: KeystoreHeader, key: Uint8Array, contents: KeystoreContents): KeystoreFile {
  const nonce = randomBytes(24);
  const plaintext = new TextEncoder().encode(JSON.stringify(keystoreContentsSchema.parse(contents)));
  const ciphertext = xchacha20poly1305(key, nonce, associatedData(header)).encrypt(plaintext);
  plaintext.fill(0);
  return {
    ...header,
    cipher: { name: header.cipher.name, nonce: Buffer.from(nonce).toString("base64") },
    ciphertext: Buffer.from(ciphertext).toString("base64"),
  };
}

/** Decrypts; `undefined` when the key is wrong or the file was altered (indistinguishable). */
export function unsealKeystore(file: KeystoreFile, key: Uint8Array): KeystoreContents | undefined {
  let plaintext: Uint8Array;
  try {
    plaintext = xchacha20poly1305(key, Buffer.from(file.cipher.nonce, "base64"), associatedData(file)).decrypt(
      Buffer.from(file.ciphertext, "base64"),
    );
  } catch {
    return undefined;
  }
  try {
    const parsed = keystoreContentsSchema.safeParse(JSON.parse(new TextDecoder().decode(plaintext)));
    if (!parsed.success) throw new SignerError(`the keystore decrypted but its contents are not a version ${file.version} keystore`);
    return parsed.data;
  } finally {
    plaintext.fill(0);
  }
}

/** Parses the file's JSON, with a message that says what is wrong and never what it holds. */
export function parseKeystoreFile(path: string, text: string): KeystoreFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SignerError(`${path} is not a signer keystore (not JSON)`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if ((json as { format?: unknown } | null)?.format === KEYSTORE_FORMAT && typeof version === "number" && version > KEYSTORE_VERSION) {
    throw new SignerError(
      `${path} is a version ${version} keystore; this signer reads versions 1 to ${KEYSTORE_VERSION}: upgrade the signer`,
    );
  }
  const parsed = keystoreFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SignerError(
      `${path} is not a valid signer keystore (${issue ? `${issue.path.join(".") || "file"}: ${issue.message}` : "invalid"})`,
    );
  }
  return parsed.data;
}
