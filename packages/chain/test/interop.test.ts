import {
  CryptoBytes,
  CryptoPublicKeyBytes,
  CryptoSecretKeyBytes,
  cryptoSignKeypair,
  cryptoSignSignature,
  cryptoSignVerify,
} from "@theqrl/mldsa87";
import { bytesToHex, hexToBytes } from "viem";
import { describe, expect, test } from "vitest";
import {
  addressFromPublicKey,
  generateKeyPair,
  MLDSA87_PUBLIC_KEY_LENGTH,
  MLDSA87_SECRET_KEY_LENGTH,
  MLDSA87_SIGNATURE_LENGTH,
  parseQuantumTransaction,
  serializeQuantumTransaction,
  signingHash,
  signQuantumTransaction,
  verifyOwnershipProof,
  verifyQuantumTransactionSignature,
  ownershipProofMessage,
  type QuantumTransactionSerializable,
} from "../src/index";

// Cross-check against @theqrl/mldsa87, the ML-DSA-87 used by the QRL chain (go-qrllib port).
const TX_CTX = new TextEncoder().encode("QUANTUM-TX-v1");
const OWN_CTX = new TextEncoder().encode("QUANTUM-OWNERSHIP-v1");

function qrlKeys(seed: Uint8Array) {
  const pk = new Uint8Array(CryptoPublicKeyBytes);
  const sk = new Uint8Array(CryptoSecretKeyBytes);
  cryptoSignKeypair(seed, pk, sk);
  return { pk, sk };
}

const tx: QuantumTransactionSerializable = {
  chainId: 20804,
  nonce: 3,
  maxPriorityFeePerGas: 1_000_000_000n,
  maxFeePerGas: 3_000_000_000n,
  gas: 21_000n,
  to: "0x00000000000000000000000000000000000000aa",
  value: 12345n,
};

describe("interop with @theqrl/mldsa87", () => {
  test("sizes agree with FIPS 204 ML-DSA-87", () => {
    expect([CryptoPublicKeyBytes, CryptoSecretKeyBytes, CryptoBytes]).toEqual([
      MLDSA87_PUBLIC_KEY_LENGTH,
      MLDSA87_SECRET_KEY_LENGTH,
      MLDSA87_SIGNATURE_LENGTH,
    ]);
  });

  test("same random seed gives byte-identical keys", () => {
    for (let i = 0; i < 3; i++) {
      const seed = crypto.getRandomValues(new Uint8Array(32));
      const ours = generateKeyPair(seed);
      const theirs = qrlKeys(seed);
      expect(bytesToHex(ours.publicKey)).toBe(bytesToHex(theirs.pk));
      expect(bytesToHex(ours.secretKey)).toBe(bytesToHex(theirs.sk));
    }
  });

  test("QRL verifies our hedged transaction signature with the context, and only with it", () => {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const ours = generateKeyPair(seed);
    const signed = signQuantumTransaction({ transaction: tx, secretKey: ours.secretKey, publicKey: ours.publicKey });
    const sig = hexToBytes(signed.signature);
    const msg = hexToBytes(signed.signingHash);
    expect(cryptoSignVerify(sig, msg, ours.publicKey, TX_CTX)).toBe(true);
    expect(cryptoSignVerify(sig, msg, ours.publicKey, OWN_CTX)).toBe(false);
    expect(cryptoSignVerify(sig, msg, ours.publicKey, new Uint8Array())).toBe(false);
  });

  test("we verify a QRL signature (hedged and deterministic) made with the context", () => {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const { pk, sk } = qrlKeys(seed);
    const hash = hexToBytes(signingHash(tx));
    for (const randomized of [true, false]) {
      const sig = new Uint8Array(CryptoBytes);
      cryptoSignSignature(sig, hash, sk, randomized, TX_CTX);
      const raw = serializeQuantumTransaction({ ...tx, signature: bytesToHex(sig), publicKey: bytesToHex(pk) });
      expect(verifyQuantumTransactionSignature(raw)).toBe(true);
      expect(parseQuantumTransaction(raw)).toMatchObject({ from: addressFromPublicKey(pk) });
    }
    // Signed by QRL without our context: rejected.
    const noCtx = new Uint8Array(CryptoBytes);
    cryptoSignSignature(noCtx, hash, sk, false, new Uint8Array());
    expect(verifyQuantumTransactionSignature({ transaction: tx, signature: noCtx, publicKey: pk })).toBe(false);
  });

  test("an ownership proof made by QRL verifies; with the transaction context it does not", () => {
    const { pk, sk } = qrlKeys(crypto.getRandomValues(new Uint8Array(32)));
    const address = addressFromPublicKey(pk);
    const message = new TextEncoder().encode(ownershipProofMessage("tenant-1", address));
    const sig = new Uint8Array(CryptoBytes);
    cryptoSignSignature(sig, message, sk, true, OWN_CTX);
    expect(verifyOwnershipProof({ tenantId: "tenant-1", address, publicKey: pk, signature: sig })).toBe(true);
    cryptoSignSignature(sig, message, sk, true, TX_CTX);
    expect(verifyOwnershipProof({ tenantId: "tenant-1", address, publicKey: pk, signature: sig })).toBe(false);
  });
});
