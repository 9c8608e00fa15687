import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { cryptoSignKeypair, cryptoSignVerify, CryptoPublicKeyBytes, CryptoSecretKeyBytes } from "@theqrl/mldsa87";
import { bytesToHex, hexToBytes, type Hex } from "viem";
import { describe, expect, test } from "vitest";
import {
  addressFromPublicKey,
  generateKeyPair,
  ownershipProofMessage,
  parseQuantumTransaction,
  serializeQuantumTransaction,
  signingHash,
  signOwnershipProof,
  signQuantumTransaction,
  verifyOwnershipProof,
  verifyQuantumTransactionSignature,
  type QuantumTransactionSerializable,
} from "../src/index";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), "utf8")) as T;

type KeyVector = { seed: Hex; publicKey: Hex; secretKey: Hex; address: Hex };
const keys = load<{ descriptor: Hex; vectors: KeyVector[] }>("keys.json");
const hashes = load<{ vectors: { name: string; transaction: Record<string, unknown>; unsignedSerialized: Hex; signingHash: Hex }[] }>(
  "signing-hashes.json",
);
const signed = load<{
  vectors: {
    name: string;
    transaction: Record<string, unknown>;
    keyIndex: number;
    signingHash: Hex;
    signature: Hex;
    raw: Hex;
    hash: Hex;
    from: Hex;
  }[];
}>("transactions.json");
const proofs = load<{ vectors: { tenantId: string; keyIndex: number; address: Hex; message: string; signature: Hex }[] }>(
  "ownership-proofs.json",
);

function txFromJson(json: Record<string, unknown>): QuantumTransactionSerializable {
  const big = (v: unknown) => BigInt(v as string);
  return {
    chainId: json.chainId as number,
    nonce: json.nonce as number,
    maxPriorityFeePerGas: big(json.maxPriorityFeePerGas),
    maxFeePerGas: big(json.maxFeePerGas),
    gas: big(json.gas),
    to: json.to as Hex | null,
    value: big(json.value),
    data: json.data as Hex,
    accessList: json.accessList as QuantumTransactionSerializable["accessList"],
  };
}

// Independent RLP encoder (Yellow Paper appendix B), so the signing-hash vectors are not
// checked with the same code that produced them.
function rlp(item: Uint8Array | unknown[]): Uint8Array {
  const length = (len: number, offset: number) => {
    if (len < 56) return Uint8Array.of(offset + len);
    const bytes = hexToBytes(`0x${len.toString(16).padStart(Math.ceil(len.toString(16).length / 2) * 2, "0")}`);
    return Uint8Array.of(offset + 55 + bytes.length, ...bytes);
  };
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return Uint8Array.of(...length(item.length, 0x80), ...item);
  }
  const body = item.map((i) => rlp(i as Uint8Array | unknown[]));
  const total = body.reduce((n, b) => n + b.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const b of body) {
    out.set(b, o);
    o += b.length;
  }
  return Uint8Array.of(...length(total, 0xc0), ...out);
}
const uint = (v: bigint | number) => {
  const b = BigInt(v);
  if (b === 0n) return new Uint8Array();
  const hex = b.toString(16);
  return hexToBytes(`0x${hex.length % 2 ? `0${hex}` : hex}`);
};

describe("key vectors", () => {
  test.each(keys.vectors.map((v, i) => [i, v] as const))("seed %i gives the published keys and address", (_i, vector) => {
    const seed = hexToBytes(vector.seed);
    const ours = generateKeyPair(seed);
    expect(bytesToHex(ours.publicKey)).toBe(vector.publicKey);
    expect(bytesToHex(ours.secretKey)).toBe(vector.secretKey);

    // Independent ML-DSA-87 implementation (QRL) gives byte-identical keys from the seed.
    const pk = new Uint8Array(CryptoPublicKeyBytes);
    const sk = new Uint8Array(CryptoSecretKeyBytes);
    cryptoSignKeypair(seed, pk, sk);
    expect(bytesToHex(pk)).toBe(vector.publicKey);
    expect(bytesToHex(sk)).toBe(vector.secretKey);

    // Independent SHAKE256 (OpenSSL via node:crypto).
    const digest = createHash("shake256", { outputLength: 20 })
      .update(Buffer.from(keys.descriptor.slice(2), "hex"))
      .update(pk)
      .digest("hex");
    expect(`0x${digest}`).toBe(vector.address);
    expect(addressFromPublicKey(vector.publicKey)).toBe(vector.address);
  });
});

