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
 * each on a fresh database), BENCH_DEADLINE_SECONDS (per run, from the first create; default
 * 600), BENCH_VERIFY_SECONDS (3), BENCH_SEED (the source keys' seeds; printed). A database from
 * DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL per run. SIGINT/SIGTERM stop
 * every process it started. Writes bench/results/pipeline-<time>.json.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import {
  createVerifyPool,
  generateKeyPair,
  signOwnershipProof,
  signQuantumSigningHash,
  verifyQuantumSigningHash,
  TRANSACTION_SIGNATURE_CONTEXT,
} from "@qc/chain";
import { createApiKey, ENDED_WITHOUT_TRANSFER } from "@qc/core";
import { createDatabase, eq, schema, sql } from "@qc/db";
import {
  createServiceClient,
  keyFromSeed,
  readTransfer,
  secretKeyOf,
  signerApi,
  signTransfer,
  verifySigningRequest,
  type Asset,
  type StoredKey,
} from "@qc/signer";
import { benchDatabase } from "./database";
import { machine, startObserver, transactionsPerBlock, watchBlocks } from "./pipeline-observe";
import { rpc, startPipelineStack, webClient } from "./pipeline-stack";
import { analyseHistory, summary, type HistoryRow } from "./pipeline-steps";

type Address = `0x${string}`;

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 1000);
const SOURCES = Math.min(Number(process.env.BENCH_SOURCES ?? 20), TRANSFERS);
const DAEMON_COUNTS = (process.env.BENCH_DAEMONS ?? "1").split(",").map((n) => Number(n.trim()));
const RUN_SECONDS = Number(process.env.BENCH_DEADLINE_SECONDS ?? 600);
const SETUP_SECONDS = 240;
const VERIFY_SECONDS = Number(process.env.BENCH_VERIFY_SECONDS ?? 3);
const SEED = process.env.BENCH_SEED ?? "1";
const BLOCK_TIME_MS = 1000;
const Q = 10n ** 18n;
const DESTINATION = `0x${"00".repeat(18)}b0b0`;

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

