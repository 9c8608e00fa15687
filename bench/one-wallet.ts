/**
 * One wallet, many transfers in flight (issue 35, CONTRACT §17): BENCH_TRANSFERS transfers (1,000)
 * from ONE source wallet, create → COMPLETED, signed by the reference signer's `signer serve
 * --rules <file>` (a hot wallet's co-signer, its own process, compiled), with the web server, the
 * daemon and a devnet with 1 s blocks each in its own process as `./qc start` runs them. Then the
 * baseline in the same command: the same with NONCE_WINDOW=1 (one transfer between release and
 * mining, the old one-at-a-time behaviour), BENCH_BASELINE_TRANSFERS transfers (60: at ~0.6/s a
 * thousand would take half an hour). Everything on loopback, each run on a fresh database.
 *
 *   ./qc pnpm --filter @qc/bench one-wallet                         # 1,000 transfers, window 16; baseline 60
 *   BENCH_TRANSFERS=200 BENCH_BASELINE_TRANSFERS=30 ./qc exec tsx bench/one-wallet.ts
 *
 * Reports, per run: completed transfers/s — sustained (the middle 80 % of completions ÷ the time
 * they took) and end to end (all ÷ first create → last completion); signature → BROADCASTING
 * p50/p95 (the record's signedAt → broadcastAt); the CPU of each process (web, daemon,
 * PostgreSQL's backends, the signer, the devnet, this process) ÷ completed transfers; the
 * database's waits; the load average at the start and end of each run. Then the window's run ÷
 * the baseline's, as ratios measured in the same minutes.
 *
 * Knobs: BENCH_TRANSFERS, BENCH_BASELINE_TRANSFERS (0: no baseline), BENCH_NONCE_WINDOW (16),
 * BENCH_SERVE_POLL_MS (the signer's poll, 50), BENCH_CREATORS (concurrent creates, 8),
 * BENCH_DEADLINE_SECONDS (per run, 900), BENCH_BASELINE=<another checkout> (e.g. `git archive HEAD`
 * unpacked, node_modules linked: its web server and daemon, built by its own scripts/bundle.ts, run
 * the same window and transfers first; the report ends with this checkout ÷ that one, measured in
 * the same minutes), BENCH_CPU_PROF=<dir> (a V8 CPU profile of each run's daemon, written under
 * <dir>/<run> when it stops). A database from DATABASE_URL when set, otherwise a
 * throw-away embedded PostgreSQL per run. SIGINT/SIGTERM stop every process it started. Writes
 * bench/results/one-wallet-<time>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { nativeAssetId } from "@qc/core";
import { eq, schema, sql } from "@qc/db";
import { benchDatabase } from "./database";
import { registerSignerWallet, signerHome, startServe } from "./one-wallet-signer";
import { machine, startObserver, type Observed } from "./pipeline-observe";
import { serviceCpuPerCompleted } from "./pipeline-report";
import { prepare, waitForCompletion } from "./pipeline-setup";
import { rpc, startPipelineStack, webClient } from "./pipeline-stack";
import { summary, windowSteps, type HistoryRow, type Summary } from "./pipeline-steps";

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 1000);
const BASELINE_TRANSFERS = Number(process.env.BENCH_BASELINE_TRANSFERS ?? 60);
const WINDOW = Number(process.env.BENCH_NONCE_WINDOW ?? 16);
const POLL_MS = Number(process.env.BENCH_SERVE_POLL_MS ?? 50);
const CREATORS = Number(process.env.BENCH_CREATORS ?? 8);
const RUN_SECONDS = Number(process.env.BENCH_DEADLINE_SECONDS ?? 900);
const BASELINE_CHECKOUT = process.env.BENCH_BASELINE || undefined;
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF || undefined;
const SETUP_SECONDS = 240;
const BLOCK_TIME_MS = 1000;
const NETWORK = "QUANTUM_SANDBOX";
const DESTINATION = `0x${"00".repeat(18)}b0b1`;
const Q = 10n ** 18n;

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error: unknown) => {
    log(`${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.kill(process.pid, "SIGTERM");
  });
}

if (
  ![TRANSFERS, WINDOW, POLL_MS, CREATORS, RUN_SECONDS].every((n) => Number.isInteger(n) && n > 0) ||
  !Number.isInteger(BASELINE_TRANSFERS) ||
  BASELINE_TRANSFERS < 0
) {
  throw new Error(
    "BENCH_TRANSFERS, BENCH_NONCE_WINDOW, BENCH_SERVE_POLL_MS, BENCH_CREATORS, BENCH_DEADLINE_SECONDS must be positive integers; BENCH_BASELINE_TRANSFERS ≥ 0",
  );
}

type Variant = { label: string; nonceWindow: number; transfers: number; checkout?: string };

/** `count` creates from the one source, `CREATORS` at a time, as fast as the web answers. */
async function createTransfers(web: ReturnType<typeof webClient>, walletId: string, assetId: string, count: number, label: string) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATORS }, async () => {
      for (let i = next++; i < count; i = next++) {
        const res = await web<{ id: string }>(
          "POST",
          "/v1/transactions",
          { networkCode: NETWORK, sourceWalletId: walletId, destinationAddress: DESTINATION, assetId, amount: "1000" },
          { "x-idempotency-key": `one-wallet-${label}-${i}` },
        );
        if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.json)}`);
      }
    }),
  );
}

/** Completions per second over the middle 80 % of them (sustained), and over the whole run. */
function rates(rows: { createdAt: Date; completedAt: Date | null }[]) {
  const done = rows
    .map((r) => r.completedAt?.getTime())
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);
  const firstCreate = Math.min(...rows.map((r) => r.createdAt.getTime()));
  const at = (q: number) => done[Math.min(done.length - 1, Math.floor(q * done.length))]!;
  const middle = Math.floor(0.9 * done.length) - Math.floor(0.1 * done.length);
  return {
    completed: done.length,
    sustainedPerSecond: done.length >= 10 ? round((middle * 1000) / Math.max(1, at(0.9) - at(0.1)), 2) : null,
    endToEndPerSecond: done.length ? round((done.length * 1000) / Math.max(1, done.at(-1)! - firstCreate), 2) : null,
    firstCreateToLastCompletionSeconds: done.length ? round((done.at(-1)! - firstCreate) / 1000, 2) : null,
  };
}

type RunResult = {
  label: string;
  checkout?: string;
  nonceWindow: number;
  transfers: number;
  complete: boolean;
  rates: ReturnType<typeof rates>;
  signedToBroadcastingMs: Summary;
  createToCompletedMs: Summary;
  /** CPU ms per completed transfer, per process, and the service's (web + daemon + PostgreSQL). */
  cpuMsPerCompleted: Record<string, number>;
  serviceCpuMsPerCompleted: Record<string, number>;
  /** The window's steps and occupancy, from the status history. */
  window: ReturnType<typeof windowSteps>;
  /** pg-boss jobs created per transfer, by queue (every job the run made, done or not). */
  jobsPerTransfer: Record<string, number>;
  serveDecisions: { signed: number; rejected: number };
  loadavgAtStart: number[];
  loadavgAtEnd: number[];
  observed: Observed;
};

async function runOneWallet(variant: Variant): Promise<RunResult> {
  const bench = await benchDatabase(`qc-bench-one-wallet-w${variant.nonceWindow}`);
  const { database, pepper, tenantId, apiKey } = await prepare(bench.url);
  let stack: Awaited<ReturnType<typeof startPipelineStack>> | undefined;
  let serve: Awaited<ReturnType<typeof startServe>> | undefined;
  try {
    log(`${variant.label}: starting the devnet, the web server and the daemon (NONCE_WINDOW=${variant.nonceWindow})…`);
    stack = await startPipelineStack({
      databaseUrl: bench.url,
      work: bench.work,
      apiKeyPepper: pepper,
      daemons: 1,
      blockTimeMs: BLOCK_TIME_MS,
      deadline: Date.now() + SETUP_SECONDS * 1000,
      daemonsReady: async (n) => (await database.db.select().from(schema.daemonHeartbeats)).length >= n,
      env: { NONCE_WINDOW: String(variant.nonceWindow) },
      ...(variant.checkout ? { checkout: variant.checkout } : {}),
      ...(CPU_PROF_DIR ? { daemonNodeFlags: ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF_DIR}/${variant.label}`] } : {}),
    });
    const web = webClient(stack.baseUrl, stack.ca, `Bearer ${apiKey}`);
    log(`${variant.label}: the signer's home, its wallet and \`signer serve\` (not measured)…`);
    const home = await signerHome({ work: bench.work, baseUrl: stack.baseUrl, ca: stack.ca, apiKey });
    const vault = await web<{ id: string }>("POST", "/v1/vault/accounts", { name: "hot", networkCode: NETWORK });
    if (vault.status !== 201) throw new Error(`vault: ${vault.status} ${JSON.stringify(vault.json)}`);
    const wallet = await registerSignerWallet(home, vault.json.id);
    await rpc(stack.rpcUrl, "devnet_fund", [wallet.address, `0x${(1_000_000n * Q).toString(16)}`]);
    const native = nativeAssetId(NETWORK);
    serve = await startServe(home, {
      work: bench.work,
      pollMs: POLL_MS,
      rules: {
        maxAmountPerTransfer: { [native]: "1000000" },
        dailyLimit: { [native]: (10n ** 30n).toString() },
        destinations: [DESTINATION],
        types: ["TRANSFER", "NONCE_FILL", "CANCELLATION", "REPLACEMENT"],
      },
    });

    log(`${variant.label}: ${variant.transfers} transfers from one wallet: create → signer serve → COMPLETED…`);
    const loadavgAtStart = machine().loadavg;
    const observer = startObserver({
      databaseUrl: bench.url,
      rpcUrl: stack.rpcUrl,
      processes: [
        { name: "bench (load)", pid: process.pid },
        { name: "signer serve", pid: serve.child.pid! },
        ...stack.processes.map((p) => ({ name: p.name, pid: p.child.pid! })),
      ],
    });
    const deadline = Date.now() + RUN_SECONDS * 1000;
    await createTransfers(web, wallet.walletId, native, variant.transfers, variant.label);
    const complete = await waitForCompletion(database, tenantId, variant.transfers, deadline, log);
    const observed = await observer.stop();
    const jobs = await jobsPerTransfer(database, variant.transfers);
    const rows = await database.db
      .select({
        createdAt: schema.transactions.createdAt,
        signedAt: schema.transactions.signedAt,
        broadcastAt: schema.transactions.broadcastAt,
        completedAt: schema.transactions.completedAt,
      })
      .from(schema.transactions)
      .where(eq(schema.transactions.tenantId, tenantId));
    const measured = rates(rows);
    const history: HistoryRow[] = await database.db
      .select({
        id: schema.transactionStatusHistory.transactionId,
        to: schema.transactionStatusHistory.toStatus,
        at: schema.transactionStatusHistory.createdAt,
      })
      .from(schema.transactionStatusHistory)
      .where(eq(schema.transactionStatusHistory.tenantId, tenantId));
    const cpuMsPerCompleted = Object.fromEntries(
      Object.entries(observed.cpu).map(([name, cpu]) => [name, round((cpu.cpuSeconds * 1000) / Math.max(1, measured.completed), 1)]),
    );
    return {
      ...variant,
      complete,
      rates: measured,
      signedToBroadcastingMs: summary(
        rows.filter((r) => r.signedAt && r.broadcastAt).map((r) => r.broadcastAt!.getTime() - r.signedAt!.getTime()),
      ),
      createToCompletedMs: summary(rows.filter((r) => r.completedAt).map((r) => r.completedAt!.getTime() - r.createdAt.getTime())),
      cpuMsPerCompleted,
      window: windowSteps(history, variant.nonceWindow, measured.firstCreateToLastCompletionSeconds ?? observed.seconds),
      serviceCpuMsPerCompleted: serviceCpuPerCompleted(observed, measured.completed),
      jobsPerTransfer: jobs,
      serveDecisions: {
        signed: serve.decisions.filter((d) => d.decision === "SIGNED").length,
        rejected: serve.decisions.filter((d) => d.decision === "REJECTED").length,
      },
      loadavgAtStart,
      loadavgAtEnd: machine().loadavg,
      observed,
    };
  } finally {
    await serve?.stop();
    await stack?.stop();
    await database.close();
    await bench.dispose();
  }
}

