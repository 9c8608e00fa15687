import { signQuantumSigningHash, verifyQuantumSigningHash } from "@qc/chain";
import type { Hex } from "viem";
import { SignerError } from "./errors";
import { secretKeyOf } from "./keystore/signer-key";
import type { VerifiedTransfer } from "./review/verify-signing-request";

/**
 * ML-DSA-87 signature (context `QUANTUM-TX-v1`) of a verified transfer by its source key,
 * over the signing hash computed here, never the one the service sent. Checked against the
 * public key before it leaves, so a damaged keystore entry is caught here, not on chain.
 */
export function signTransfer(transfer: Pick<VerifiedTransfer, "sourceKey" | "signingHash" | "sourceAddress">): Hex {
  const secretKey = secretKeyOf(transfer.sourceKey);
  try {
    return signWithSecretKey(transfer, secretKey);
  } finally {
    secretKey.fill(0);
  }
}

/**
 * The same signature with a secret key already derived from the keystore entry (`signer serve`
 * keeps each source's for its lifetime: deriving it is a third of the cost of a signature).
 */
export function signWithSecretKey(
  transfer: Pick<VerifiedTransfer, "sourceKey" | "signingHash" | "sourceAddress">,
  secretKey: Uint8Array,
): Hex {
  const signature = signQuantumSigningHash({ signingHash: transfer.signingHash, secretKey });
  if (!verifyQuantumSigningHash({ signingHash: transfer.signingHash, signature, publicKey: transfer.sourceKey.publicKey as Hex })) {
    throw new SignerError(
      `the signature made with the key of ${transfer.sourceAddress} does not verify; the keystore entry may be damaged`,
    );
  }
  return signature;
}
