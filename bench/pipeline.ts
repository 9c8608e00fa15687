/**
 * The transfer pipeline under load (issue 16 §1): BENCH_TRANSFERS transfers (1,000) from
 * BENCH_SOURCES wallets (20), create → COMPLETED, with the web server, the daemon(s) and the
 * devnet (1 s blocks) each in its own process as `./qc start` runs them, and the signing done by
 * the reference signer's library (`@qc/signer`: read the pending transfer, rebuild and compare
 * its signing request, sign, submit) as fast as it can. Everything on loopback.
 *
 *   ./qc pnpm --filter @qc/bench pipeline                  # 1,000 transfers, 20 sources, 1 daemon
 *   ./qc pnpm --filter @qc/bench scaling                   # the same with 1, 2 and 3 daemons
 *   BENCH_TRANSFERS=200 BENCH_DAEMONS=1,3 ./qc exec tsx bench/pipeline.ts
 *
 * Reports, per run: total time and transfers/s; p50/p95 of each step from the status-history
 * rows (create → PENDING_SIGNATURE, signature → BROADCASTING, BROADCASTING → CONFIRMING,
 * CONFIRMING → COMPLETED) and end to end; and where the time went: CPU of each process, the
 * database's counters and its sessions' waits (sampled), verifications done, the chain's block
 * time and transactions per block. Beside them, measured in the same command: the raw
 * ML-DSA-87 verify rate, on one thread and on the worker-thread pool (`createVerifyPool`).
 *
 * The nonce design holds one transfer per source wallet between release and broadcast (the next
 * waits QUEUED until the one ahead is broadcast), so BENCH_SOURCES bounds the concurrency: the
 * rate cannot pass sources ÷ (one release → sign → broadcast cycle of a source).
 *
 * Knobs: BENCH_TRANSFERS, BENCH_SOURCES, BENCH_DAEMONS (comma-separated daemon counts, one run
 * each on a fresh database), BENCH_BASELINE=<another checkout> (e.g. `git archive HEAD` unpacked,
 * node_modules linked: its web server and daemon, built by its own scripts/bundle.ts, run first,
 * then this checkout's, BENCH_ROUNDS times (1), each on a fresh database; the report ends with this
 * checkout ÷ the baseline's throughput and service CPU per transfer, measured in the same minutes), BENCH_DEADLINE_SECONDS (per run, from the first create; default
 * 600), BENCH_VERIFY_SECONDS (3), BENCH_SEED (the source keys' seeds; printed), BENCH_CPU_PROF=<dir>
 * (a V8 CPU profile of each run's daemons, written under <dir>/<run> when they stop). A database from
 * DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL per run. SIGINT/SIGTERM stop
 * every process it started. Writes bench/results/pipeline-<time>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createDatabase, eq, schema, sql } from "@qc/db";
import { createServiceClient, readTransfer, signerApi, signTransfer, verifySigningRequest, type Asset, type StoredKey } from "@qc/signer";
import { benchDatabase } from "./database";
import { machine, startObserver, transactionsPerBlock, watchBlocks } from "./pipeline-observe";
import { printBaselineRatios, printRun, printVerifyRates, runFigures, type RunResult } from "./pipeline-report";
import { prepare, setUpSources, waitForCompletion, type Source } from "./pipeline-setup";
import { startPipelineStack, webClient } from "./pipeline-stack";
import { analyseHistory, type HistoryRow } from "./pipeline-steps";
import { measureVerifyRates, type VerifyRates } from "./pipeline-verify-rate";

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 1000);
const SOURCES = Math.min(Number(process.env.BENCH_SOURCES ?? 20), TRANSFERS);
const DAEMON_COUNTS = (process.env.BENCH_DAEMONS ?? "1").split(",").map((n) => Number(n.trim()));
const RUN_SECONDS = Number(process.env.BENCH_DEADLINE_SECONDS ?? 600);
const SETUP_SECONDS = 240;
const VERIFY_SECONDS = Number(process.env.BENCH_VERIFY_SECONDS ?? 3);
const SEED = process.env.BENCH_SEED ?? "1";
const BASELINE = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF || undefined;
const BLOCK_TIME_MS = 1000;
const DESTINATION = `0x${"00".repeat(18)}b0b0`;

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Whatever fails outside an awaited path must still stop the servers and the embedded
// PostgreSQL: the signal path (stop-on-signal.ts) does exactly that, then exits.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error: unknown) => {
    log(`${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.kill(process.pid, "SIGTERM");
  });
}

if (
  ![TRANSFERS, SOURCES, RUN_SECONDS, VERIFY_SECONDS, ROUNDS].every((n) => Number.isInteger(n) && n > 0) ||
  DAEMON_COUNTS.some((n) => !Number.isInteger(n) || n < 1 || n > 8)
) {
  throw new Error(
    "BENCH_TRANSFERS, BENCH_SOURCES, BENCH_DEADLINE_SECONDS, BENCH_VERIFY_SECONDS, BENCH_ROUNDS must be positive integers; " +
      "BENCH_DAEMONS counts from 1 to 8",
  );
}

/** One creator per source, in order, so each source's transfers are created in nonce order. */
async function createTransfers(
  web: ReturnType<typeof webClient>,
  sources: Source[],
  assetId: string,
  stopped: () => boolean,
): Promise<string[]> {
  const ids: string[] = [];
  await Promise.all(
    sources.map(async (source, s) => {
      for (let i = s; i < TRANSFERS && !stopped(); i += SOURCES) {
        const res = await web<{ id: string }>(
          "POST",
          "/v1/transactions",
          { networkCode: "QUANTUM_SANDBOX", sourceWalletId: source.walletId, destinationAddress: DESTINATION, assetId, amount: "1000" },
          { "x-idempotency-key": `bench-${SEED}-${i}` },
        );
        if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.json)}`);
        ids.push(res.json.id);
      }
    }),
  );
  return ids;
}

/**
 * The signer, as fast as it can: list what awaits a signature, and for each new one read it,
 * rebuild and compare its signing request, sign it and submit the signature (submissions run
 * concurrently; the listing goes on meanwhile).
 */
async function signEverything(params: { signer: ReturnType<typeof signerApi>; keys: StoredKey[]; assets: Asset[]; deadline: number }) {
  const byAddress = new Map(params.keys.map((k) => [k.address, k]));
  const submittedAt = new Map<string, number>();
  const postMs: number[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: Error | undefined;
  while (submittedAt.size < TRANSFERS && !failure) {
    if (Date.now() > params.deadline) break;
    const { transactions } = await params.signer.pendingTransactions();
    const fresh = transactions.filter((tx) => !submittedAt.has(String(tx.id)));
    for (const transaction of fresh) {
      const verified = verifySigningRequest(
        readTransfer({ transaction, assets: params.assets, findKey: (address) => byAddress.get(address) }),
      );
      const signature = signTransfer(verified);
      const started = Date.now();
      submittedAt.set(verified.id, started);
      const submission = params.signer.submitSignature(verified.id, signature).then(
        () => void postMs.push(Date.now() - started),
        (error: Error) => void (failure ??= error),
      );
      inFlight.add(submission);
      void submission.finally(() => inFlight.delete(submission));
    }
    if (fresh.length === 0) await sleep(20);
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
  return { submittedAt, postMs };
}

async function runPipeline(daemons: number, verify: VerifyRates, variant: { label: string; checkout?: string }) {
  const bench = await benchDatabase(`qc-bench-pipeline-${daemons}d`);
  const { database, pepper, tenantId, apiKey } = await prepare(bench.url);
  let stack: Awaited<ReturnType<typeof startPipelineStack>> | undefined;
  try {
    log(`${variant.label}, ${daemons} daemon(s): starting the devnet, the web server and the daemon(s)…`);
    stack = await startPipelineStack({
      ...(variant.checkout ? { checkout: variant.checkout } : {}),
      databaseUrl: bench.url,
      work: bench.work,
      apiKeyPepper: pepper,
      daemons,
      blockTimeMs: BLOCK_TIME_MS,
      deadline: Date.now() + SETUP_SECONDS * 1000,
      daemonsReady: async (n) => (await database.db.select().from(schema.daemonHeartbeats)).length >= n,
      ...(CPU_PROF_DIR ? { daemonNodeFlags: ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF_DIR}/${variant.label.replaceAll(" ", "-")}`] } : {}),
    });
    const web = webClient(stack.baseUrl, stack.ca, `Bearer ${apiKey}`);
    const signer = signerApi(createServiceClient({ url: stack.baseUrl, apiKey, ca: stack.ca, timeoutMs: 60_000 }));
    log(`setting up ${SOURCES} source wallets (seed ${SEED}; not measured)…`);
    const { keys, sources, assets, native } = await setUpSources({
      web,
      signer,
      tenantId,
      rpcUrl: stack.rpcUrl,
      sources: SOURCES,
      seed: SEED,
    });

    log(`${TRANSFERS} transfers from ${SOURCES} sources: create → sign → COMPLETED…`);
    const observer = startObserver({
      databaseUrl: bench.url,
      rpcUrl: stack.rpcUrl,
      processes: [{ name: "bench (signer, load)", pid: process.pid }, ...stack.processes.map((p) => ({ name: p.name, pid: p.child.pid! }))],
    });
    const blocks = watchBlocks(stack.rpcUrl);
    const startedAt = Date.now();
    const deadline = startedAt + RUN_SECONDS * 1000;
    const [ids, signed] = await Promise.all([
      createTransfers(web, sources, native.id, () => Date.now() > deadline),
      signEverything({ signer, keys, assets, deadline }),
    ]);
    const complete = await waitForCompletion(database, tenantId, TRANSFERS, deadline, log);
    const wallSeconds = (Date.now() - startedAt) / 1000;
    const blockIntervals = await blocks.stop();
    const observed = await observer.stop();
    const perBlock = await transactionsPerBlock(stack.rpcUrl, observed.devnet.headAtStart + 1, observed.devnet.headAfter);

    const history: HistoryRow[] = await database.db
      .select({
        id: schema.transactionStatusHistory.transactionId,
        to: schema.transactionStatusHistory.toStatus,
        at: schema.transactionStatusHistory.createdAt,
      })
      .from(schema.transactionStatusHistory)
      .where(eq(schema.transactionStatusHistory.tenantId, tenantId));
    const nonces = await database.db
      .select({ id: schema.transactions.id, sourceWalletId: schema.transactions.sourceWalletId })
      .from(schema.transactions)
      .where(eq(schema.transactions.tenantId, tenantId));
    const steps = analyseHistory(history, new Map(nonces.map((n) => [n.id, n.sourceWalletId ?? ""])), signed.submittedAt);

    return runFigures({
      label: variant.label,
      daemons,
      complete,
      created: ids.length,
      signed,
      steps,
      wallSeconds,
      blockIntervals,
      perBlock,
      observed,
      verify,
    });
  } finally {
    await stack?.stop();
    await database.close();
    await bench.dispose();
    if (process.env.DATABASE_URL) {
      // On a shared server, leave no benchmark database behind.
      const admin = createDatabase({ url: process.env.DATABASE_URL });
      await admin.db
        .execute(sql.raw(`drop database if exists "${new URL(bench.url).pathname.slice(1)}" with (force)`))
        .catch(() => undefined);
      await admin.close();
    }
  }
}

