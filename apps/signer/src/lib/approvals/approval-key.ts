import { generateKeyPair, MLDSA87_SEED_LENGTH, signApproval, verifyApproval } from "@qc/chain";
import { randomBytes } from "@noble/hashes/utils.js";
import { bytesToHex, hexToBytes, type Hex } from "viem";
import { SignerError } from "../errors";
import type { StoredApprovalKey } from "../keystore/format";
import type { UnlockedKeystore } from "../keystore/keystore";

/** A fresh approval key: its seed (the only secret: the pair is re-derived when signing) and public key. */
export function newApprovalKeyMaterial(): { seed: Hex; publicKey: Hex } {
  const seed = randomBytes(MLDSA87_SEED_LENGTH);
  const { publicKey, secretKey } = generateKeyPair(seed);
  secretKey.fill(0);
  const material = { seed: bytesToHex(seed), publicKey: bytesToHex(publicKey) };
  seed.fill(0);
  return material;
}

/**
 * The secret key of a stored approval key, derived from its seed. Callers wipe it after use; a
 * seed that does not give the stored public key means the keystore was altered.
 */
export function approvalSecretKeyOf(key: Pick<StoredApprovalKey, "seed" | "publicKey">): Uint8Array {
  const seed = hexToBytes(key.seed as Hex);
  const { publicKey, secretKey } = generateKeyPair(seed);
  seed.fill(0);
  if (bytesToHex(publicKey) !== key.publicKey) {
    secretKey.fill(0);
    throw new SignerError("the keystore's approval key does not derive its public key; refusing to use it");
  }
  return secretKey;
}

/**
 * The approval key `approve` signs with: the newest one the service accepted for this tenant
 * (enrolled for the member whose API key the profile holds).
 */
export function currentApprovalKey(
  keystore: Pick<UnlockedKeystore, "approvalKeys">,
  tenantId: string,
): StoredApprovalKey & { keyId: string } {
  const enrolled = keystore.approvalKeys.filter((key) => key.status === "ENROLLED" && key.tenantId === tenantId && key.keyId !== null);
  const newest = enrolled.sort((a, b) => (a.acceptedAt ?? "").localeCompare(b.acceptedAt ?? "")).at(-1);
  if (!newest) throw new SignerError("this keystore holds no approval key for the tenant: run `signer enroll-approver` first");
  return newest as StoredApprovalKey & { keyId: string };
}

/**
 * ML-DSA-87 signature (context `QUANTUM-APPROVAL-v1`) of an approval hash computed here, by an
 * approval key; checked against the key's public key before it leaves, so a damaged keystore
 * entry is caught here rather than by the service.
 */
export function signApprovalHash(key: Pick<StoredApprovalKey, "seed" | "publicKey">, approvalHash: Hex): Hex {
  const secretKey = approvalSecretKeyOf(key);
  try {
    const signature = signApproval(approvalHash, secretKey);
    if (!verifyApproval({ approvalHash, signature, publicKey: key.publicKey })) {
      throw new SignerError("the approval signature does not verify with the approval key; the keystore entry may be damaged");
    }
    return signature;
  } finally {
    secretKey.fill(0);
  }
}
