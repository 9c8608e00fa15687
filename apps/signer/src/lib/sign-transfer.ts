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
    const signature = signQuantumSigningHash({ signingHash: transfer.signingHash, secretKey });
    if (!verifyQuantumSigningHash({ signingHash: transfer.signingHash, signature, publicKey: transfer.sourceKey.publicKey as Hex })) {
      throw new SignerError(
        `the signature made with the key of ${transfer.sourceAddress} does not verify; the keystore entry may be damaged`,
      );
    }
    return signature;
  } finally {
    secretKey.fill(0);
  }
}
