/**
 * ML-DSA-87 verification throughput (issue 15, goals 3 and 4): each implementation on one
 * thread against the worker-thread verify pool running it — `@noble/post-quantum`, and PQClean
 * through the @qc/mldsa-native add-on when it was built — measured in the same run on the same
 * request, plus how long the event loop was held up meanwhile (the pool must leave it free).
 *
 *   ./qc pnpm --filter @qc/bench verify
 *   BENCH_SECONDS=2 BENCH_ROUNDS=5 BENCH_THREADS=2 ./qc pnpm --filter @qc/bench verify
 *
 * Same work on every side: the request arrives as hex (as from JSON) and is decoded on the
 * calling thread by `decodeVerifyRequest` — the pool does that for each verification before
 * handing the bytes to a thread — then verified. Rounds alternate between the sides so that a
 * change in the machine's load hits them alike; the figures are medians over rounds.
 *
 * On a shared machine a side's rate is bounded by the CPU the scheduler gives the process, so
 * each side also records the cores this process used and the cores everyone else used meanwhile
 * (/proc/stat), and the CPU per verification: pool ÷ one thread can reach `threads × (one-thread
 * CPU per verify ÷ pool CPU per verify)` only when that many cores are free.
 *
 * Writes bench/results/verify-<time>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import {
  createVerifyPool,
  decodeVerifyRequest,
  generateKeyPair,
  resolveVerifyImplementation,
  signQuantumSigningHash,
  verifierOnThisThread,
  type VerifyImplementation,
  type VerifyPool,
} from "@qc/chain";

const seconds = Number(process.env.BENCH_SECONDS ?? 1);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const threads = Number(process.env.BENCH_THREADS ?? availableParallelism());
const roundCount = Number(process.env.BENCH_ROUNDS ?? 9);
const context = "QUANTUM-TX-v1";

const key = generateKeyPair();
const signingHash = `0x${"5a".repeat(32)}` as const;
const signature = signQuantumSigningHash({ signingHash, secretKey: key.secretKey });
const request = { publicKey: key.publicKey, signature, signingHash, context };

interface Run {
  name: string;
  verifies: number;
  perSecond: number;
  /** CPU time of the whole process (every thread, GC helpers included) per verification. */
  cpuMsPerVerify: number;
  /** CPU time of the main thread per verification (Linux): decoding and dispatch for the pool. */
  mainThreadCpuMsPerVerify: number | null;
  /** Process CPU ÷ wall time: the cores this side actually got. */
  coresUsed: number;
  /** Cores busy with other processes meanwhile, and stolen by the hypervisor (Linux, /proc/stat). */
  otherCoresBusy: number | null;
  stolenCores: number | null;
  /** Event-loop delay while it ran: what every other request on this process waited. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** Machine-wide CPU ticks (busy, steal) and this thread's CPU (ns), where Linux tells them. */
function cpuCounters(): { busyTicks: number; stealTicks: number; mainThreadNs: number } | undefined {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.split(/\s+/).map(Number);
    const mainThreadNs = Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]);
    return { busyTicks: user! + nice! + system! + irq! + softirq!, stealTicks: steal!, mainThreadNs };
  } catch {
    return undefined;
  }
}
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

async function measure(name: string, durationSeconds: number, body: (until: number) => Promise<number>): Promise<Run> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const before = cpuCounters();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const verifies = await body(start + durationSeconds * 1000);
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const after = cpuCounters();
  delay.disable();
  const processCpuSeconds = (used.user + used.system) / 1e6;
  const machine =
    before && after
      ? { busy: (after.busyTicks - before.busyTicks) / TICKS_PER_SECOND, steal: (after.stealTicks - before.stealTicks) / TICKS_PER_SECOND }
      : undefined;
  return {
    name,
    verifies,
    perSecond: verifies / elapsed,
    cpuMsPerVerify: (processCpuSeconds * 1000) / verifies,
    mainThreadCpuMsPerVerify: before && after ? (after.mainThreadNs - before.mainThreadNs) / 1e6 / verifies : null,
    coresUsed: processCpuSeconds / elapsed,
    otherCoresBusy: machine ? Math.max(0, machine.busy - processCpuSeconds) / elapsed : null,
    stolenCores: machine ? machine.steal / elapsed : null,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
    loopDelayMaxMs: delay.max / 1e6,
  };
}