// Whatever fails outside an awaited path must still stop the servers and the embedded
// PostgreSQL: the signal path (stop-on-signal.ts) does exactly that, then exits.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error: unknown) => {
    log(`${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.kill(process.pid, "SIGTERM");
  });
}

if (
  ![TRANSFERS, SOURCES, RUN_SECONDS, VERIFY_SECONDS].every((n) => Number.isInteger(n) && n > 0) ||
  DAEMON_COUNTS.some((n) => !Number.isInteger(n) || n < 1 || n > 8)
) {
  throw new Error(
    "BENCH_TRANSFERS, BENCH_SOURCES, BENCH_DEADLINE_SECONDS, BENCH_VERIFY_SECONDS must be positive integers; " +
      "BENCH_DAEMONS counts from 1 to 8",
  );
}

/** Verifications per second of `pool` on one request, `pool.size × 4` in flight. */
async function poolRate(
  pool: ReturnType<typeof createVerifyPool>,
  request: Parameters<ReturnType<typeof createVerifyPool>["verify"]>[0],
): Promise<number> {
  await Promise.all(Array.from({ length: pool.size }, () => pool.verify(request))); // threads started
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: pool.size * 4 }, async () => {
      while (performance.now() - started < VERIFY_SECONDS * 1000) {
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
 * Raw ML-DSA-87 verification on one signature: `verifyQuantumSigningHash` inline on this
 * thread, the verify pool with one thread, and the pool at its default size (one per core).
 * The pool uses whatever implementation QC_VERIFY_IMPL selects; inline is @qc/chain's own.
 */
async function measureVerifyRates() {
  const key = generateKeyPair();
  const signingHash = `0x${"5a".repeat(32)}` as const;
  const signature = signQuantumSigningHash({ signingHash, secretKey: key.secretKey });
  const request = { publicKey: key.publicKey, signature, signingHash, context: TRANSACTION_SIGNATURE_CONTEXT };

  const started = performance.now();
  let inline = 0;
  while (performance.now() - started < VERIFY_SECONDS * 1000) {
    if (!verifyQuantumSigningHash({ signingHash, signature, publicKey: key.publicKey }))
      throw new Error("the reference signature does not verify");
    inline += 1;
  }
  const oneThreadPerSecond = inline / ((performance.now() - started) / 1000);
  const poolOneThreadPerSecond = await poolRate(createVerifyPool({ size: 1 }), request);
  const pool = createVerifyPool();
  const poolPerSecond = await poolRate(pool, request);
  return {
    seconds: VERIFY_SECONDS,
    poolImplementation: process.env.QC_VERIFY_IMPL ?? "auto",
    oneThreadPerSecond: round(oneThreadPerSecond),
    poolOneThreadPerSecond: round(poolOneThreadPerSecond),
    poolThreads: pool.size,
    poolPerSecond: round(poolPerSecond),
    poolOverPoolOneThread: round(poolPerSecond / poolOneThreadPerSecond, 2),
  };
}

/** The source keys, from BENCH_SEED so that a re-run uses the same ones. */
function sourceKeys(tenantId: string): StoredKey[] {
  return Array.from({ length: SOURCES }, (_, i) => {
    const seed = createHash("sha256").update(`qc-bench-pipeline:${SEED}:${i}`).digest();
    const material = keyFromSeed(new Uint8Array(seed));
    const now = new Date().toISOString();
    return {
      ...material,
      origin: "IMPORTED",
      status: "ENROLLED",
      tenantId,
      createdAt: now,
      acceptedAt: now,
      vaultId: null,
      walletId: null,
      label: null,
    };
  });
}

type Source = { walletId: string; address: Address };

/** Tenant, API key, enrolled keys, funded wallets: not measured. */
async function prepare(databaseUrl: string) {
  const database = createDatabase({ url: databaseUrl, applicationName: "qc-bench" });
  const pepper = randomBytes(32);
  const [tenant] = await database.db.insert(schema.tenants).values({ name: "Bench", status: "VERIFIED" }).returning();
  const key = await createApiKey({ db: database.db, now: () => new Date() }, pepper, {
    tenantId: tenant!.id,
    userId: null,
    label: "bench",
  });
  return { database, pepper, tenantId: tenant!.id, apiKey: `${key.keyId}:${key.secret}` };
}

async function setUpSources(params: {
  web: ReturnType<typeof webClient>;
  signer: ReturnType<typeof signerApi>;
  tenantId: string;
  rpcUrl: string;
}) {
  const expect = async <T>(pending: Promise<{ status: number; json: T }>, status: number, what: string): Promise<T> => {
    const res = await pending;
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const keys = sourceKeys(params.tenantId);
  for (let i = 0; i < keys.length; i += 25) {
    await params.signer.enrollKeys(
      keys.slice(i, i + 25).map((k) => {
        const secretKey = secretKeyOf(k);
        try {
          return { publicKey: k.publicKey, proof: signOwnershipProof({ tenantId: params.tenantId, address: k.address, secretKey }) };
        } finally {
          secretKey.fill(0);
        }
      }),
    );
  }
  const vault = await expect(
    params.web<{ id: string }>("POST", "/v1/vault/accounts", { name: "bench", networkCode: "QUANTUM_SANDBOX" }),
    201,
    "vault",
  );
  const sources: Source[] = [];
  for (let i = 0; i < SOURCES; i++) {
    const wallet = await expect(
      params.web<{ id: string; address: Address }>("POST", `/v1/vault/accounts/${vault.id}/wallets/generate`, {}),
      201,
      "wallet",
    );
    await rpc(params.rpcUrl, "devnet_fund", [wallet.address, `0x${(1000n * Q).toString(16)}`]);
    sources.push({ walletId: wallet.id, address: wallet.address });
  }
  const assets = await params.signer.assets("QUANTUM_SANDBOX");
  const native = assets.find((a) => a.kind === "NATIVE");
  if (!native) throw new Error("no native asset on QUANTUM_SANDBOX");
  return { keys, sources, assets, native };
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

async function waitForCompletion(database: ReturnType<typeof createDatabase>, tenantId: string, deadline: number): Promise<boolean> {
  for (;;) {
    const rows = await database.db
      .select({ status: schema.transactions.status, n: sql<number>`count(*)::int` })
      .from(schema.transactions)
      .where(eq(schema.transactions.tenantId, tenantId))
      .groupBy(schema.transactions.status);
    const bad = rows.filter((r) => (ENDED_WITHOUT_TRANSFER as readonly string[]).includes(r.status));
    if (bad.length) throw new Error(`transfers ended badly: ${JSON.stringify(bad)}`);
    if ((rows.find((r) => r.status === "COMPLETED")?.n ?? 0) >= TRANSFERS) return true;
    if (Date.now() > deadline) {
      log(`deadline: ${JSON.stringify(rows)}`);
      return false;
    }
    await sleep(500);
  }
}

async function runPipeline(daemons: number, verify: Awaited<ReturnType<typeof measureVerifyRates>>) {
  const bench = await benchDatabase(`qc-bench-pipeline-${daemons}d`);
  const { database, pepper, tenantId, apiKey } = await prepare(bench.url);
  let stack: Awaited<ReturnType<typeof startPipelineStack>> | undefined;
  try {
    log(`run with ${daemons} daemon(s): starting the devnet, the web server and the daemon(s)…`);
    stack = await startPipelineStack({
      databaseUrl: bench.url,
      work: bench.work,
      apiKeyPepper: pepper,
      daemons,
      blockTimeMs: BLOCK_TIME_MS,
      deadline: Date.now() + SETUP_SECONDS * 1000,
      daemonsReady: async (n) => (await database.db.select().from(schema.daemonHeartbeats)).length >= n,
    });
    const web = webClient(stack.baseUrl, stack.ca, `Bearer ${apiKey}`);
    const signer = signerApi(createServiceClient({ url: stack.baseUrl, apiKey, ca: stack.ca, timeoutMs: 60_000 }));
    log(`setting up ${SOURCES} source wallets (seed ${SEED}; not measured)…`);
    const { keys, sources, assets, native } = await setUpSources({ web, signer, tenantId, rpcUrl: stack.rpcUrl });

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
    const complete = await waitForCompletion(database, tenantId, deadline);
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

    const completed = steps.completed;
    const verifies = {
      web: steps.counts.signed,
      daemons: steps.counts.broadcast,
      devnet: observed.devnet.metrics.signatureChecks ?? 0,
      signer: signed.submittedAt.size,
    };
    const totalVerifies = verifies.web + verifies.daemons + verifies.devnet + verifies.signer;
    return {
      daemons,
      complete,
      transfers: { created: ids.length, signed: signed.submittedAt.size, completed },
      totalSeconds: steps.totalSeconds,
      wallSeconds: round(wallSeconds, 2),
      transfersPerSecond: round(completed / steps.totalSeconds, 2),
      stepsMs: steps.steps,
      signaturePostMs: summary(signed.postMs),
      perSource: steps.perSource,
      blockTimeMs: {
        mean: round(blockIntervals.reduce((a, b) => a + b, 0) / Math.max(1, blockIntervals.length)),
        ...summary(blockIntervals),
        blocks: blockIntervals.length,
      },
      transactionsPerBlock: {
        ...summary(perBlock),
        mean: round(perBlock.reduce((a, b) => a + b, 0) / Math.max(1, perBlock.length), 2),
        blocks: perBlock.length,
      },
      verify: {
        done: verifies,
        donePerSecond: round(totalVerifies / observed.seconds),
        /** Share of one core's verify rate (measured above) the pipeline's verifications used. */
        shareOfOneThread: round(totalVerifies / observed.seconds / verify.oneThreadPerSecond, 3),
        devnetMsPerSignatureCheck: verifies.devnet ? round((observed.devnet.metrics.signatureMs ?? 0) / verifies.devnet, 2) : null,
      },
      observed,
    };
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

type RunResult = Awaited<ReturnType<typeof runPipeline>>;

function printRun(run: RunResult) {
  const s = run.stepsMs;
  const row = (name: string, v: { p50: number; p95: number } | undefined) =>
    console.log(`  ${name.padEnd(40)} p50 ${String(v?.p50 ?? "—").padStart(6)} ms   p95 ${String(v?.p95 ?? "—").padStart(6)} ms`);
  console.log(
    `\n${run.daemons} daemon(s): ${run.transfers.completed}/${TRANSFERS} COMPLETED${run.complete ? "" : " (DEADLINE PASSED)"} in ${run.totalSeconds} s → ${run.transfersPerSecond} transfers/s  (load ${run.observed.machine.loadavg.join(" ")}, ${run.observed.machine.otherBusyProcesses} other busy processes)`,
  );
  row("create → PENDING_SIGNATURE (all)", s.createToPendingSignature);
  row("  first of each source (no queue)", s.createToPendingSignatureFirst);
  row("  released from QUEUED: ahead BROADCASTING →", s.releaseAfterPredecessorBroadcast);
  row("PENDING_SIGNATURE → SIGNED (signer)", s.pendingSignatureToSigned);
  row("signature (SIGNED) → BROADCASTING", s.signedToBroadcasting);
  row("signature POST → BROADCASTING (bench clock)", s.signaturePostToBroadcasting);
  row("BROADCASTING → CONFIRMING", s.broadcastingToConfirming);
  row("CONFIRMING → COMPLETED", s.confirmingToCompleted);
  row("end to end (SUBMITTED → COMPLETED)", s.endToEnd);
  row("a source's cycle (BROADCASTING → next)", run.perSource.cycleMs);
  row("devnet block time", run.blockTimeMs);
  console.log(
    `  transactions per block: mean ${run.transactionsPerBlock.mean}, p95 ${run.transactionsPerBlock.p95}, max ${run.transactionsPerBlock.max}`,
  );
  console.log(
    `  verifications: ${run.verify.donePerSecond}/s done (${JSON.stringify(run.verify.done)}), ${run.verify.shareOfOneThread} of one thread's rate`,
  );
  console.log(
    `  CPU (cores used): ${Object.entries(run.observed.cpu)
      .map(([k, v]) => `${k} ${v.coresUsed}`)
      .join(", ")}; machine busy ${Math.round(run.observed.machine.cpuBusyShare * 100)} %`,
  );
  console.log(
    `  database: ${run.observed.database.xactPerSecond} xact/s, ${run.observed.database.meanActiveSessions} sessions working on average; waits ${JSON.stringify(run.observed.database.waitShares)}`,
  );
}

