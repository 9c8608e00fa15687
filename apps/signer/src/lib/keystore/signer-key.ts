import { readFileSync } from "node:fs";
import { addressFromPublicKey, generateKeyPair, MLDSA87_SEED_LENGTH } from "@qc/chain";
import { randomBytes } from "@noble/hashes/utils.js";
import { bytesToHex, hexToBytes, type Address, type Hex } from "viem";
import { SignerError, UsageError } from "../errors";
import type { StoredKey } from "./format";

export type KeyMaterial = { seed: Hex; publicKey: Hex; address: Address };

/**
 * An ML-DSA-87 key from a 32-byte seed (FIPS 204 ξ), fresh from the platform CSPRNG when
 * none is given. Only the seed is secret: the key pair is re-derived from it when signing.
 */
export function keyFromSeed(seed: Uint8Array = randomBytes(MLDSA87_SEED_LENGTH)): KeyMaterial {
  const { publicKey, secretKey } = generateKeyPair(seed);
  secretKey.fill(0);
  return { seed: bytesToHex(seed), publicKey: bytesToHex(publicKey), address: addressFromPublicKey(publicKey) };
}

/**
 * The ML-DSA-87 secret key of a stored key, derived from its seed. Callers wipe it after use;
 * a seed that does not give the stored address means the keystore was altered.
 */
export function secretKeyOf(key: Pick<StoredKey, "seed" | "address">): Uint8Array {
  const seed = hexToBytes(key.seed as Hex);
  const { publicKey, secretKey } = generateKeyPair(seed);
  seed.fill(0);
  if (addressFromPublicKey(publicKey) !== key.address) {
    secretKey.fill(0);
    throw new SignerError(`the keystore entry for ${key.address} does not derive that address; refusing to use it`);
  }
  return secretKey;
}

/**
 * Reads a seed file for `register-wallet --seed-file`: 64 hex digits (optionally `0x`),
 * surrounding whitespace ignored. The message never echoes the file's content.
 */
export function readSeedFile(path: string): Uint8Array {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new UsageError(`cannot read the seed file ${path} (${(error as NodeJS.ErrnoException).code ?? "read error"})`);
  }
  const hex = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new UsageError(`the seed file ${path} must hold exactly 32 bytes as 64 hex digits (ML-DSA-87 seed)`);
  }
  return hexToBytes(`0x${hex.toLowerCase()}`);
}
