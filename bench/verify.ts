/**
 * ML-DSA-87 verification throughput (issue 15, goal 3): `@noble/post-quantum` on one thread
 * against the worker-thread verify pool, measured in the same run on the same signature, plus
 * how long the event loop was held up meanwhile (the pool must leave it free).
 *
 *   ./qc pnpm --filter @qc/bench verify
 *   BENCH_SECONDS=3 BENCH_ROUNDS=5 BENCH_THREADS=2 ./qc pnpm --filter @qc/bench verify
 *
 * Writes bench/results/verify-<time>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createVerifyPool, generateKeyPair, signQuantumSigningHash, verifyQuantumSigningHash } from "@qc/chain";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const threads = Number(process.env.BENCH_THREADS ?? availableParallelism());
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
const context = "QUANTUM-TX-v1";

const key = generateKeyPair();
const signingHash = `0x${"5a".repeat(32)}` as const;
const signature = signQuantumSigningHash({ signingHash, secretKey: key.secretKey });
const request = { publicKey: key.publicKey, signature, signingHash, context };

interface Run {
  name: string;
  verifies: number;
  perSecond: number;
  /**
   * CPU time of the whole process (every thread) per verification: equal for both when the pool
   * adds no overhead, so its rate grows with the cores the machine leaves free.
   */
  cpuMsPerVerify: number;
  /** Event-loop delay while it ran: what every other request on this process waited. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

async function measure(name: string, body: (until: number) => Promise<number>): Promise<Run> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const verifies = await body(start + seconds * 1000);
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  delay.disable();
  return {
    name,
    verifies,
    perSecond: verifies / elapsed,
    cpuMsPerVerify: (used.user + used.system) / 1000 / verifies,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
}

// The same work a request handler would do inline: one synchronous verify after another.
const inline = () =>
  measure("noble, one thread (inline)", async (until) => {
    let n = 0;
    while (performance.now() < until) {
      if (!verifyQuantumSigningHash(request)) throw new Error("signature did not verify");
      n++;
      // Let the loop run between verifies, as a server would between requests.
      if (n % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return n;
  });

const pool = createVerifyPool({ size: threads, minThreads: threads });
const pooled = () =>
  measure(`verify pool, ${threads} threads`, async (until) => {
    let n = 0;
    // Enough in flight that no thread waits for the next request.
    const lane = async () => {
      while (performance.now() < until) {
        if (!(await pool.verify(request))) throw new Error("signature did not verify");
        n++;
      }
    };
    await Promise.all(Array.from({ length: threads * 4 }, lane));
    return n;
  });

// Threads started and noble loaded before any clock starts.
await Promise.all(Array.from({ length: threads * 2 }, () => pool.verify(request)));
// Alternating rounds, so that a change in the machine's load hits both sides alike; the
// figure is the median round.
const rounds: { single: Run; pooled: Run; ratio: number }[] = [];
for (let i = 0; i < roundCount; i++) {
  const single = await inline();
  const poolRun = await pooled();
  rounds.push({ single, pooled: poolRun, ratio: poolRun.perSecond / single.perSecond });
}
await pool.close();
const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
const { single, pooled: pooledRun } = median;

const runs = [single, pooledRun];
const ratio = median.ratio;
console.log(`\nML-DSA-87 verify, ${seconds} s each, ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), load ${loadavg()[0]!.toFixed(1)}\n`);
console.log("target".padEnd(34), "verifies/s".padStart(11), "cpu ms/verify".padStart(14), "loop p99 ms".padStart(12), "loop max ms".padStart(12));
for (const r of runs) {
  console.log(
    r.name.padEnd(34),
    r.perSecond.toFixed(0).padStart(11),
    r.cpuMsPerVerify.toFixed(2).padStart(14),
    r.loopDelayP99Ms.toFixed(1).padStart(12),
    r.loopDelayMaxMs.toFixed(1).padStart(12),
  );
}
console.log(`\npool ÷ one thread: ${ratio.toFixed(2)}× (median of ${rounds.length} rounds: ${rounds.map((r) => r.ratio.toFixed(2)).join(", ")})`);

const result = {
  benchmark: "verify",
  at: new Date().toISOString(),
  machine: { cores: cpus().length, availableParallelism: availableParallelism(), cpu: cpus()[0]?.model, node: process.version, loadavg1: loadavg()[0] },
  seconds,
  threads,
  runs,
  rounds: rounds.map((r) => ({ singlePerSecond: r.single.perSecond, poolPerSecond: r.pooled.perSecond, ratio: r.ratio })),
  poolOverSingle: ratio,
};
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const file = new URL(`./results/verify-${Date.now()}.json`, import.meta.url);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result));
