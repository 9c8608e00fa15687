import { concatHex, fromRlp, toRlp, type Hex } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { InvalidSerializedTransactionError, InvalidTransactionFieldError } from "../errors/transaction";
import { generateKeyPair } from "./keys";
import { signQuantumTransaction, verifyQuantumTransactionSignature } from "./signing";
import {
  parseQuantumTransaction,
  serializeQuantumTransaction,
  signingHash,
  type QuantumTransactionSerializable,
  type QuantumTransactionSigned,
} from "./transaction";

const base: QuantumTransactionSerializable = {
  chainId: 20804,
  nonce: 5,
  maxPriorityFeePerGas: 1_000_000_000n,
  maxFeePerGas: 2_000_000_000n,
  gas: 50_000n,
  to: "0x00000000000000000000000000000000000000bb",
  value: 10n ** 18n,
  data: "0xdeadbeef",
  accessList: [{ address: "0x00000000000000000000000000000000000000cc", storageKeys: [`0x${"11".repeat(32)}`] }],
};

let keys: ReturnType<typeof generateKeyPair>;
let raw: Hex;
beforeAll(() => {
  keys = generateKeyPair(new Uint8Array(32).fill(9));
  raw = signQuantumTransaction({ transaction: base, secretKey: keys.secretKey, publicKey: keys.publicKey }).serializedTransaction;
});

function replaceField(serialized: Hex, index: number, value: Hex): Hex {
  const fields = fromRlp(`0x${serialized.slice(4)}`, "hex") as Hex[];
  fields[index] = value;
  return concatHex(["0x51", toRlp(fields as never, "hex")]);
}

describe("encode/decode round trips", () => {
  test("unsigned", () => {
    const serialized = serializeQuantumTransaction(base);
    expect(serialized.startsWith("0x51")).toBe(true);
    const parsed = parseQuantumTransaction(serialized);
    expect(parsed).toEqual({ type: "quantum", descriptor: "0x010000", ...base });
    expect(serializeQuantumTransaction(parsed)).toBe(serialized);
  });

  test("signed", () => {
    const parsed = parseQuantumTransaction(raw) as QuantumTransactionSigned;
    expect(parsed.from).toMatch(/^0x[0-9a-f]{40}$/);
    expect(parsed.signature.length).toBe(2 + 4627 * 2);
    expect(parsed.publicKey.length).toBe(2 + 2592 * 2);
    expect(serializeQuantumTransaction(parsed)).toBe(raw);
    expect(signingHash(parsed)).toBe(signingHash(base));
  });

  test("contract creation, zero values, empty data", () => {
    const tx = { ...base, to: null, value: 0n, nonce: 0, data: "0x" as Hex, accessList: [] };
    const parsed = parseQuantumTransaction(serializeQuantumTransaction(tx));
    expect(parsed).toMatchObject({ to: null, value: 0n, nonce: 0, data: "0x" });
  });

  test("defaults: absent to/value/data/accessList", () => {
    const { to: _to, value: _v, data: _d, accessList: _a, ...minimal } = base;
    const parsed = parseQuantumTransaction(serializeQuantumTransaction(minimal));
    expect(parsed).toMatchObject({ to: null, value: 0n, data: "0x", accessList: [] });
  });

  test("signing hash commits to every unsigned field", () => {
    const h = signingHash(base);
    const variants: Partial<QuantumTransactionSerializable>[] = [
      { chainId: 20803 },
      { nonce: 6 },
      { maxPriorityFeePerGas: 1n },
      { maxFeePerGas: 3n * 10n ** 9n },
      { gas: 50_001n },
      { to: "0x00000000000000000000000000000000000000bc" },
      { value: 1n },
      { data: "0xdeadbeee" },
      { accessList: [] },
    ];
    const all = new Set(variants.map((v) => signingHash({ ...base, ...v })));
    expect(all.size).toBe(variants.length);
    expect(all.has(h)).toBe(false);
  });
});