const results: {
  benchmark: string;
  at: string;
  config: Record<string, unknown>;
  machineAtStart: ReturnType<typeof machine>;
  verify?: Awaited<ReturnType<typeof measureVerifyRates>>;
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
  },
  machineAtStart: machine(),
  runs: [],
};
log(`seed ${SEED}; load ${results.machineAtStart.loadavg.join(" ")}; measuring the raw ML-DSA-87 verify rate (${VERIFY_SECONDS} s each)…`);
results.verify = await measureVerifyRates();
console.log(
  `ML-DSA-87 verify: inline ${results.verify.oneThreadPerSecond}/s; pool (QC_VERIFY_IMPL=${results.verify.poolImplementation}) 1 thread ${results.verify.poolOneThreadPerSecond}/s, ${results.verify.poolThreads} threads ${results.verify.poolPerSecond}/s (${results.verify.poolOverPoolOneThread}×)`,
);
let failed = false;
for (const daemons of DAEMON_COUNTS) {
  try {
    const run = await runPipeline(daemons, results.verify);
    results.runs.push(run);
    printRun(run);
    if (!run.complete) failed = true;
  } catch (error) {
    failed = true;
    log(`run with ${daemons} daemon(s) failed: ${(error as Error).stack ?? String(error)}`);
    results.runs.push({ daemons, error: (error as Error).message });
  }
}
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
const file = new URL(`./results/pipeline-${Date.now()}.json`, import.meta.url);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`results: ${file.pathname}`);
process.exitCode = failed ? 1 : 0;
