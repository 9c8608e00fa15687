import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { bytesToHex, type Hex } from "viem";
import { addressFromPublicKey, parseAddress } from "./address";
import { MLDSA87_PUBLIC_KEY_LENGTH, MLDSA87_SIGNATURE_LENGTH, OWNERSHIP_PROOF_CONTEXT_BYTES } from "./constants";
import { bytesFromInput } from "./encoding";
import { secretKeyBytes } from "./keys";

const PREFIX = "quantum-custody:wallet-ownership:v1";

/**
 * The text a key holder signs to prove it controls an address for a tenant:
 * `quantum-custody:wallet-ownership:v1:<tenantId>:<lower-case 0x address>`.
 * The address is normalised first (throws `InvalidAddressError` if it is not one).
 */
export function ownershipProofMessage(tenantId: string, address: string): string {
  return `${PREFIX}:${tenantId}:${parseAddress(address)}`;
}

export type SignOwnershipProofParameters = {
  tenantId: string;
  address: string;
  secretKey: Uint8Array | Hex;
  deterministic?: boolean;
};

/** ML-DSA-87 signature, context `QUANTUM-OWNERSHIP-v1`, over the UTF-8 proof message. */
export function signOwnershipProof({ tenantId, address, secretKey, deterministic }: SignOwnershipProofParameters): Hex {
  const message = new TextEncoder().encode(ownershipProofMessage(tenantId, address));
  return bytesToHex(
    ml_dsa87.sign(message, secretKeyBytes(secretKey), {
      context: OWNERSHIP_PROOF_CONTEXT_BYTES,
      ...(deterministic ? { extraEntropy: false as const } : {}),
    }),
  );
}

export type VerifyOwnershipProofParameters = {
  tenantId: string;
  address: string;
  publicKey: Uint8Array | Hex | string;
  signature: Uint8Array | Hex | string;
};

/**
 * True only when `signature` is exactly 4627 bytes, `publicKey` exactly 2592 bytes,
 * `address` is a valid address derived from `publicKey`, and the signature verifies over
 * this tenant's and address's message with the ownership context. Never throws.
 */
export function verifyOwnershipProof({ tenantId, address, publicKey, signature }: VerifyOwnershipProofParameters): boolean {
  try {
    if (typeof tenantId !== "string" || tenantId.length === 0) return false;
    const key = bytesFromInput(publicKey, MLDSA87_PUBLIC_KEY_LENGTH);
    const sig = bytesFromInput(signature, MLDSA87_SIGNATURE_LENGTH);
    if (!key || !sig) return false;
    const message = ownershipProofMessage(tenantId, address);
    if (addressFromPublicKey(key) !== parseAddress(address)) return false;
    return ml_dsa87.verify(sig, new TextEncoder().encode(message), key, { context: OWNERSHIP_PROOF_CONTEXT_BYTES });
  } catch {
    return false;
  }
}