/** What a request handler would do inline: decode and verify, one after another. */
function oneThread(implementation: VerifyImplementation) {
  const verify = verifierOnThisThread(resolveVerifyImplementation(implementation));
  return (durationSeconds: number) =>
    measure(`${implementation}, one thread (inline)`, durationSeconds, async (until) => {
      let n = 0;
      while (performance.now() < until) {
        const bytes = decodeVerifyRequest(request);
        if (!bytes || !verify(bytes)) throw new Error("signature did not verify");
        n++;
        // Let the loop run between verifies, as a server would between requests.
        if (n % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      return n;
    });
}

function pooled(pool: VerifyPool) {
  return (durationSeconds: number) =>
    measure(`${pool.implementation}, pool of ${threads} threads`, durationSeconds, async (until) => {
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
}

const nativeAvailable = resolveVerifyImplementation("auto");
const implementations: VerifyImplementation[] = nativeAvailable.implementation === "native" ? ["noble", "native"] : ["noble"];
if (nativeAvailable.nativeUnavailable) console.log(`native add-on not measured: ${nativeAvailable.nativeUnavailable}`);

type Side = { implementation: VerifyImplementation; kind: "single" | "pool"; run: (durationSeconds: number) => Promise<Run> };
const pools: VerifyPool[] = [];
const sides: Side[] = implementations.flatMap((implementation): Side[] => {
  const pool = createVerifyPool({ size: threads, minThreads: threads, implementation });
  pools.push(pool);
  return [
    { implementation, kind: "single", run: oneThread(implementation) },
    { implementation, kind: "pool", run: pooled(pool) },
  ];
});

// JIT warm-up of every side (each pool thread included) before any clock that counts.
for (const side of sides) await side.run(warmupSeconds);

const rounds: Record<string, Run>[] = [];
for (let i = 0; i < roundCount; i++) {
  const round: Record<string, Run> = {};
  for (const side of sides) round[`${side.implementation}/${side.kind}`] = await side.run(seconds);
  rounds.push(round);
}
await Promise.all(pools.map((p) => p.close()));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ratioPerRound = (over: string, under: string) => rounds.map((r) => r[over]!.perSecond / r[under]!.perSecond);
const sideSummary = (id: string) => {
  const runs = rounds.map((r) => r[id]!);
  const pick = (f: (r: Run) => number | null) => (runs.every((r) => f(r) !== null) ? median(runs.map((r) => f(r)!)) : null);
  return {
    name: runs[0]!.name,
    perSecond: pick((r) => r.perSecond)!,
    cpuMsPerVerify: pick((r) => r.cpuMsPerVerify)!,
    mainThreadCpuMsPerVerify: pick((r) => r.mainThreadCpuMsPerVerify),
    coresUsed: pick((r) => r.coresUsed)!,
    otherCoresBusy: pick((r) => r.otherCoresBusy),
    stolenCores: pick((r) => r.stolenCores),
    loopDelayP99Ms: pick((r) => r.loopDelayP99Ms)!,
    loopDelayMaxMs: pick((r) => r.loopDelayMaxMs)!,
  };
};
const summaries = Object.fromEntries(Object.keys(rounds[0]!).map((id) => [id, sideSummary(id)]));

const comparisons = implementations.map((implementation) => {
  const single = summaries[`${implementation}/single`]!;
  const pool = summaries[`${implementation}/pool`]!;
  const perRound = ratioPerRound(`${implementation}/pool`, `${implementation}/single`);
  return {
    implementation,
    poolOverSingle: median(perRound),
    rounds: perRound,
    /** What pool ÷ one thread would be with `threads` free cores, from the CPU each verification costs. */
    poolOverSingleWithFreeCores: (threads * single.cpuMsPerVerify) / pool.cpuMsPerVerify,
  };
});
const nativeOverNoble = implementations.includes("native") ? median(ratioPerRound("native/single", "noble/single")) : null;

console.log(
  `\nML-DSA-87 verify, ${seconds} s per side × ${roundCount} alternating rounds (medians), ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), load ${loadavg()[0]!.toFixed(1)}\n`,
);
const columns: [string, number][] = [
  ["verifies/s", 11],
  ["cpu ms/verify", 14],
  ["main ms/verify", 15],
  ["cores used", 11],
  ["others' cores", 14],
  ["stolen", 7],
  ["loop p99 ms", 12],
];
console.log("target".padEnd(30), ...columns.map(([title, width]) => title.padStart(width)));
const fixed = (value: number | null, digits: number) => (value === null ? "n/a" : value.toFixed(digits));
for (const s of Object.values(summaries)) {
  const cells = [
    fixed(s.perSecond, 0),
    fixed(s.cpuMsPerVerify, 3),
    fixed(s.mainThreadCpuMsPerVerify, 3),
    fixed(s.coresUsed, 2),
    fixed(s.otherCoresBusy, 2),
    fixed(s.stolenCores, 2),
    fixed(s.loopDelayP99Ms, 1),
  ];
  console.log(s.name.padEnd(30), ...cells.map((cell, i) => cell.padStart(columns[i]![1])));
}
console.log("");
for (const c of comparisons) {
  console.log(
    `${c.implementation}: pool ÷ one thread ${c.poolOverSingle.toFixed(2)}× (rounds ${c.rounds.map((r) => r.toFixed(2)).join(", ")}); with ${threads} free cores, from CPU per verify: ${c.poolOverSingleWithFreeCores.toFixed(2)}×`,
  );
}
if (nativeOverNoble !== null) console.log(`native ÷ noble, one thread: ${nativeOverNoble.toFixed(1)}×`);

const result = {
  benchmark: "verify",
  at: new Date().toISOString(),
  machine: {
    cores: cpus().length,
    availableParallelism: availableParallelism(),
    cpu: cpus()[0]?.model,
    node: process.version,
    loadavg1: loadavg()[0],
  },
  seconds,
  roundCount,
  threads,
  implementations,
  sides: summaries,
  comparisons,
  nativeOverNoble,
  rounds,
};
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const file = new URL(`./results/verify-${Date.now()}.json`, import.meta.url);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ ...result, rounds: undefined }));
