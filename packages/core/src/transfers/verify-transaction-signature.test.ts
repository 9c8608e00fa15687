import { addressFromPublicKey, createVerifyPool, generateKeyPair, signQuantumSigningHash } from "@qc/chain";
import type { TransactionRow } from "@qc/db/queries";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { afterAll, describe, expect, it } from "vitest";
import { rebuildUnsignedTransaction } from "./unsigned-transaction";
import { canonicalSignature, checkSigningRequest, verifyTransactionSignature, type SigningContext } from "./verify-transaction-signature";

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as const;
const NATIVE = { kind: "NATIVE" as const, contractAddress: null };
const TOKEN = { kind: "TOKEN" as const, contractAddress: "0x7a3b5c9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b" };

/** A released transfer as the release step stores it, for a fresh key. */
function released(overrides: Partial<TransactionRow> = {}, asset: typeof NATIVE | typeof TOKEN = NATIVE) {
  const keys = generateKeyPair();
  const publicKey = hex(keys.publicKey);
  const address = addressFromPublicKey(publicKey);
  const base = {
    id: "0194f2c4-cf65-7273-9e8f-60718293a4b5",
    tenantId: "0194f2c4-6f1e-7c3a-9b2d-3e4f5a6b7c8d",
    type: "TRANSFER",
    networkCode: "QUANTUM_SANDBOX",
    chainId: 20804,
    sourceWalletId: "0194f2c4-8b21-7e3f-9a4b-2c3d4e5f6071",
    sourceAddress: address,
    destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
    amount: "1000000000000000000",
    status: "PENDING_SIGNATURE",
    nonce: 7,
    gasLimit: "25200",
    maxFeePerGas: "2200000000",
    maxPriorityFeePerGas: "1000000000",
    ...overrides,
  } as TransactionRow;
  const rebuilt = rebuildUnsignedTransaction(base, asset);
  const row = { ...base, unsignedTransaction: rebuilt.unsignedTransaction, signingHash: rebuilt.signingHash };
  const context: SigningContext = {
    transaction: row,
    wallet: { id: row.sourceWalletId!, type: "REGISTERED", status: "ACTIVE", address, publicKey },
    asset,
  };
  return { context, row, keys, publicKey, signingHash: rebuilt.signingHash };
}

describe("checkSigningRequest", () => {
  it("accepts a row whose stored request is the rebuild of its intent, native and ERC-20", () => {
    for (const asset of [NATIVE, TOKEN]) {
      const { context, signingHash } = released({}, asset);
      const check = checkSigningRequest(context);
      expect(check).toMatchObject({ ok: true, rebuilt: { signingHash } });
    }
  });

  it("refuses a row changed after release: amount, destination, nonce, fees, chain", () => {
    const changes: Partial<TransactionRow>[] = [
      { amount: "1000000000000000001" },
      { destinationAddress: "0x000000000000000000000000000000000000dead" },
      { nonce: 8 },
      { maxFeePerGas: "2200000001" },
      { gasLimit: "1000000" },
      { chainId: 20803 },
    ];
    for (const change of changes) {
      const { context } = released();
      const tampered = { ...context, transaction: { ...context.transaction, ...change } };
      expect(checkSigningRequest(tampered), JSON.stringify(change)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/no longer matches/),
      });
    }
  });

  it("refuses a token transfer rebuilt as native (the asset row changed), and a missing asset", () => {
    const { context } = released({}, TOKEN);
    expect(checkSigningRequest({ ...context, asset: NATIVE }).ok).toBe(false);
    expect(checkSigningRequest({ ...context, asset: null })).toMatchObject({ ok: false, reason: "the transaction's asset is unknown" });
  });

  it("refuses a wallet whose enrolled key is not the key of the source address", () => {
    const { context } = released();
    const other = hex(generateKeyPair().publicKey);
    expect(checkSigningRequest({ ...context, wallet: { ...context.wallet!, publicKey: other } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not the key of the source address/),
    });
    expect(checkSigningRequest({ ...context, wallet: { ...context.wallet!, publicKey: null } }).ok).toBe(false);
    expect(checkSigningRequest({ ...context, wallet: { ...context.wallet!, publicKey: "0x1234" } }).ok).toBe(false);
  });

  it("refuses a row never released (no nonce or fees)", () => {
    const { context } = released();
    expect(checkSigningRequest({ ...context, transaction: { ...context.transaction, nonce: null } }).ok).toBe(false);
  });
});

describe("verifyTransactionSignature", () => {
  const verifier = createVerifyPool({ size: 1 });
  afterAll(() => verifier.close());

  it("accepts the source key's signature over the signing hash, hedged and deterministic", async () => {
    const { keys, publicKey, signingHash } = released();
    for (const deterministic of [false, true]) {
      const signature = signQuantumSigningHash({ signingHash, secretKey: keys.secretKey, deterministic });
      expect(await verifyTransactionSignature(verifier, { signingHash, signature, publicKey })).toBe(true);
    }
  });

  it("refuses another key's signature, a signature over another intent, and one with another context", async () => {
    const { keys, publicKey, signingHash } = released();
    const otherKey = generateKeyPair();
    expect(
      await verifyTransactionSignature(verifier, {
        signingHash,
        signature: signQuantumSigningHash({ signingHash, secretKey: otherKey.secretKey }),
        publicKey,
      }),
    ).toBe(false);

    const { signingHash: otherHash } = released({ amount: "999" });
    expect(
      await verifyTransactionSignature(verifier, {
        signingHash,
        signature: signQuantumSigningHash({ signingHash: otherHash, secretKey: keys.secretKey }),
        publicKey,
      }),
    ).toBe(false);

    const message = Buffer.from(signingHash.slice(2), "hex");
    for (const context of ["QUANTUM-OWNERSHIP-v1", "QUANTUM-TX-v2", ""]) {
      const signature = hex(ml_dsa87.sign(message, keys.secretKey, { context: new TextEncoder().encode(context) }));
      expect(await verifyTransactionSignature(verifier, { signingHash, signature, publicKey }), context).toBe(false);
    }
  });

  it("answers false, never throws, for malformed input", async () => {
    const { publicKey, signingHash } = released();
    for (const signature of ["", "0x", "zz", "0x1234", `0x${"00".repeat(4626)}`, `0x${"00".repeat(4627)}`]) {
      expect(await verifyTransactionSignature(verifier, { signingHash, signature, publicKey })).toBe(false);
    }
  });
});

describe("canonicalSignature", () => {
  it("takes 4627 bytes of hex with or without 0x, any case, and gives lower-case 0x hex", () => {
    const body = "Ab".repeat(4627);
    expect(canonicalSignature(body)).toBe(`0x${"ab".repeat(4627)}`);
    expect(canonicalSignature(`0x${body}`)).toBe(`0x${"ab".repeat(4627)}`);
  });

  it("refuses anything else", () => {
    for (const input of [
      "",
      "0x",
      "ab".repeat(4626),
      "ab".repeat(4628),
      `0X${"ab".repeat(4627)}`,
      `${"ab".repeat(4626)}zz`,
      ` ${"ab".repeat(4627)}`,
    ]) {
      expect(canonicalSignature(input)).toBeUndefined();
    }
  });
});