/** The run's pg-boss jobs by queue ÷ transfers (pg-boss keeps completed jobs until their retention, days). */
async function jobsPerTransfer(
  database: Awaited<ReturnType<typeof prepare>>["database"],
  transfers: number,
): Promise<Record<string, number>> {
  const { rows } = await database.db.execute<{ name: string; jobs: number }>(
    sql`select name, count(*)::int as jobs from pgboss.job where name like 'transfers.%' group by name order by name`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, round(r.jobs / transfers, 2)]));
}

function printRun(run: RunResult) {
  const r = run.rates;
  console.log(
    `\n${run.label}${run.checkout ? ` (${run.checkout})` : ""} (NONCE_WINDOW=${run.nonceWindow}): ${r.completed}/${run.transfers} COMPLETED${run.complete ? "" : " (DEADLINE PASSED)"}; load ${run.loadavgAtStart.join(" ")} → ${run.loadavgAtEnd.join(" ")}, machine busy ${Math.round(run.observed.machine.cpuBusyShare * 100)} %`,
  );
  console.log(
    `  completed/s: sustained ${r.sustainedPerSecond}, end to end ${r.endToEndPerSecond} (first create → last completion ${r.firstCreateToLastCompletionSeconds} s)`,
  );
  console.log(
    `  signature → BROADCASTING (signedAt → broadcastAt): p50 ${run.signedToBroadcastingMs.p50} ms, p95 ${run.signedToBroadcastingMs.p95} ms`,
  );
  const steps = run.window;
  const step = (name: string, v: Summary) => `${name} ${v.p50}/${v.p95}`;
  console.log(
    `  steps p50/p95 ms: ${[
      step("QUEUED → released", steps.queuedToReleased),
      step("released → SIGNED", steps.releasedToSigned),
      step("SIGNED → BROADCASTING", steps.signedToBroadcasting),
      step("BROADCASTING → CONFIRMING", steps.broadcastingToConfirming),
      step("CONFIRMING → COMPLETED", steps.confirmingToCompleted),
    ].join(", ")}`,
  );
  console.log(
    `  a nonce slot held (release → CONFIRMING) p50 ${steps.holdingMs.p50} ms, p95 ${steps.holdingMs.p95} ms; ${steps.meanHolding} held on average of ${run.nonceWindow}; a full window allows ${steps.fullWindowPerSecond} transfers/s`,
  );
  console.log(`  create → COMPLETED: p50 ${run.createToCompletedMs.p50} ms, p95 ${run.createToCompletedMs.p95} ms`);
  console.log(
    `  CPU ms per completed transfer: ${Object.entries(run.cpuMsPerCompleted)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}; the service's (web + daemon + PostgreSQL) ${run.serviceCpuMsPerCompleted.total}`,
  );
  console.log(
    `  jobs per transfer: ${Object.entries(run.jobsPerTransfer)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  console.log(`  signer serve: ${run.serveDecisions.signed} signed, ${run.serveDecisions.rejected} rejected`);
  console.log(
    `  database: ${run.observed.database.xactPerSecond} xact/s (open ${run.observed.database.meanTransactionOpenMs} ms each on average); waits ${JSON.stringify(run.observed.database.waitShares)}`,
  );
}

function printRatios(window: RunResult, baseline: RunResult) {
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? round(a / b, 2) : null);
  console.log(
    `\nwindow ${window.nonceWindow} ÷ window 1, same command: completed/s sustained ×${ratio(window.rates.sustainedPerSecond, baseline.rates.sustainedPerSecond)}, end to end ×${ratio(window.rates.endToEndPerSecond, baseline.rates.endToEndPerSecond)}; signature → BROADCASTING p50 ×${ratio(window.signedToBroadcastingMs.p50, baseline.signedToBroadcastingMs.p50)}; service CPU per completed transfer ×${ratio(window.serviceCpuMsPerCompleted.total, baseline.serviceCpuMsPerCompleted.total)}`,
  );
}

function printAgainstPrevious(run: RunResult, previous: RunResult) {
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? round(a / b, 2) : null);
  console.log(
    `\nthis checkout ÷ ${previous.checkout}, window ${run.nonceWindow}, same command: completed/s sustained ×${ratio(run.rates.sustainedPerSecond, previous.rates.sustainedPerSecond)}, end to end ×${ratio(run.rates.endToEndPerSecond, previous.rates.endToEndPerSecond)}; signature → BROADCASTING p50 ×${ratio(run.signedToBroadcastingMs.p50, previous.signedToBroadcastingMs.p50)}; a slot held p50 ×${ratio(run.window.holdingMs.p50, previous.window.holdingMs.p50)}; service CPU per completed transfer ×${ratio(run.serviceCpuMsPerCompleted.total, previous.serviceCpuMsPerCompleted.total)}`,
  );
}

const variants: Variant[] = [
  ...(BASELINE_CHECKOUT ? [{ label: "previous", nonceWindow: WINDOW, transfers: TRANSFERS, checkout: BASELINE_CHECKOUT }] : []),
  { label: "window", nonceWindow: WINDOW, transfers: TRANSFERS },
  ...(BASELINE_TRANSFERS > 0 ? [{ label: "baseline", nonceWindow: 1, transfers: BASELINE_TRANSFERS }] : []),
];
const results = {
  benchmark: "one-wallet",
  at: new Date().toISOString(),
  config: {
    transfers: TRANSFERS,
    baselineTransfers: BASELINE_TRANSFERS,
    nonceWindow: WINDOW,
    servePollMs: POLL_MS,
    creators: CREATORS,
    blockTimeMs: BLOCK_TIME_MS,
  },
  machineAtStart: machine(),
  runs: [] as (RunResult | { label: string; error: string })[],
};
let failed = false;
for (const variant of variants) {
  try {
    const run = await runOneWallet(variant);
    results.runs.push(run);
    printRun(run);
    if (!run.complete) failed = true;
  } catch (error) {
    failed = true;
    log(`${variant.label} failed: ${(error as Error).stack ?? String(error)}`);
    results.runs.push({ label: variant.label, error: (error as Error).message });
  }
}
const measuredRuns = results.runs.filter((r): r is RunResult => "rates" in r);
const window = measuredRuns.find((r) => r.label === "window");
const baseline = measuredRuns.find((r) => r.label === "baseline");
const previous = measuredRuns.find((r) => r.label === "previous");
if (window && baseline) printRatios(window, baseline);
if (window && previous) printAgainstPrevious(window, previous);
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const file = new URL(`./results/one-wallet-${Date.now()}.json`, import.meta.url);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`results: ${file.pathname}`);
process.exitCode = failed ? 1 : 0;
