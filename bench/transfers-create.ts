/**
 * Create throughput (issue 10): POST /v1/transactions through the real web process (TLS, guards,
 * API-key auth, rate limit, idempotency key, intent checks, one database transaction writing the
 * row, its history, audit row, event and check job) beside three bare node:https handlers on the
 * same database, measured in the same run at a fixed concurrency, loopback only: one doing a
 * single INSERT of the same body, and one doing the create's database round trips with raw `pg`
 * and nothing else (the same number of statements, in the same order: begin, advisory lock + key
 * read + tenant status, a wallet read, the INSERT, a job insert, the stored answer, commit).
 * A third does the second's statements in the web's four round trips (pipelined: BEGIN with
 * the lock statement, the row with the job, the answer with COMMIT).
 * Create ÷ the first is what the issue's goal compares; create ÷ the second or third is what the
 * framework and the domain code add to the database work itself. Every request carries a fresh
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
 *   BENCH_ROUNDS=3 ./qc exec tsx bench/transfers-create.ts              # the four targets 3 times; ratios are medians (≤ 5)
 *   BENCH_WARMUP_SECONDS=0 …     # unmeasured load before each server's first measured run (default 3, ≤ 10)
 *
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL. Bounded: at most
 * 4 × BENCH_SECONDS (≤ 25 s each) × BENCH_ROUNDS (≤ 5) of load, 3 warm-ups, and start-up. Writes bench/results/transfers-create-<time>.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { createApiKey } from "@qc/core";
import { createDatabase, schema, sql } from "@qc/db";
import { apiPoster, benchTransfer, registerSourceWallet } from "./api-setup";
import {
  BARE_FLAG,
  PIPELINED_FLAG,
  POOL_MAX,
  ROUND_TRIPS,
  ROUND_TRIPS_FLAG,
  runBareInsertServer,
  runBareRoundTripsServer,
} from "./create-bare-servers";
import { benchDatabase, freePort } from "./database";
import { databaseCpuMsBetween, databaseCpuSnapshot, processCpuMs } from "./proc-cpu";
import { stopChild, stopOnSignal } from "./stop-on-signal";
import { benchWebEnv, loopbackCertificate } from "./web-server";

if (process.argv.includes(BARE_FLAG)) {
  await runBareInsertServer();
} else if (process.argv.includes(ROUND_TRIPS_FLAG)) {
  await runBareRoundTripsServer(process.argv.includes(PIPELINED_FLAG));
} else {
  await runBenchmark();
}

async function runBenchmark(): Promise<void> {
  const root = resolve(import.meta.dirname, "..");
  const seconds = Math.min(Number(process.env.BENCH_SECONDS ?? 10), 25);
  const rounds = Math.min(Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1)), 5);
  const warmupSeconds = Math.min(Number(process.env.BENCH_WARMUP_SECONDS ?? 3), 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // loopback, our own self-signed certificate

  const cpuProfileDir = process.env.BENCH_CPU_PROF;
  const start = (args: string[], env: Record<string, string>, readyWhen: RegExp, nodeFlags: string[] = []): Promise<ChildProcess> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      stopOnSignal(() => stopChild(child));
      let output = "";
      const onData = (c: Buffer) => {
        output += c.toString();
        if (readyWhen.test(output)) done(child);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.on("exit", (code) => fail(new Error(`exited ${code}: ${output.slice(-2000)}`)));
    });

  const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const bench = await benchDatabase("qc-bench-transfers-create");
  progress("database migrated");
  const children: ChildProcess[] = [];
  try {
    const databaseUrl = bench.url;
    const pepper = randomBytes(32);
    const database = createDatabase({ url: databaseUrl });
    const [tenant] = await database.db.insert(schema.tenants).values({ name: "Bench", status: "VERIFIED" }).returning();
    const key = await createApiKey({ db: database.db, now: () => new Date() }, pepper, {
      tenantId: tenant!.id,
      userId: null,
      label: "bench",
    });
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
    children.push(
      await start(
        [
          "bench/transfers-create.ts",
          BARE_FLAG,
          databaseUrl,
          String(barePort),
          Buffer.from(pems.cert).toString("base64"),
          Buffer.from(pems.key).toString("base64"),
        ],
        {},
        /ready/,
      ),
    );
    children.push(
      await start(
        [
          "bench/transfers-create.ts",
          ROUND_TRIPS_FLAG,
          databaseUrl,
          String(roundTripsPort),
          Buffer.from(pems.cert).toString("base64"),
          Buffer.from(pems.key).toString("base64"),
          tenant!.id,
        ],
        {},
        /ready/,
      ),
    );
    children.push(
      await start(
        [
          "bench/transfers-create.ts",
          ROUND_TRIPS_FLAG,
          PIPELINED_FLAG,
          databaseUrl,
          String(pipelinedPort),
          Buffer.from(pems.cert).toString("base64"),
          Buffer.from(pems.key).toString("base64"),
          tenant!.id,
        ],
        {},
        /ready/,
      ),
    );
    progress("bare servers listening");
    children.push(
      await start(
        ["bench/web-with-statement-counter.ts"],
        {
          BENCH_STATEMENT_LOG: statementLog,
          ...benchWebEnv({ databaseUrl, work: bench.work, httpsPort: webHttps, httpPort: webHttp, apiKeyPepper: pepper }),
          DB_POOL_MAX: String(POOL_MAX),
        },
        /web listening/,
        cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [],
      ),
    );
    progress("web process listening");
    const base = `https://127.0.0.1:${webHttps}`;
    const authorization = `Bearer ${key.keyId}:${key.secret}`;
    const post = apiPoster(base, authorization);
    // A registered source wallet, made through the API (ownership proof and all).
    const vault = await post("/v1/vault/accounts", { name: "bench vault", networkCode: "QUANTUM_SANDBOX" });
    const wallet = await registerSourceWallet(post, tenant!.id, vault.id);
    const body = JSON.stringify(benchTransfer(wallet.id));

    progress("source wallet registered; counting statements per create");
    const web = children[3]!;
    const statements = await countStatementsPerCreate(web, statementLog, () => createOnce(base, authorization, body));

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
    const measure = async (name: string, server: ChildProcess, url: string, headers: Record<string, string>, withKey: boolean) => {
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
    type Measured = Awaited<ReturnType<typeof measure>>;
    // BENCH_ROUNDS: the four targets again, in the same order, each round; ratios are medians.
    const perRound: { bare: Measured; roundTrips: Measured; pipelined: Measured; create: Measured }[] = [];
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
        create: await measure("web POST /v1/transactions", web, `${base}/v1/transactions`, { authorization }, true),
      });
    }
    // One snapshot for the three counts, after the last in-flight request had time to commit:
    // one row, one check job and one stored 201 per accepted key.
    await new Promise((r) => setTimeout(r, 2000));
    const [{ stored, jobs, keysByStatus, bareJobs, bareKeys }] = (
      await database.db.execute<{ stored: number; jobs: number; keysByStatus: string | null; bareJobs: number; bareKeys: number }>(sql`
        select (select count(*)::int from transactions) as stored,
               (select count(*)::int from pgboss.job where name = 'transfers.check') as jobs,
               (select json_object_agg(status, n)::text from (select coalesce(response_status::text, 'running') as status, count(*)::int as n
                  from idempotency_keys where tenant_id = ${tenant!.id} group by 1) k) as "keysByStatus",
               (select count(*)::int from bench_jobs) as "bareJobs",
               (select count(*)::int from bench_keys) as "bareKeys"`)
    ).rows as [{ stored: number; jobs: number; keysByStatus: string | null; bareJobs: number; bareKeys: number }];
    const idempotencyKeys = JSON.parse(keysByStatus ?? "{}") as Record<string, number>;
    await database.close();

    // A ratio against a target that failed its requests measures the failure: refuse to report one
    // (a baseline answering 500s once read as a create 1.5× faster than its own round trips).
    const failed = perRound
      .flatMap((r) => [r.bare, r.roundTrips, r.pipelined, r.create])
      .filter((r) => r.errors > 0 || Object.keys(r.statuses).some((code) => code !== "201"));
    if (failed.length > 0) {
      throw new Error(
        `every request must answer 201; ${failed.map((r) => `${r.name}: ${JSON.stringify(r.statuses)}, ${r.errors} errors`).join("; ")}`,
      );
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    };
    const ratios = perRound.map((r) => ({
      ratio: r.create.rps / r.bare.rps,
      ratioOverRoundTrips: r.create.rps / r.roundTrips.rps,
      ratioOverPipelined: r.create.rps / r.pipelined.rps,
      pipelinedOverRoundTrips: r.pipelined.rps / r.roundTrips.rps,
    }));
    const ratio = median(ratios.map((r) => r.ratio));
    const ratioOverRoundTrips = median(ratios.map((r) => r.ratioOverRoundTrips));
    const ratioOverPipelined = median(ratios.map((r) => r.ratioOverPipelined));
    const pipelinedOverRoundTrips = median(ratios.map((r) => r.pipelinedOverRoundTrips));
    const nameWidth = Math.max(34, ...Object.values(perRound[0]!).map((r) => r.name.length));
    console.log(
      `\n${seconds} s per target${rounds > 1 ? `, ${rounds} rounds` : ""}, ${connections} connections, pool ${POOL_MAX} per server, loopback, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}\n`,
    );
    console.log(
      "target".padEnd(nameWidth),
      "req/s".padStart(8),
      "p50 ms".padStart(7),
      "p99 ms".padStart(7),
      "cpu µs/req".padStart(11),
      "db cpu µs".padStart(10),
      " statuses",
    );
    perRound.forEach(({ bare, roundTrips, pipelined, create }, round) => {
      if (rounds > 1) console.log(`round ${round + 1}`);
      for (const r of [bare, roundTrips, pipelined, create]) {
        const cpu = r.serverCpuUsPerRequest === null ? "—" : r.serverCpuUsPerRequest.toFixed(0);
        const databaseCpu = r.databaseCpuUsPerRequest === null ? "—" : r.databaseCpuUsPerRequest.toFixed(0);
        console.log(
          r.name.padEnd(nameWidth),
          r.rps.toFixed(0).padStart(8),
          String(r.p50).padStart(7),
          String(r.p99).padStart(7),
          cpu.padStart(11),
          databaseCpu.padStart(10),
          ` ${Object.entries(r.statuses)
            .map(([c, n]) => `${c}×${n}`)
            .join(" ")}`,
        );
      }
    });
    console.log(
      `\nstatements per create, web process, ${statements.creates} sequential creates: ${statements.perCreate.toFixed(2)} in ${statements.roundTripsPerCreate.toFixed(2)} round trips; database transactions per create: ${statements.transactionsPerCreate.toFixed(2)}`,
    );
    for (const [text, count] of statements.byStatement)
      console.log(`  ${(count / statements.creates).toFixed(2).padStart(6)}  ${text.slice(0, 140)}`);
    const roundTripStatements = Object.values(ROUND_TRIPS);
    console.log(
      `\nstatements per request, bare round-trips baselines: ${roundTripStatements.length}, one database transaction, in ${roundTripStatements.length} round trips or (pipelined) 4`,
    );
    for (const text of roundTripStatements) console.log(`  ${(1).toFixed(2).padStart(6)}  ${text.slice(0, 140)}`);
    const each = (pick: (r: (typeof ratios)[number]) => number) =>
      rounds > 1 ? ` [${ratios.map((r) => pick(r).toFixed(3)).join(", ")}]` : "";
    console.log(
      `\ncreate ÷ bare insert${rounds > 1 ? " (median)" : ""}: ${ratio.toFixed(3)}${each((r) => r.ratio)}; create ÷ bare round trips: ${ratioOverRoundTrips.toFixed(3)}${each((r) => r.ratioOverRoundTrips)}` +
        `; create ÷ bare pipelined: ${ratioOverPipelined.toFixed(3)}${each((r) => r.ratioOverPipelined)}; bare pipelined ÷ bare round trips: ${pipelinedOverRoundTrips.toFixed(3)}${each((r) => r.pipelinedOverRoundTrips)}`,
    );
    console.log(`rows stored ${stored}, check jobs ${jobs}, idempotency keys by stored status ${JSON.stringify(idempotencyKeys)}`);
    console.log(
      `bare round trips: job rows ${bareJobs}, stored answers ${bareKeys} (one each per request it accepted, the ones still in flight when the load stopped included)`,
    );
    const report = {
      benchmark: "transfers-create",
      at: new Date().toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg1: loadavg()[0] },
      seconds,
      connections,
      poolMax: POOL_MAX,
      rounds,
      results: perRound.flatMap((r, round) =>
        [r.bare, r.roundTrips, r.pipelined, r.create].map((result) => ({ round: round + 1, ...result })),
      ),
      ratio,
      ratioOverRoundTrips,
      ratioOverPipelined,
      pipelinedOverRoundTrips,
      roundRatios: ratios,
      statementsPerCreate: statements.perCreate,
      roundTripsPerCreate: statements.roundTripsPerCreate,
      transactionsPerCreate: statements.transactionsPerCreate,
      statements: Object.fromEntries(statements.byStatement.map(([text, count]) => [text, count / statements.creates])),
      roundTripsStatementsPerRequest: roundTripStatements.length,
      roundTripsStatements: roundTripStatements,
      stored: { transactions: stored, checkJobs: jobs, idempotencyKeys },
      roundTripsStored: { jobs: bareJobs, keys: bareKeys },
    };
    mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
    writeFileSync(new URL(`./results/transfers-create-${Date.now()}.json`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await Promise.all(children.map((child) => stopChild(child)));
    await bench.dispose();
  }
}

/** One create with a fresh idempotency key; throws unless it answers 201. */
async function createOnce(base: string, authorization: string, body: string): Promise<void> {
  const res = await fetch(`${base}/v1/transactions`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", "x-idempotency-key": `count-${randomBytes(8).toString("hex")}` },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 201) throw new Error(`POST /v1/transactions answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/**
 * Statements the web process sends per create (each one a database round trip), counted by
 * bench/statement-counter.ts over sequential creates after a warm-up (caches filled, pool
 * connected), so each statement is attributed to the create that caused it.
 */
async function countStatementsPerCreate(web: ChildProcess, log: string, create: () => Promise<void>) {
  const creates = 40;
  for (let i = 0; i < 10; i++) await create();
  web.kill("SIGUSR1");
  await new Promise((r) => setTimeout(r, 300)); // the handler runs before the next request arrives
  for (let i = 0; i < creates; i++) await create();
  web.kill("SIGUSR2");
  for (let waited = 0; !existsSync(log); waited += 50) {
    if (waited > 10_000) throw new Error("the web process wrote no statement log");
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 100)); // one small write; let it finish
  const { statements: texts, sharedRoundTrips } = JSON.parse(readFileSync(log, "utf8")) as {
    statements: string[];
    sharedRoundTrips: number;
  };
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  const begins = texts.filter((t) => /^begin\b/i.test(t)).length;
  return {
    creates,
    perCreate: texts.length / creates,
    roundTripsPerCreate: (texts.length - sharedRoundTrips) / creates,
    transactionsPerCreate: begins / creates,
    byStatement: [...counts.entries()].sort((a, b) => b[1] - a[1]),
  };
}
