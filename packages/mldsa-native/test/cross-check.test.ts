/**
 * The native add-on against @noble/post-quantum, case for case: the project's published vectors
 * (packages/chain/vectors) and seeded random keys, messages and contexts with tampered
 * signatures, wrong contexts and wrong keys. Both must give the same answer on every case, and
 * each case's expected answer is fixed by construction (valid only when nothing was changed).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { describe, expect, it } from "vitest";
import { loadNativeMlDsa87, NATIVE_ADDON_PATH } from "../src/index.mjs";

const SEED = process.env.QC_CROSS_CHECK_SEED ?? "qc-mldsa87-cross-check-1";
const RANDOM_KEYS = 12;

const hex = (value: string): Uint8Array => Uint8Array.from(Buffer.from(value.replace(/^0x/, ""), "hex"));
const utf8 = (text: string) => new TextEncoder().encode(text);
const vectors = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../../chain/vectors/${name}`, import.meta.url), "utf8")) as T;

/** Deterministic bytes: SHA-256 in counter mode over the printed seed. */
function seededBytes(seed: string) {
  let counter = 0;
  const bytes = (length: number) => {
    const out = new Uint8Array(length);
    for (let filled = 0; filled < length; counter++) {
      const block = createHash("sha256").update(`${seed}/${counter}`).digest();
      out.set(block.subarray(0, Math.min(block.length, length - filled)), filled);
      filled += block.length;
    }
    return out;
  };
  const int = (below: number) => Buffer.from(bytes(4)).readUInt32BE() % below;
  return { bytes, int };
}

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[Math.floor(bit / 8) % copy.length]! ^= 1 << (bit % 8);
  return copy;
}

type Case = { name: string; signature: Uint8Array; message: Uint8Array; publicKey: Uint8Array; context: Uint8Array; valid: boolean };
type PublishedCase = Case & { otherContext: Uint8Array };

function nobleVerify(c: Case): boolean {
  try {
    return ml_dsa87.verify(c.signature, c.message, c.publicKey, { context: c.context });
  } catch {
    return false; // noble throws on some malformed input (e.g. a context over 255 bytes)
  }
}

const compilerPresent = spawnSync(process.env.CC || "cc", ["--version"]).status === 0;
const native = loadNativeMlDsa87();

