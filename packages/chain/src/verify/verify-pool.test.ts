import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { bytesToHex, hexToBytes, type Hex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { OWNERSHIP_PROOF_CONTEXT, TRANSACTION_SIGNATURE_CONTEXT } from "../protocol/constants";
import { loadNativeMlDsa87 } from "@qc/mldsa-native";
import { verifyImplementationFromEnv } from "./env";
import { NativeVerifyUnavailableError, resolveVerifyImplementation, type VerifyImplementation } from "./verify-implementation";
import { createVerifyPool, VerifyPoolBusyError, VerifyPoolClosedError, type VerifyPool, type VerifyRequest } from "./verify-pool";

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../../vectors/${name}`, import.meta.url), "utf8")) as T;
const keys = load<{ vectors: { publicKey: Hex; secretKey: Hex }[] }>("keys.json").vectors;
const transactions = load<{ vectors: { name: string; keyIndex: number; signingHash: Hex; signature: Hex }[] }>("transactions.json").vectors;
const proofs = load<{ vectors: { keyIndex: number; message: string; signature: Hex }[] }>("ownership-proofs.json").vectors;

const utf8 = new TextEncoder();

/** noble on this thread: the reference the pool must agree with, request for request. */
function nobleVerify(request: VerifyRequest): boolean {
  const message =
    request.signingHash !== undefined
      ? toBytes(request.signingHash)
      : typeof request.message === "string"
        ? utf8.encode(request.message)
        : request.message!;
  const context = typeof request.context === "string" ? utf8.encode(request.context) : request.context;
  try {
    return ml_dsa87.verify(toBytes(request.signature), message, toBytes(request.publicKey), { context });
  } catch {
    return false;
  }
}
const toBytes = (value: Uint8Array | string) => (typeof value === "string" ? hexToBytes(value as Hex) : value);

function flipBit(bytes: Uint8Array, index: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[index % copy.length]! ^= 0x01;
  return copy;
}

// Every implementation this machine has: noble always, native when the add-on was built (its
// own package's test fails when a compiler is present and the add-on is not).
const implementations: VerifyImplementation[] = loadNativeMlDsa87().ok ? ["noble", "native"] : ["noble"];

describe.each(implementations)("verify pool on %s", (implementation) => {
  const pool = createVerifyPool({ size: 2, implementation });
  afterAll(() => pool.close());

  it("runs the implementation it was given, and says so", () => {
    expect(pool.implementation).toBe(implementation);
    expect(pool.stats().implementation).toBe(implementation);
  });

  it("accepts every published vector, as noble does", async () => {
    const requests: VerifyRequest[] = [
      ...transactions.map((v) => ({
        publicKey: keys[v.keyIndex]!.publicKey,
        signature: v.signature,
        signingHash: v.signingHash,
        context: TRANSACTION_SIGNATURE_CONTEXT,
      })),
      ...proofs.map((v) => ({
        publicKey: keys[v.keyIndex]!.publicKey,
        signature: v.signature,
        message: v.message,
        context: OWNERSHIP_PROOF_CONTEXT,
      })),
    ];
    expect(requests.length).toBeGreaterThanOrEqual(4);
    const results = await Promise.all(requests.map((r) => pool.verify(r)));
    expect(results).toEqual(requests.map(() => true));
    expect(results).toEqual(requests.map(nobleVerify));
  });

  it("refuses the vectors under the other context, another key, another message or a flipped signature bit", async () => {
    const vector = transactions[0]!;
    const good = {
      publicKey: keys[vector.keyIndex]!.publicKey,
      signature: vector.signature,
      signingHash: vector.signingHash,
      context: TRANSACTION_SIGNATURE_CONTEXT,
    };
    const otherKey = keys.find((_, i) => i !== vector.keyIndex)!.publicKey;
    const proof = proofs[0]!;
    const goodProof = {
      publicKey: keys[proof.keyIndex]!.publicKey,
      signature: proof.signature,
      message: proof.message,
      context: OWNERSHIP_PROOF_CONTEXT,
    };
    const bad: VerifyRequest[] = [
      { ...good, context: OWNERSHIP_PROOF_CONTEXT },
      { ...good, context: "" },
      { ...good, publicKey: otherKey },
      { ...good, signingHash: bytesToHex(flipBit(hexToBytes(vector.signingHash), 31)) },
      { ...good, signature: bytesToHex(flipBit(hexToBytes(vector.signature), 100)) },
      { ...goodProof, context: TRANSACTION_SIGNATURE_CONTEXT },
      { ...goodProof, message: `${proof.message} ` },
      { ...goodProof, publicKey: keys.find((_, i) => i !== proof.keyIndex)!.publicKey },
    ];
    const results = await Promise.all(bad.map((r) => pool.verify(r)));
    expect(results).toEqual(bad.map(() => false));
    expect(results).toEqual(bad.map(nobleVerify));
  });

  it("agrees with noble on random keys, messages and contexts, both ways", async () => {
    const requests: VerifyRequest[] = [];
    for (let i = 0; i < 4; i++) {
      const { publicKey, secretKey } = ml_dsa87.keygen();
      const other = ml_dsa87.keygen().publicKey;
      const message = randomBytes(1 + ((i * 97) % 300));
      const context = i === 3 ? randomBytes(255) : randomBytes(i * 7);
      const signature = ml_dsa87.sign(message, secretKey, { context });
      requests.push(
        { publicKey, signature, message, context },
        { publicKey: bytesToHex(publicKey), signature: bytesToHex(signature), message, context },
        { publicKey: other, signature, message, context },
        { publicKey, signature, message: flipBit(message, i), context },
        { publicKey, signature, message, context: flipBit(context.length ? context : Uint8Array.of(0), 0) },
        { publicKey, signature: flipBit(signature, 4000 + i), message, context },
      );
    }
    const results = await Promise.all(requests.map((r) => pool.verify(r)));
    expect(results).toEqual(requests.map(nobleVerify));
    expect(results.filter(Boolean)).toHaveLength(8);
  });

  it("answers false for malformed input without reaching a thread", async () => {
    const v = transactions[0]!;
    const good = {
      publicKey: keys[v.keyIndex]!.publicKey,
      signature: v.signature,
      signingHash: v.signingHash,
      context: TRANSACTION_SIGNATURE_CONTEXT,
    };
    const completed = pool.stats().completed;
    const malformed: VerifyRequest[] = [
      { ...good, signature: v.signature.slice(0, -2) },
      { ...good, signature: `${v.signature}00` },
      { ...good, publicKey: keys[v.keyIndex]!.publicKey.slice(0, -2) },
      { ...good, publicKey: `0x${"zz".repeat(2592)}` },
      // Node's hex decoder stops at the first non-hex pair: a bad last digit or a space inside must still be refused.
      { ...good, signature: `${v.signature.slice(0, -1)}g` },
      { ...good, signature: `${v.signature.slice(0, 1000)} ${v.signature.slice(1001)}` },
      { ...good, signingHash: `0x${v.signingHash.slice(2).toUpperCase().slice(0, -1)}G` },
      { ...good, signingHash: `${v.signingHash}00` },
      { ...good, context: randomBytes(256) },
      { ...good, signingHash: undefined, message: 42 as never },
    ];
    for (const request of malformed) expect(await pool.verify(request)).toBe(false);
    expect(pool.stats().completed).toBe(completed);
  });

  it("runs off the event loop: the loop turns while verifications are running", async () => {
    const v = proofs[0]!;
    const request = {
      publicKey: keys[v.keyIndex]!.publicKey,
      signature: v.signature,
      message: v.message,
      context: OWNERSHIP_PROOF_CONTEXT,
    };
    // Work for many turns of the loop on either implementation (the add-on verifies in tens of
    // microseconds: eight verifications could all be answered before one turn), within the queue.
    const count = 400;
    let done = false;
    const running = Promise.all(Array.from({ length: count }, () => pool.verify(request))).finally(() => (done = true));
    let turnsWhileRunning = 0;
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!done) turnsWhileRunning++;
    }
    expect(await running).toEqual(Array.from({ length: count }, () => true));
    // Verified on this thread, every answer would be in before the loop's first turn.
    expect(turnsWhileRunning).toBeGreaterThan(0);
  });
});

describe("verify pool limits and failures", () => {
  const v = transactions[1]!;
  const request = {
    publicKey: keys[v.keyIndex]!.publicKey,
    signature: v.signature,
    signingHash: v.signingHash,
    context: TRANSACTION_SIGNATURE_CONTEXT,
  };
  const pools: VerifyPool[] = [];
  afterAll(() => Promise.all(pools.map((p) => p.close())));
  const newPool = (...args: Parameters<typeof createVerifyPool>) => {
    const pool = createVerifyPool(...args);
    pools.push(pool);
    return pool;
  };

  it("refuses past a full queue with VerifyPoolBusyError and still answers what it accepted", async () => {
    const pool = newPool({ size: 1, maxQueue: 2 });
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => pool.verify(request)));
    const accepted = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length).toBeLessThanOrEqual(3);
    expect(accepted.map((o) => (o as PromiseFulfilledResult<boolean>).value)).toEqual(accepted.map(() => true));
    expect(refused.length).toBe(8 - accepted.length);
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(VerifyPoolBusyError);
  });

  it("replaces a killed thread and runs the request it was running again", async () => {
    const pool = newPool({ size: 2, minThreads: 2 });
    expect(await pool.verify(request)).toBe(true); // threads started and ready
    const [victim] = pool.threads();
    const victimId = victim!.threadId;
    const running = Promise.all(Array.from({ length: 4 }, () => pool.verify(request)));
    await victim!.terminate();
    expect(await running).toEqual([true, true, true, true]);
    expect(pool.stats().retried).toBe(1);
    await expect.poll(() => pool.stats().threads, { timeout: 10_000 }).toBe(2);
    expect(pool.threads().map((t) => t.threadId)).not.toContain(victimId);
    expect(await Promise.all([pool.verify(request), pool.verify({ ...request, context: "QUANTUM-TX-v2" })])).toEqual([true, false]);
  });

  it("refuses new work once closed", async () => {
    const pool = newPool({ size: 1 });
    expect(await pool.verify(request)).toBe(true);
    await pool.close();
    await expect(pool.verify(request)).rejects.toBeInstanceOf(VerifyPoolClosedError);
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => createVerifyPool({ size: 0 })).toThrow(RangeError);
    expect(() => createVerifyPool({ size: 1.5 })).toThrow(RangeError);
  });
});

describe("choosing the implementation", () => {
  const missing = () => loadNativeMlDsa87("/nonexistent/mldsa87.node");

  it("falls back to noble under auto when the add-on is absent, and says why", () => {
    expect(resolveVerifyImplementation("auto", missing)).toEqual({
      implementation: "noble",
      nativeUnavailable: expect.stringContaining("not built"),
    });
    expect(resolveVerifyImplementation("noble")).toEqual({ implementation: "noble" });
  });

  it("refuses to start with native when the add-on is absent, never substituting noble", () => {
    expect(() => resolveVerifyImplementation("native", missing)).toThrow(NativeVerifyUnavailableError);
  });

  it.runIf(loadNativeMlDsa87().ok)("uses the add-on under auto when it was built", () => {
    expect(resolveVerifyImplementation("auto")).toMatchObject({ implementation: "native" });
  });

  it("reads QC_VERIFY_IMPL, defaulting to auto and refusing anything else", () => {
    expect(verifyImplementationFromEnv({})).toBe("auto");
    expect(verifyImplementationFromEnv({ QC_VERIFY_IMPL: "noble" })).toBe("noble");
    expect(verifyImplementationFromEnv({ QC_VERIFY_IMPL: "native" })).toBe("native");
    expect(() => verifyImplementationFromEnv({ QC_VERIFY_IMPL: "wasm" })).toThrow(RangeError);
  });

  it("logs the implementation once, at creation", async () => {
    const lines: { details: object; message: string }[] = [];
    const pool = createVerifyPool({
      size: 1,
      implementation: "noble",
      log: { info: (details, message) => lines.push({ details, message }) },
    });
    await pool.close();
    expect(lines).toEqual([
      {
        details: expect.objectContaining({ verifyImplementation: "noble", verifyThreads: 1 }),
        message: expect.stringContaining("@noble/post-quantum"),
      },
    ]);
  });
});
