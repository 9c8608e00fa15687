/**
 * HTTP benchmark (issues 2 and 15): requests/s and latency of the real web server process
 * against a bare node:http (and node:https) server and against its own `/healthz`, measured in
 * the same run, on loopback only. Also counts what each target cost the database (transactions
 * and rows written per request, from pg_stat_database), so "a write per request" shows.
 * The vault read is also compared with `bare-https-select`, a bare node:https process doing the
 * same database work (the web's vault SELECT: same text, same prepared statement, on @qc/db's
 * pipelined read connections as the web runs it) and nothing else: `vault ÷ healthz` charges the
 * route for its query's round trip as well, `vault ÷ bare-https-select` only for what the
 * framework adds around it. `bare-https-select-pool` is the same on a node-postgres pool of 10
 * (one query per checked-out connection, how the web read before pipelined reads).
 *
 *   ./qc pnpm --filter @qc/bench http            # 10 s per target, 50 connections
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=20 ./qc pnpm --filter @qc/bench http
 *   BENCH_TARGETS=healthz,vault BENCH_CPU_PROF=/tmp/prof ./qc pnpm --filter @qc/bench http
 *
 * Each target first gets BENCH_WARMUP_SECONDS (default 3) of unmeasured load, once per process.
 * BENCH_ROUNDS=N (default 1) runs the whole target list N times in a row and reports each ratio's
 * median beside every round's value: on a shared 2-vCPU machine one run's ratio can move by a
 * third from one minute to the next, so figures worth quoting are medians of several rounds.
 * BENCH_TARGETS picks targets by key (bare-http, bare-https, bare-https-select, bare-https-select-pool, healthz,
 * unauthenticated, vault, transaction, credentials); BENCH_CPU_PROF writes a V8 CPU profile of the web
 * process into that directory when it stops (open it in Chrome DevTools or speedscope).
 * BENCH_BASELINE=<another checkout> (e.g. `git archive HEAD` unpacked, node_modules linked)
 * starts that checkout's web server too, on the same database and key, and runs every web target
 * against both, alternating: a before/after measured in the same minutes, under the same load.
 * BENCH_WEB_NODE_FLAGS="…" passes Node flags to this checkout's web process only (not the
 * baseline's): with BENCH_BASELINE pointing at this same checkout, a paired test of a flag.
 * BENCH_CHILD_LOG=<file> appends the servers' own output there (e.g. with
 * BENCH_WEB_NODE_FLAGS=--trace-gc, the web process's collector pauses under load).
 * The web server runs compiled, as production runs it (bench/web-server.ts's compiledAppArgs:
 * scripts/bundle.ts's esbuild bundle, `node --enable-source-maps apps/web/dist/server.js`); a
 * BENCH_BASELINE checkout's is built by that checkout's own scripts/bundle.ts. The bare servers
 * (bench/bare-server.ts) stay on tsx: they are TypeScript, the SELECT one imports @qc/db's sources,
 * and scripts/bundle.ts builds only the three apps; tsx only transpiles them as they load.
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL.
 * Writes bench/results/http-<time>.json.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import autocannon from "autocannon";
import { createDatabase } from "@qc/db";
import { apiPoster, benchTenant, benchTransfer, registerSourceWallet } from "./api-setup";
import { benchDatabase, freePort } from "./database";
import { databaseCounters } from "./database-counters";
import { roundRatios, reportMedians, type Result, type RoundReport, type RunShape } from "./http-report";
import { processCpuMs } from "./proc-cpu";
import { startNode, TSX } from "./start-node";
import { stopChild } from "./stop-on-signal";
import { benchWebEnv, compiledAppArgs, loopbackCertificate } from "./web-server";

const root = resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_TARGETS?.split(",").map((s) => s.trim());
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const baselineRoot = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/** Node flags for this checkout's web process only (not a baseline's): e.g. GC settings, paired with BENCH_BASELINE. */
const webNodeFlags = process.env.BENCH_WEB_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
/** Where the servers' own output goes too (BENCH_CHILD_LOG); otherwise it is only scanned for readiness. */
const childLog = process.env.BENCH_CHILD_LOG;
/** Unmeasured load before a process's first measured run: its JIT warm, not its first seconds timed. */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // loopback, our own self-signed certificate

const shape: RunShape = { rounds, seconds, connections, withBaseline: baselineRoot !== undefined };

