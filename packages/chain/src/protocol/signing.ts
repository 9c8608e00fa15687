import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { bytesToHex, hexToBytes, type Address, type Hex } from "viem";
import { MLDSA87_PUBLIC_KEY_LENGTH, MLDSA87_SIGNATURE_LENGTH, TRANSACTION_SIGNATURE_CONTEXT_BYTES } from "./constants";
import { bytesFromInput } from "./encoding";
import { addressFromPublicKey } from "./address";
import { publicKeyFromSecretKey, secretKeyBytes } from "./keys";
import {
  getQuantumTransactionHash,
  isSignedQuantumTransaction,
  parseQuantumTransaction,
  serializeQuantumTransaction,
  signingHash,
  type QuantumTransactionSerializable,
  type SerializedQuantumTransaction,
} from "./transaction";

export type SignQuantumSigningHashParameters = {
  signingHash: Hex;
  secretKey: Uint8Array | Hex;
  /** Deterministic ML-DSA (no fresh randomness). Default: hedged. Both verify the same way. */
  deterministic?: boolean;
};

/** ML-DSA-87 signature, context `QUANTUM-TX-v1`, over a 32-byte signing hash. */
export function signQuantumSigningHash({ signingHash: hash, secretKey, deterministic }: SignQuantumSigningHashParameters): Hex {
  const message = hexToBytes(hash);
  if (message.length !== 32) throw new RangeError("signing hash must be 32 bytes");
  const signature = ml_dsa87.sign(message, secretKeyBytes(secretKey), {
    context: TRANSACTION_SIGNATURE_CONTEXT_BYTES,
    ...(deterministic ? { extraEntropy: false as const } : {}),
  });
  return bytesToHex(signature);
}

export type SignQuantumTransactionParameters = {
  transaction: QuantumTransactionSerializable;
  secretKey: Uint8Array | Hex;
  /** Saves re-deriving it from the secret key (a few ms). Must belong to `secretKey`. */
  publicKey?: Uint8Array | Hex;
  deterministic?: boolean;
};

export type SignQuantumTransactionReturnType = {
  serializedTransaction: SerializedQuantumTransaction;
  hash: Hex;
  signingHash: Hex;
  signature: Hex;
  publicKey: Hex;
  from: Address;
};

/** Signs a `0x51` transaction and returns the raw signed transaction with its hash and sender. */
export function signQuantumTransaction({
  transaction,
  secretKey,
  publicKey,
  deterministic,
}: SignQuantumTransactionParameters): SignQuantumTransactionReturnType {
  const hash = signingHash(transaction);
  const signature = signQuantumSigningHash({ signingHash: hash, secretKey, deterministic });
  const publicKeyHex = bytesToHex(
    publicKey === undefined ? publicKeyFromSecretKey(secretKey) : (bytesFromInput(publicKey) ?? new Uint8Array()),
  );
  const serializedTransaction = serializeQuantumTransaction({ ...transaction, signature, publicKey: publicKeyHex });
  return {
    serializedTransaction,
    hash: getQuantumTransactionHash(serializedTransaction),
    signingHash: hash,
    signature,
    publicKey: publicKeyHex,
    from: addressFromPublicKey(publicKeyHex),
  };
}

/** Verifies an ML-DSA-87 signature over a signing hash with context `QUANTUM-TX-v1`. Never throws. */
export function verifyQuantumSigningHash({
  signingHash: hash,
  signature,
  publicKey,
}: {
  signingHash: Hex | Uint8Array;
  signature: Hex | Uint8Array;
  publicKey: Hex | Uint8Array;
}): boolean {
  const message = bytesFromInput(hash, 32);
  const sig = bytesFromInput(signature, MLDSA87_SIGNATURE_LENGTH);
  const key = bytesFromInput(publicKey, MLDSA87_PUBLIC_KEY_LENGTH);
  if (!message || !sig || !key) return false;
  try {
    return ml_dsa87.verify(sig, message, key, { context: TRANSACTION_SIGNATURE_CONTEXT_BYTES });
  } catch {
    return false;
  }
}

export type VerifyQuantumTransactionSignatureParameters =
  | Hex
  | {
      transaction: QuantumTransactionSerializable;
      signature: Hex | Uint8Array;
      publicKey: Hex | Uint8Array;
    };

/**
 * Whether a signed `0x51` transaction (raw hex), or an unsigned transaction plus a detached
 * signature and public key, carries a valid ML-DSA-87 signature. Never throws: malformed
 * input is `false`.
 */
export function verifyQuantumTransactionSignature(input: VerifyQuantumTransactionSignatureParameters): boolean {
  try {
    if (typeof input === "string") {
      const tx = parseQuantumTransaction(input);
      if (!isSignedQuantumTransaction(tx)) return false;
      return verifyQuantumSigningHash({ signingHash: signingHash(tx), signature: tx.signature, publicKey: tx.publicKey });
    }
    return verifyQuantumSigningHash({
      signingHash: signingHash(input.transaction),
      signature: input.signature,
      publicKey: input.publicKey,
    });
  } catch {
    return false;
  }
}