describe("signing-hash vectors", () => {
  test.each(hashes.vectors.map((v) => [v.name, v] as const))("%s", (_name, vector) => {
    const tx = txFromJson(vector.transaction);
    expect(serializeQuantumTransaction(tx)).toBe(vector.unsignedSerialized);
    expect(signingHash(tx)).toBe(vector.signingHash);

    const fields = [
      uint(tx.chainId),
      uint(tx.nonce),
      uint(tx.maxPriorityFeePerGas),
      uint(tx.maxFeePerGas),
      uint(tx.gas),
      tx.to ? hexToBytes(tx.to) : new Uint8Array(),
      uint(tx.value ?? 0n),
      hexToBytes(tx.data ?? "0x"),
      (tx.accessList ?? []).map((a) => [hexToBytes(a.address), a.storageKeys.map((k) => hexToBytes(k))]),
      hexToBytes("0x010000"),
    ];
    const unsigned = Uint8Array.of(0x51, ...rlp(fields));
    expect(bytesToHex(unsigned)).toBe(vector.unsignedSerialized);
    expect(bytesToHex(keccak_256(unsigned))).toBe(vector.signingHash);

    const parsed = parseQuantumTransaction(vector.unsignedSerialized);
    expect(parsed).not.toHaveProperty("signature");
    expect(serializeQuantumTransaction(parsed)).toBe(vector.unsignedSerialized);
  });
});

describe("signed transaction vectors", () => {
  test.each(signed.vectors.map((v) => [v.name, v] as const))("%s", (_name, vector) => {
    const key = keys.vectors[vector.keyIndex]!;
    const tx = txFromJson(vector.transaction);
    expect(signingHash(tx)).toBe(vector.signingHash);

    const parsed = parseQuantumTransaction(vector.raw);
    expect(parsed).toMatchObject({ hash: vector.hash, from: vector.from, signature: vector.signature, publicKey: key.publicKey });
    expect(vector.from).toBe(key.address);
    expect(bytesToHex(keccak_256(hexToBytes(vector.raw)))).toBe(vector.hash);
    expect(verifyQuantumTransactionSignature(vector.raw)).toBe(true);

    // Deterministic signing reproduces the published raw transaction byte for byte...
    const again = signQuantumTransaction({ transaction: tx, secretKey: key.secretKey, deterministic: true });
    expect(again.serializedTransaction).toBe(vector.raw);
    // ...and the QRL implementation verifies it with the transaction context.
    const ctx = new TextEncoder().encode("QUANTUM-TX-v1");
    expect(cryptoSignVerify(hexToBytes(vector.signature), hexToBytes(vector.signingHash), hexToBytes(key.publicKey), ctx)).toBe(true);
  });
});

describe("ownership proof vectors", () => {
  test.each(proofs.vectors.map((v) => [v.tenantId, v] as const))("tenant %s", (_t, vector) => {
    const key = keys.vectors[vector.keyIndex]!;
    expect(ownershipProofMessage(vector.tenantId, vector.address.toUpperCase().replace("0X", "0x"))).toBe(vector.message);
    expect(vector.message).toBe(`quantum-custody:wallet-ownership:v1:${vector.tenantId}:${key.address}`);
    expect(signOwnershipProof({ tenantId: vector.tenantId, address: vector.address, secretKey: key.secretKey, deterministic: true })).toBe(
      vector.signature,
    );
    expect(
      verifyOwnershipProof({ tenantId: vector.tenantId, address: vector.address, publicKey: key.publicKey, signature: vector.signature }),
    ).toBe(true);
    const ctx = new TextEncoder().encode("QUANTUM-OWNERSHIP-v1");
    expect(cryptoSignVerify(hexToBytes(vector.signature), new TextEncoder().encode(vector.message), hexToBytes(key.publicKey), ctx)).toBe(
      true,
    );
  });
});