const results: {
  benchmark: string;
  at: string;
  config: Record<string, unknown>;
  machineAtStart: ReturnType<typeof machine>;
  verify?: VerifyRates;
  runs: (RunResult | { daemons: number; error: string })[];
} = {
  benchmark: "pipeline",
  at: new Date().toISOString(),
  config: {
    transfers: TRANSFERS,
    sources: SOURCES,
    daemons: DAEMON_COUNTS,
    blockTimeMs: BLOCK_TIME_MS,
    requiredConfirmations: 2,
    runDeadlineSeconds: RUN_SECONDS,
    seed: SEED,
    baseline: BASELINE ?? null,
    rounds: ROUNDS,
  },
  machineAtStart: machine(),
  runs: [],
};
log(`seed ${SEED}; load ${results.machineAtStart.loadavg.join(" ")}; measuring the raw ML-DSA-87 verify rate (${VERIFY_SECONDS} s each)…`);
results.verify = await measureVerifyRates(VERIFY_SECONDS);
printVerifyRates(results.verify);
let failed = false;
const variants: { label: string; checkout?: string }[] = BASELINE
  ? [{ label: "baseline", checkout: BASELINE }, { label: "this checkout" }]
  : [{ label: "this checkout" }];
for (const daemons of DAEMON_COUNTS) {
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      try {
        const run = await runPipeline(daemons, results.verify, variant);
        results.runs.push(run);
        printRun(run, TRANSFERS);
        if (!run.complete) failed = true;
      } catch (error) {
        failed = true;
        log(`${variant.label}, ${daemons} daemon(s) failed: ${(error as Error).stack ?? String(error)}`);
        results.runs.push({ daemons, error: (error as Error).message });
      }
    }
  }
}
if (BASELINE) printBaselineRatios(results.runs.filter((r): r is RunResult => "label" in r));
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const file = new URL(`./results/pipeline-${Date.now()}.json`, import.meta.url);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`results: ${file.pathname}`);
process.exitCode = failed ? 1 : 0;
