/**
 * The raw ML-DSA-87 verify rate the pipeline benchmark prints beside its run, measured in the same
 * command: on one thread and on the worker-thread pool (`createVerifyPool`).
 */
import {
  createVerifyPool,
  generateKeyPair,
  signQuantumSigningHash,
  verifyQuantumSigningHash,
  TRANSACTION_SIGNATURE_CONTEXT,
} from "@qc/chain";

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Verifications per second of `pool` on one request, `pool.size × 4` in flight. */
async function poolRate(
  seconds: number,
  pool: ReturnType<typeof createVerifyPool>,
  request: Parameters<ReturnType<typeof createVerifyPool>["verify"]>[0],
): Promise<number> {
  await Promise.all(Array.from({ length: pool.size }, () => pool.verify(request))); // threads started
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: pool.size * 4 }, async () => {
      while (performance.now() - started < seconds * 1000) {
        if (!(await pool.verify(request))) throw new Error("the pool refused the reference signature");
        done += 1;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  await pool.close();
  return perSecond;
}

/**
 * Raw ML-DSA-87 verification on one signature, `seconds` each: `verifyQuantumSigningHash` inline on this
 * thread, the verify pool with one thread, and the pool at its default size (one per core).
 * The pool uses whatever implementation QC_VERIFY_IMPL selects; inline is @qc/chain's own.
 */
export async function measureVerifyRates(seconds: number) {
  const key = generateKeyPair();
  const signingHash = `0x${"5a".repeat(32)}` as const;
  const signature = signQuantumSigningHash({ signingHash, secretKey: key.secretKey });
  const request = { publicKey: key.publicKey, signature, signingHash, context: TRANSACTION_SIGNATURE_CONTEXT };

  const started = performance.now();
  let inline = 0;
  while (performance.now() - started < seconds * 1000) {
    if (!verifyQuantumSigningHash({ signingHash, signature, publicKey: key.publicKey }))
      throw new Error("the reference signature does not verify");
    inline += 1;
  }
  const oneThreadPerSecond = inline / ((performance.now() - started) / 1000);
  const poolOneThreadPerSecond = await poolRate(seconds, createVerifyPool({ size: 1 }), request);
  const pool = createVerifyPool();
  const poolPerSecond = await poolRate(seconds, pool, request);
  return {
    seconds,
    poolImplementation: process.env.QC_VERIFY_IMPL ?? "auto",
    oneThreadPerSecond: round(oneThreadPerSecond),
    poolOneThreadPerSecond: round(poolOneThreadPerSecond),
    poolThreads: pool.size,
    poolPerSecond: round(poolPerSecond),
    poolOverPoolOneThread: round(poolPerSecond / poolOneThreadPerSecond, 2),
  };
}

export type VerifyRates = Awaited<ReturnType<typeof measureVerifyRates>>;