describe("native ML-DSA-87 add-on", () => {
  it("is built wherever a C compiler is present", () => {
    // A machine with a compiler that ends up without the add-on means the install step broke:
    // fail here instead of quietly testing noble against nothing.
    if (compilerPresent) expect(native, `${NATIVE_ADDON_PATH}: ${native.ok ? "" : native.reason}`).toMatchObject({ ok: true });
  });

  describe.runIf(native.ok)("agrees with @noble/post-quantum", () => {
    const verify = native.ok ? native.verify : () => false;

    function expectAgreement(cases: Case[]) {
      const expected = cases.map((c) => `${c.name}: ${c.valid}`);
      expect(cases.map((c) => `${c.name}: ${nobleVerify(c)}`)).toEqual(expected);
      expect(cases.map((c) => `${c.name}: ${verify(c.signature, c.message, c.publicKey, c.context)}`)).toEqual(expected);
    }

    it("on the project's published vectors, and on each of them altered", () => {
      const keys = vectors<{ vectors: { publicKey: string }[] }>("keys.json").vectors.map((k) => hex(k.publicKey));
      const transactions = vectors<{ context: string; vectors: { keyIndex: number; signingHash: string; signature: string }[] }>(
        "transactions.json",
      );
      const proofs = vectors<{ context: string; vectors: { keyIndex: number; message: string; signature: string }[] }>(
        "ownership-proofs.json",
      );
      const [transactionContext, proofContext] = [utf8(transactions.context), utf8(proofs.context)];
      const published: PublishedCase[] = [
        ...transactions.vectors.map((v, i) => ({
          name: `transaction ${i}`,
          signature: hex(v.signature),
          message: hex(v.signingHash),
          publicKey: keys[v.keyIndex]!,
          context: transactionContext,
          otherContext: proofContext,
          valid: true,
        })),
        ...proofs.vectors.map((v, i) => ({
          name: `ownership proof ${i}`,
          signature: hex(v.signature),
          message: utf8(v.message),
          publicKey: keys[v.keyIndex]!,
          context: proofContext,
          otherContext: transactionContext,
          valid: true,
        })),
      ];
      expect(published.length).toBeGreaterThanOrEqual(4);
      const altered = published.flatMap((c, i): Case[] => [
        { ...c, name: `${c.name}, other context`, context: c.otherContext, valid: false },
        { ...c, name: `${c.name}, no context`, context: new Uint8Array(0), valid: false },
        { ...c, name: `${c.name}, other key`, publicKey: keys[(keys.indexOf(c.publicKey) + 1) % keys.length]!, valid: false },
        { ...c, name: `${c.name}, message bit flipped`, message: flipBit(c.message, 7 + i), valid: false },
        { ...c, name: `${c.name}, signature bit flipped`, signature: flipBit(c.signature, 8 * 100 + i), valid: false },
      ]);
      expectAgreement([...published, ...altered]);
    });

    it(`on ${RANDOM_KEYS} seeded random keys with tampered signatures, wrong contexts and wrong keys (seed "${SEED}")`, () => {
      console.log(`cross-check seed: ${SEED} (set QC_CROSS_CHECK_SEED to replay another)`);
      const random = seededBytes(SEED);
      const cases: Case[] = [];
      const keys = Array.from({ length: RANDOM_KEYS }, () => ml_dsa87.keygen(random.bytes(32)));
      keys.forEach(({ publicKey, secretKey }, k) => {
        const message = random.bytes(random.int(3) === 0 ? 32 : random.int(600));
        const context = random.bytes(k === 0 ? 255 : k === 1 ? 0 : random.int(64));
        const signature = ml_dsa87.sign(message, secretKey, { context, extraEntropy: random.bytes(32) });
        const otherKey = keys[(k + 1) % keys.length]!.publicKey;
        const good: Case = { name: `key ${k}`, signature, message, publicKey, context, valid: true };
        const signatureBits = signature.length * 8;
        cases.push(
          good,
          // a bit anywhere, and one in each part of the encoding: c~ (64 bytes), z, the hint
          {
            ...good,
            name: `key ${k}, signature bit flipped anywhere`,
            signature: flipBit(signature, random.int(signatureBits)),
            valid: false,
          },
          { ...good, name: `key ${k}, challenge bit flipped`, signature: flipBit(signature, random.int(64 * 8)), valid: false },
          { ...good, name: `key ${k}, z bit flipped`, signature: flipBit(signature, 64 * 8 + random.int(4480 * 8)), valid: false },
          {
            ...good,
            name: `key ${k}, hint byte changed`,
            signature: flipBit(signature, (4544 + random.int(83)) * 8 + random.int(8)),
            valid: false,
          },
          { ...good, name: `key ${k}, random signature`, signature: random.bytes(signature.length), valid: false },
          { ...good, name: `key ${k}, signature one byte short`, signature: signature.subarray(0, -1), valid: false },
          { ...good, name: `key ${k}, other key`, publicKey: otherKey, valid: false },
          { ...good, name: `key ${k}, key bit flipped`, publicKey: flipBit(publicKey, random.int(publicKey.length * 8)), valid: false },
          { ...good, name: `key ${k}, key one byte short`, publicKey: publicKey.subarray(0, -1), valid: false },
          {
            ...good,
            name: `key ${k}, message bit flipped`,
            message: flipBit(message.length ? message : new Uint8Array(1), random.int(Math.max(1, message.length) * 8)),
            valid: false,
          },
          {
            ...good,
            name: `key ${k}, context bit flipped`,
            context: flipBit(context.length ? context : new Uint8Array(1), random.int(Math.max(1, context.length) * 8)),
            valid: false,
          },
          { ...good, name: `key ${k}, context with one more byte`, context: Uint8Array.of(...context, 0), valid: false },
          { ...good, name: `key ${k}, context over 255 bytes`, context: random.bytes(256), valid: false },
        );
        // A view into a larger buffer: the add-on must read from the view's offset.
        const padded = new Uint8Array(signature.length + 16);
        padded.set(signature, 16);
        cases.push({ ...good, name: `key ${k}, signature as an offset view`, signature: padded.subarray(16), valid: true });
      });
      expectAgreement(cases);
    });

    it("throws a TypeError for an argument that is not a Uint8Array", () => {
      const bytes = new Uint8Array(1);
      expect(() => verify("00" as never, bytes, bytes, bytes)).toThrow(TypeError);
      expect(() => verify(bytes, new Uint16Array(1) as never, bytes, bytes)).toThrow(TypeError);
      expect(() => (verify as unknown as (...args: unknown[]) => boolean)(bytes, bytes, bytes)).toThrow(TypeError);
    });
  });

  it("reports an add-on that is not there instead of throwing", () => {
    expect(loadNativeMlDsa87("/nonexistent/mldsa87.node")).toMatchObject({ ok: false, reason: expect.stringContaining("not built") });
  });
});