describe("strict parsing", () => {
  test("wrong type byte", () => {
    expect(() => parseQuantumTransaction(`0x02${raw.slice(4)}`)).toThrow(/unsupported transaction type 0x02/);
  });

  test("trailing bytes", () => {
    expect(() => parseQuantumTransaction(`${raw}00`)).toThrow(InvalidSerializedTransactionError);
  });

  test("leading zeros in an integer", () => {
    expect(() => parseQuantumTransaction(replaceField(raw, 1, "0x0005"))).toThrow(/leading zeros/);
  });

  test("truncated or padded signature", () => {
    const sig = (parseQuantumTransaction(raw) as QuantumTransactionSigned).signature;
    expect(() => parseQuantumTransaction(replaceField(raw, 10, sig.slice(0, -2) as Hex))).toThrow(/signature must be 4627 bytes/);
    expect(() => parseQuantumTransaction(replaceField(raw, 10, `${sig}00`))).toThrow(/signature must be 4627 bytes/);
  });

  test("unknown descriptor", () => {
    expect(() => parseQuantumTransaction(replaceField(raw, 9, "0x020000"))).toThrow(/unsupported descriptor/);
  });

  test("wrong field count", () => {
    const fields = fromRlp(`0x${raw.slice(4)}`, "hex") as Hex[];
    expect(() => parseQuantumTransaction(concatHex(["0x51", toRlp(fields.slice(0, 11) as never, "hex")]))).toThrow(/10 .* or 12/);
  });

  test("non-canonical RLP (long-form length for a short string)", () => {
    // nonce 5 encoded as 0x8105 instead of 0x05
    const unsigned = serializeQuantumTransaction({ ...base, accessList: [] });
    const body = fromRlp(`0x${unsigned.slice(4)}`, "hex") as Hex[];
    const encoded = body.map((f) => (Array.isArray(f) ? toRlp(f as never) : toRlp(f)));
    encoded[1] = "0x8105";
    const payload = concatHex(encoded as Hex[]);
    const len = (payload.length - 2) / 2;
    const header = len < 56 ? `0x${(0xc0 + len).toString(16)}` : `0x${(0xf7 + 1).toString(16)}${len.toString(16).padStart(2, "0")}`;
    expect(() => parseQuantumTransaction(concatHex(["0x51", header as Hex, payload]))).toThrow(/canonical/);
  });

  test("garbage", () => {
    expect(() => parseQuantumTransaction("0x")).toThrow(InvalidSerializedTransactionError);
    expect(() => parseQuantumTransaction("0x51")).toThrow(InvalidSerializedTransactionError);
    expect(() => parseQuantumTransaction("0x51zz" as Hex)).toThrow(InvalidSerializedTransactionError);
  });
});

describe("serialize validation", () => {
  test("rejects negative or oversized integers and bad hex", () => {
    expect(() => serializeQuantumTransaction({ ...base, value: -1n })).toThrow(InvalidTransactionFieldError);
    expect(() => serializeQuantumTransaction({ ...base, value: 2n ** 256n })).toThrow(InvalidTransactionFieldError);
    expect(() => serializeQuantumTransaction({ ...base, to: "0x1234" })).toThrow(/`to`/);
    expect(() => serializeQuantumTransaction({ ...base, data: "deadbeef" as Hex })).toThrow(/`data`/);
    expect(() => serializeQuantumTransaction({ ...base, chainId: 0 })).toThrow(/chainId/);
    expect(() => serializeQuantumTransaction({ ...base, maxPriorityFeePerGas: base.maxFeePerGas + 1n })).toThrow(/exceeds maxFeePerGas/);
    expect(() => serializeQuantumTransaction({ ...base, signature: "0x00" })).toThrow(/publicKey/);
  });
});

describe("signature verification", () => {
  test("valid, then every tampered field fails", () => {
    expect(verifyQuantumTransactionSignature(raw)).toBe(true);
    const parsed = parseQuantumTransaction(raw) as QuantumTransactionSigned;
    const tampered: Partial<QuantumTransactionSerializable>[] = [
      { nonce: parsed.nonce + 1 },
      { value: parsed.value + 1n },
      { to: "0x00000000000000000000000000000000000000bc" },
      { chainId: 20803 },
      { gas: parsed.gas + 1n },
      { data: "0x" },
    ];
    for (const change of tampered) {
      expect(verifyQuantumTransactionSignature(serializeQuantumTransaction({ ...parsed, ...change }))).toBe(false);
    }
  });

  test("signature by another key with the right public key swapped in fails", () => {
    const other = generateKeyPair(new Uint8Array(32).fill(10));
    const byOther = signQuantumTransaction({ transaction: base, secretKey: other.secretKey, publicKey: other.publicKey });
    const parsed = parseQuantumTransaction(raw) as QuantumTransactionSigned;
    expect(verifyQuantumTransactionSignature(serializeQuantumTransaction({ ...parsed, signature: byOther.signature }))).toBe(false);
    expect(verifyQuantumTransactionSignature(byOther.serializedTransaction)).toBe(true);
  });

  test("never throws on malformed input", () => {
    expect(verifyQuantumTransactionSignature("0x1234")).toBe(false);
    expect(verifyQuantumTransactionSignature(serializeQuantumTransaction(base))).toBe(false);
    expect(verifyQuantumTransactionSignature({ transaction: base, signature: "0x00", publicKey: "0x00" })).toBe(false);
  });
});
