import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import type { Hex } from "viem";
import { InvalidSecretKeyError } from "../errors/address";
import { MLDSA87_SECRET_KEY_LENGTH, MLDSA87_SEED_LENGTH } from "./constants";
import { bytesFromInput } from "./encoding";

/**
 * The ML-DSA-87 primitive (FIPS 204) from `@noble/post-quantum`. Exposed for benchmarks and
 * interop tests; application code uses the protocol functions, which fix the contexts.
 */
export const mlDsa87 = ml_dsa87;

export type QuantumKeyPair = {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
};

/**
 * ML-DSA-87 key pair. With a 32-byte `seed` (FIPS 204 ξ) the result is deterministic and
 * identical to go-qrllib / `@theqrl/mldsa87` for the same seed; without one a fresh seed
 * comes from the platform CSPRNG.
 */
export function generateKeyPair(seed?: Uint8Array): QuantumKeyPair {
  if (seed !== undefined && seed.length !== MLDSA87_SEED_LENGTH) {
    throw new RangeError(`ML-DSA-87 seed must be ${MLDSA87_SEED_LENGTH} bytes, got ${seed.length}`);
  }
  const { publicKey, secretKey } = ml_dsa87.keygen(seed);
  return { publicKey, secretKey };
}

/** Public key of an ML-DSA-87 secret key (the secret key holds what is needed to rebuild it). */
export function publicKeyFromSecretKey(secretKey: Uint8Array | Hex): Uint8Array {
  return ml_dsa87.getPublicKey(secretKeyBytes(secretKey));
}

export function secretKeyBytes(secretKey: Uint8Array | Hex): Uint8Array {
  const bytes = bytesFromInput(secretKey);
  if (!bytes || bytes.length !== MLDSA87_SECRET_KEY_LENGTH) throw new InvalidSecretKeyError({ length: bytes?.length });
  return bytes;
}