const bench = await benchDatabase("qc-bench-http");
const work = bench.work;
const children: ChildProcess[] = [];
try {
  const databaseUrl = bench.url;
  const pepper = randomBytes(32);
  const database = createDatabase({ url: databaseUrl });
  const { tenantId, authorization } = await benchTenant(database.db, pepper);
  await database.close();

  const pems = await loopbackCertificate(work);
  const [bareHttp, bareHttps] = await Promise.all([freePort(), freePort()]);
  children.push(
    await startNode(
      [
        ...TSX,
        "bench/bare-server.ts",
        String(bareHttp),
        String(bareHttps),
        Buffer.from(pems.cert).toString("base64"),
        Buffer.from(pems.key).toString("base64"),
      ],
      { readyWhen: /ready/, log: childLog },
    ),
  );
  const bare = children[0]!;

  /** One web process (this checkout's, or the baseline's), how much it burns at rest, its base URL. */
  async function startWeb(label: "" | "baseline", cwd: string) {
    const [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
    const nodeFlags = label === "" ? [...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : []), ...webNodeFlags] : [];
    const process_ = await startNode([...nodeFlags, ...(await compiledAppArgs("web", label === "" ? undefined : cwd))], {
      env: {
        ...benchWebEnv({ databaseUrl, work, httpsPort, httpPort, apiKeyPepper: pepper }),
        // One source address sends every request here; the lockout must not trip on the 401 run.
        LOCKOUT_FAILURES: "1000000000",
      },
      readyWhen: /web listening/,
      cwd,
      log: childLog,
    });
    children.push(process_);
    return { label, process: process_, url: `https://127.0.0.1:${httpsPort}`, idleCpuMsPerSecond: 0 };
  }
  const webs = [await startWeb("", root)];
  if (baselineRoot) webs.push(await startWeb("baseline", baselineRoot));
  process.stderr.write("[bench] web server ready; creating the bench vault\n");
  const created = await fetch(`${webs[0]!.url}/v1/vault/accounts`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench vault", networkCode: "QUANTUM_SANDBOX" }),
  });
  if (created.status !== 201) throw new Error(`creating the bench vault answered ${created.status}: ${await created.text()}`);
  const vault = (await created.json()) as { id: string };
  const transaction = await benchTransaction(webs[0]!.url, authorization, tenantId, vault.id);

  // What the server burns with no request at all (timers, pools, the job queue's polling), per
  // second: taken out of each target's CPU time, so a slow target is not charged for it.
  for (const web of webs) {
    const idleStart = processCpuMs(web.process.pid);
    await new Promise((r) => setTimeout(r, 3000));
    web.idleCpuMsPerSecond = idleStart !== null ? (processCpuMs(web.process.pid)! - idleStart) / 3 : 0;
    process.stderr.write(
      `[bench] web process${web.label ? ` (${web.label})` : ""} at rest: ${web.idleCpuMsPerSecond.toFixed(1)} ms CPU per second\n`,
    );
  }
  /** `process`: a bare server other than the static one; `usesDatabase`: count pg_stat_database deltas. */
  type Target = {
    key: string;
    name: string;
    url: string;
    headers?: Record<string, string>;
    web?: (typeof webs)[number];
    process?: ChildProcess;
    usesDatabase?: boolean;
  };
  const webTargets = (web: (typeof webs)[number]): Target[] => {
    const suffix = web.label ? ` [${web.label}]` : "";
    const key = (name: string) => (web.label ? `${name}@${web.label}` : name);
    return [
      { key: key("healthz"), name: `web GET /healthz${suffix}`, url: `${web.url}/healthz`, web },
      {
        key: key("vault"),
        name: `web GET /v1/vault/accounts/{id} API key${suffix}`,
        url: `${web.url}/v1/vault/accounts/${vault.id}`,
        headers: { authorization },
        web,
      },
      // The route integrators poll: a transfer's status (no daemon runs, so it stays where it was created).
      {
        key: key("transaction"),
        name: `web GET /v1/transactions/{id} API key${suffix}`,
        url: `${web.url}/v1/transactions/${transaction.id}`,
        headers: { authorization },
        web,
      },
      {
        key: key("credentials"),
        name: `web GET /v1/credentials API key${suffix}`,
        url: `${web.url}/v1/credentials`,
        headers: { authorization },
        web,
      },
      // Last: its audit rows reach pg_stat_database seconds after they are written, and would be
      // counted against the next target.
      {
        key: key("unauthenticated"),
        name: `web GET /v1/vault/accounts/{id} no credentials → 401${suffix}`,
        url: `${web.url}/v1/vault/accounts/${vault.id}`,
        web,
      },
    ];
  };
  // With a baseline, each web target runs against both servers back to back (the same minute's load).
  const perServer = webs.map(webTargets);
  const webTargetList = perServer[0]!.flatMap((_, index) => perServer.map((list) => list[index]!));
  const wanted = (key: string) => !only || only.includes(key);
  /**
   * The vault read's own database work with nothing around it, run just before the vault read
   * (the same minutes' load): its own process, the same tenant and vault. It stops after its run
   * (see below), so each round starts its own.
   */
  async function selectTarget(pool: boolean): Promise<Target> {
    const selectPort = await freePort();
    const selectServer = await startNode(
      [
        ...TSX,
        "bench/bare-server.ts",
        "--select",
        String(selectPort),
        Buffer.from(pems.cert).toString("base64"),
        Buffer.from(pems.key).toString("base64"),
        databaseUrl,
        tenantId,
        vault.id,
        ...(pool ? ["--pool"] : []),
      ],
      { readyWhen: /ready/, log: childLog },
    );
    children.push(selectServer);
    return {
      key: pool ? "bare-https-select-pool" : "bare-https-select",
      name: `bare node:https GET /{id}, the vault SELECT (${pool ? "pg pool" : "pipelined"})`,
      url: `https://127.0.0.1:${selectPort}/${vault.id}`,
      process: selectServer,
      usesDatabase: true,
    };
  }
  const targets: Target[] = [
    { key: "bare-http", name: "bare node:http  GET /", url: `http://127.0.0.1:${bareHttp}/` },
    { key: "bare-https", name: "bare node:https GET /", url: `https://127.0.0.1:${bareHttps}/` },
    ...webTargetList,
  ];

  /** One pass over every wanted target, in order; fresh bare SELECT servers just before the vault read. */
  const warmed = new Set<string>();
  async function measureRound(): Promise<Result[]> {
    const list = [...targets];
    const beforeVault = () =>
      Math.max(
        0,
        list.findIndex((t) => t.key.startsWith("vault")),
      );
    if (wanted("bare-https-select-pool")) list.splice(beforeVault(), 0, await selectTarget(true));
    if (wanted("bare-https-select")) list.splice(beforeVault(), 0, await selectTarget(false));
    const results: Result[] = [];
    for (const target of list) {
      if (!wanted(target.key.split("@")[0]!)) continue;
      process.stderr.write(`[bench] ${target.name}…\n`);
      // Once per target and process (a bare SELECT server is new every round).
      const warmKey = `${target.key}:${(target.web?.process ?? target.process ?? bare).pid}`;
      if (warmupSeconds > 0 && !warmed.has(warmKey)) {
        await autocannon({ url: target.url, connections, duration: warmupSeconds, headers: target.headers ?? {} });
        warmed.add(warmKey);
      }
      const countsDatabase = target.web !== undefined || target.usesDatabase === true;
      const before = countsDatabase ? await databaseCounters(databaseUrl) : null;
      const server = target.web?.process ?? target.process ?? bare;
      const cpuBefore = processCpuMs(server.pid);
      const startedAt = performance.now();
      const run = await autocannon({ url: target.url, connections, duration: seconds, headers: target.headers ?? {} });
      const elapsedSeconds = (performance.now() - startedAt) / 1000;
      const cpuAfter = processCpuMs(server.pid);
      const atRest = (target.web?.idleCpuMsPerSecond ?? 0) * elapsedSeconds;
      // A bare server with a database serves its one target only. It stops before the counts are
      // read: a busy connection reports its statistics late, and its backend's exit reports them
      // all, so they are counted here and not against the next target.
      if (target.process) await stopChild(target.process);
      const after = countsDatabase ? await databaseCounters(databaseUrl) : null;
      const statuses: Record<string, number> = {};
      for (const [code, value] of Object.entries(run.statusCodeStats ?? {})) statuses[code] = (value as { count: number }).count;
      const requests = run.requests.total || 1;
      results.push({
        key: target.key,
        name: target.name,
        rps: run.requests.average,
        p50: run.latency.p50,
        p99: run.latency.p99,
        mean: run.latency.average,
        non2xx: run.non2xx,
        statuses,
        db:
          before && after
            ? {
                transactions: (after.transactions - before.transactions) / requests,
                rowsWritten: (after.rowsWritten - before.rowsWritten) / requests,
              }
            : null,
        serverCpuMsPerRequest: cpuBefore !== null && cpuAfter !== null ? Math.max(0, cpuAfter - cpuBefore - atRest) / requests : null,
      });
    }
    return results;
  }

  const perRound: RoundReport[] = [];
  for (let round = 0; round < rounds; round++) {
    const results = await measureRound();
    perRound.push({ results, ...roundRatios(results, round, shape) });
  }
  const ratios = reportMedians(perRound, shape);
  const report = {
    benchmark: "http",
    at: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg1: loadavg()[0] },
    seconds,
    connections,
    rounds,
    webIdleCpuMsPerSecond: webs[0]!.idleCpuMsPerSecond,
    ...(baselineRoot ? { baseline: { root: baselineRoot, webIdleCpuMsPerSecond: webs[1]!.idleCpuMsPerSecond } } : {}),
    results: perRound.flatMap((r, round) => r.results.map((result) => ({ round: round + 1, ...result }))),
    ratios,
    roundRatios: perRound.map((r) => ({ ...r.ratios, ...(r.baseline ? { baseline: r.baseline } : {}) })),
  };
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/http-${Date.now()}.json`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  // SIGTERM lets the web process stop cleanly, which is when --cpu-prof writes its profile.
  await Promise.all(children.map((child) => stopChild(child)));
  await bench.dispose();
}

/** A transfer to read: a source wallet registered through the API, then one create. */
async function benchTransaction(base: string, authorization: string, tenantId: string, vaultId: string): Promise<{ id: string }> {
  const post = apiPoster(base, authorization);
  const wallet = await registerSourceWallet(post, tenantId, vaultId);
  return post("/v1/transactions", benchTransfer(wallet.id), { "x-idempotency-key": `bench-${randomBytes(8).toString("hex")}` });
}
