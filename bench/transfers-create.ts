/**
 * Create throughput (issue 10): POST /v1/transactions through the real web process (TLS, guards,
 * API-key auth, rate limit, idempotency key, intent checks, one database transaction writing the
 * row, its history, audit row, event and check job) beside four bare node:https handlers on the
 * same database, measured in the same run at a fixed concurrency, loopback only: one doing a
 * single INSERT of the same body, and one doing the create's database round trips with raw `pg`
 * and nothing else (the same number of statements, in the same order: begin, advisory lock + key
 * read + tenant status, a wallet read, the INSERT, a job insert, the stored answer, commit).
 * A third does the second's statements in the web's four round trips (pipelined: BEGIN with
 * the lock statement, the row with the job, the answer with COMMIT).
 * A fourth (bench/create-replay.ts) sends the create's own statements, as the web process sent
 * them for a create counted below (text, name, values, round trips), again per request with that
 * request's ids, key and time: the same database work exactly, without the framework.
 * Create ÷ the first is issue 15's original goal; create ÷ the fourth is issue 30's (≥ 0.50: the
 * create ÷ "the same statements on raw pg"); the second and third are the create's round trips
 * with stand-in statements on three small tables, kept for the history of the figures. Every request carries a fresh
 * X-Idempotency-Key; rate limits are raised for the run. No daemon runs: the check jobs stay
 * queued, so only creation is measured. Before the load, the statements the web process sends
 * per create, and the database round trips they take, are counted over sequential creates
 * (bench/statement-counter.ts) and listed; during the load, each server's CPU time per request
 * (user + system, /proc).
 *
 *   ./qc exec tsx bench/transfers-create.ts                 # 10 s per target, 20 connections
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=10 ./qc exec tsx bench/transfers-create.ts
 *   BENCH_CPU_PROF=/tmp/prof ./qc exec tsx bench/transfers-create.ts   # V8 CPU profile of the web process
 *   BENCH_POOL_MAX=20 ./qc exec tsx bench/transfers-create.ts           # database connections per server (default 10)
 *   BENCH_ROUNDS=3 ./qc exec tsx bench/transfers-create.ts              # the five targets 3 times; ratios are medians (≤ 5)
 *   BENCH_WARMUP_SECONDS=0 …     # unmeasured load before each server's first measured run (default 3, ≤ 10)
 *
 * The web server runs compiled, as production runs it (bench/web-server.ts's compiledAppArgs:
 * `node --enable-source-maps apps/web/dist/server.js`), with the statement counter preloaded
 * (bench/create-statement-count.ts). The bare baselines (bench/create-bare-servers.ts, bench/create-replay.ts, run
 * as this file with a flag) stay on tsx: they are TypeScript importing @qc/db's sources, and
 * scripts/bundle.ts builds only the three apps; tsx only transpiles them as they load.
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL. Bounded: at most
 * 5 × BENCH_SECONDS (≤ 25 s each) × BENCH_ROUNDS (≤ 5) of load, 5 warm-ups (one per server), and
 * start-up. Writes bench/results/transfers-create-<time>.json.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createDatabase, sql } from "@qc/db";
import { apiPoster, benchTenant, benchTransfer, registerSourceWallet } from "./api-setup";
import {
  BARE_FLAG,
  PIPELINED_FLAG,
  POOL_MAX,
  ROUND_TRIPS,
  ROUND_TRIPS_FLAG,
  runBareInsertServer,
  runBareRoundTripsServer,
} from "./create-bare-servers";
import { REPLAY_FLAG, replayTemplate, runReplayServer } from "./create-replay";
import { createRatios, printCreateReport, type CreateRound, type Measured, type Stored } from "./create-report";
import { countStatementsPerCreate, createOnce, statementCounterFlags } from "./create-statement-count";
import { benchDatabase, freePort } from "./database";
import { databaseCpuMsBetween, databaseCpuSnapshot, processCpuMs } from "./proc-cpu";
import { startNode, TSX } from "./start-node";
import { stopChild } from "./stop-on-signal";
import { benchWebEnv, compiledAppArgs, loopbackCertificate } from "./web-server";

if (process.argv.includes(BARE_FLAG)) {
  await runBareInsertServer();
} else if (process.argv.includes(ROUND_TRIPS_FLAG)) {
  await runBareRoundTripsServer(process.argv.includes(PIPELINED_FLAG));
} else if (process.argv.includes(REPLAY_FLAG)) {
  await runReplayServer();
} else {
  await runBenchmark();
}

async function runBenchmark(): Promise<void> {
  const seconds = Math.min(Number(process.env.BENCH_SECONDS ?? 10), 25);
  const rounds = Math.min(Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1)), 5);
  const warmupSeconds = Math.min(Number(process.env.BENCH_WARMUP_SECONDS ?? 3), 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // loopback, our own self-signed certificate

  const cpuProfileDir = process.env.BENCH_CPU_PROF;
  const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const bench = await benchDatabase("qc-bench-transfers-create");
  progress("database migrated");
  const children: ChildProcess[] = [];
  try {
    const databaseUrl = bench.url;
    const pepper = randomBytes(32);
    const database = createDatabase({ url: databaseUrl });
    const { tenantId, authorization } = await benchTenant(database.db, pepper);
    await database.db.execute(
      sql`create table bench_transfers (id uuid primary key default gen_random_uuid(), body jsonb not null, created_at timestamptz not null default now())`,
    );
    // The round-trips baseline's stand-ins for the job queue and the stored answers.
    await database.db.execute(
      sql`create table bench_jobs (id uuid primary key default gen_random_uuid(), name text not null, data jsonb not null, created_at timestamptz not null default now())`,
    );
    await database.db.execute(
      sql`create table bench_keys (id uuid primary key default gen_random_uuid(), tenant_id uuid not null, key text not null unique, response_status integer, response_body json, created_at timestamptz not null default now())`,
    );

    progress("tenant and key created");
    const pems = await loopbackCertificate(bench.work);
    const [barePort, roundTripsPort, pipelinedPort, webHttps, webHttp] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const statementLog = join(bench.work, "statements.json");
    progress("starting the servers");
    /** A bare server: this file again, with its flags, then the database, its port, the certificate and `extra`. */
    const startBare = (flags: string[], port: number, extra: string[] = []) =>
      startNode(
        [
          ...TSX,
          "bench/transfers-create.ts",
          ...flags,
          databaseUrl,
          String(port),
          Buffer.from(pems.cert).toString("base64"),
          Buffer.from(pems.key).toString("base64"),
          ...extra,
        ],
        { readyWhen: /ready/ },
      );
    children.push(await startBare([BARE_FLAG], barePort));
    children.push(await startBare([ROUND_TRIPS_FLAG], roundTripsPort, [tenantId]));
    children.push(await startBare([ROUND_TRIPS_FLAG, PIPELINED_FLAG], pipelinedPort, [tenantId]));
    progress("bare servers listening");
    children.push(
      await startNode(
        [
          ...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : []),
          ...(await statementCounterFlags(bench.work)),
          ...(await compiledAppArgs("web")),
        ],
        {
          env: {
            BENCH_STATEMENT_LOG: statementLog,
            ...benchWebEnv({ databaseUrl, work: bench.work, httpsPort: webHttps, httpPort: webHttp, apiKeyPepper: pepper }),
            DB_POOL_MAX: String(POOL_MAX),
          },
          readyWhen: /web listening/,
        },
      ),
    );
    progress("web process listening");
    const base = `https://127.0.0.1:${webHttps}`;
    const post = apiPoster(base, authorization);
    // A registered source wallet, made through the API (ownership proof and all).
    const vault = await post("/v1/vault/accounts", { name: "bench vault", networkCode: "QUANTUM_SANDBOX" });
    const wallet = await registerSourceWallet(post, tenantId, vault.id);
    const body = JSON.stringify(benchTransfer(wallet.id));

    progress("source wallet registered; counting statements per create");
    const web = children[3]!;
    const statements = await countStatementsPerCreate(web, statementLog, () => createOnce(base, authorization, body));
    // The fourth baseline: the statements just counted, sent again per request from a bare server.
    const templateFile = join(bench.work, "replay-template.json");
    writeFileSync(templateFile, JSON.stringify(replayTemplate(statements.recorded)));
    const replayPort = await freePort();
    const replayServer = await startBare([REPLAY_FLAG], replayPort, [templateFile]);
    children.push(replayServer);

    progress("measuring");
    let sequence = 0;
    const run = (url: string, headers: Record<string, string>, withKey: boolean, duration = seconds) =>
      autocannon({
        url,
        connections,
        duration,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        requests: [
          {
            method: "POST",
            body,
            setupRequest: (request: Record<string, unknown>) =>
              withKey
                ? { ...request, headers: { ...(request.headers as Record<string, string>), "x-idempotency-key": `bench-${++sequence}` } }
                : request,
          },
        ] as never,
      });
    const summarize = (name: string, result: autocannon.Result) => {
      const statuses: Record<string, number> = {};
      for (const [code, value] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (value as { count: number }).count;
      return {
        name,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
        statuses,
      };
    };

    /** The load, and the CPU time the serving process spent per request meanwhile. */
    const warmed = new Set<ChildProcess>();
    const measure = async (
      name: string,
      server: ChildProcess,
      url: string,
      headers: Record<string, string>,
      withKey: boolean,
    ): Promise<Measured> => {
      // Unmeasured load first, once per process: its JIT warm, not its first seconds timed (the web
      // served only the counting creates before this).
      if (warmupSeconds > 0 && !warmed.has(server)) {
        await run(url, headers, withKey, warmupSeconds);
        warmed.add(server);
      }
      const cpuBefore = processCpuMs(server.pid);
      const databaseBefore = databaseCpuSnapshot();
      const result = await run(url, headers, withKey);
      const cpuAfter = processCpuMs(server.pid);
      const databaseCpuMs = databaseCpuMsBetween(databaseBefore, databaseCpuSnapshot());
      const requests = result.requests.total || 1;
      const cpuUsPerRequest = cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) * 1000) / requests : null;
      // PostgreSQL's CPU per request (every postgres process on the machine; /proc), beside the server's.
      return {
        ...summarize(name, result),
        serverCpuUsPerRequest: cpuUsPerRequest,
        databaseCpuUsPerRequest: databaseCpuMs !== null ? (databaseCpuMs * 1000) / requests : null,
      };
    };
    // BENCH_ROUNDS: the five targets again, in the same order, each round; ratios are medians.
    const perRound: CreateRound[] = [];
    for (let round = 0; round < rounds; round++) {
      if (rounds > 1) progress(`round ${round + 1} of ${rounds}`);
      perRound.push({
        bare: await measure("bare node:https, one INSERT", children[0]!, `https://127.0.0.1:${barePort}/`, {}, false),
        roundTrips: await measure(
          "bare node:https, the create's round trips",
          children[1]!,
          `https://127.0.0.1:${roundTripsPort}/`,
          {},
          true,
        ),
        pipelined: await measure(
          "bare node:https, the same in 4 round trips",
          children[2]!,
          `https://127.0.0.1:${pipelinedPort}/`,
          {},
          true,
        ),
        replay: await measure("bare node:https, the create's own statements", replayServer, `https://127.0.0.1:${replayPort}/`, {}, true),
        create: await measure("web POST /v1/transactions", web, `${base}/v1/transactions`, { authorization }, true),
      });
    }
    // One snapshot for the three counts, after the last in-flight request had time to commit:
    // one row, one check job and one stored 201 per accepted key.
    await new Promise((r) => setTimeout(r, 2000));
    const [{ stored: storedTransactions, jobs, keysByStatus, bareJobs, bareKeys }] = (
      await database.db.execute<{ stored: number; jobs: number; keysByStatus: string | null; bareJobs: number; bareKeys: number }>(sql`
        select (select count(*)::int from transactions) as stored,
               (select count(*)::int from pgboss.job where name = 'transfers.check') as jobs,
               (select json_object_agg(status, n)::text from (select coalesce(response_status::text, 'running') as status, count(*)::int as n
                  from idempotency_keys where tenant_id = ${tenantId} group by 1) k) as "keysByStatus",
               (select count(*)::int from bench_jobs) as "bareJobs",
               (select count(*)::int from bench_keys) as "bareKeys"`)
    ).rows as [{ stored: number; jobs: number; keysByStatus: string | null; bareJobs: number; bareKeys: number }];
    const stored: Stored = {
      stored: storedTransactions,
      jobs,
      idempotencyKeys: JSON.parse(keysByStatus ?? "{}") as Record<string, number>,
      bareJobs,
      bareKeys,
    };
    await database.close();

    // A ratio against a target that failed its requests measures the failure: refuse to report one
    // (a baseline answering 500s once read as a create 1.5× faster than its own round trips).
    const failed = perRound
      .flatMap((r) => [r.bare, r.roundTrips, r.pipelined, r.replay, r.create])
      .filter((r) => r.errors > 0 || Object.keys(r.statuses).some((code) => code !== "201"));
    if (failed.length > 0) {
      throw new Error(
        `every request must answer 201; ${failed.map((r) => `${r.name}: ${JSON.stringify(r.statuses)}, ${r.errors} errors`).join("; ")}`,
      );
    }
    const ratios = createRatios(perRound);
    printCreateReport({ seconds, rounds, connections, perRound, ratios, statements, stored });
    const roundTripStatements = Object.values(ROUND_TRIPS);
    const report = {
      benchmark: "transfers-create",
      at: new Date().toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg1: loadavg()[0] },
      seconds,
      connections,
      poolMax: POOL_MAX,
      rounds,
      results: perRound.flatMap((r, round) =>
        [r.bare, r.roundTrips, r.pipelined, r.replay, r.create].map((result) => ({ round: round + 1, ...result })),
      ),
      ratio: ratios.ratio,
      ratioOverRoundTrips: ratios.ratioOverRoundTrips,
      ratioOverPipelined: ratios.ratioOverPipelined,
      ratioOverReplay: ratios.ratioOverReplay,
      pipelinedOverRoundTrips: ratios.pipelinedOverRoundTrips,
      roundRatios: ratios.each,
      statementsPerCreate: statements.perCreate,
      roundTripsPerCreate: statements.roundTripsPerCreate,
      transactionsPerCreate: statements.transactionsPerCreate,
      statements: Object.fromEntries(statements.byStatement.map(([text, count]) => [text, count / statements.creates])),
      roundTripsStatementsPerRequest: roundTripStatements.length,
      roundTripsStatements: roundTripStatements,
      stored: { transactions: stored.stored, checkJobs: stored.jobs, idempotencyKeys: stored.idempotencyKeys },
      roundTripsStored: { jobs: stored.bareJobs, keys: stored.bareKeys },
    };
    mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
    writeFileSync(new URL(`./results/transfers-create-${Date.now()}.json`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await Promise.all(children.map((child) => stopChild(child)));
    await bench.dispose();
  }
}
