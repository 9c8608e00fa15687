/**
 * HTTP benchmark (issue 2): requests/s and latency of the real web server process against a
 * bare node:http (and node:https) server measured in the same run, on loopback only.
 *
 *   pnpm --filter @qc/bench http            # 10 s per target, 50 connections
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=20 pnpm --filter @qc/bench http
 *
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { createApiKey } from "@qc/core";
import { createDatabase, schema } from "@qc/db";
import { benchDatabase, freePort } from "./database";
import { generate } from "selfsigned";

const root = resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // loopback, our own self-signed certificate

function start(args: string[], env: NodeJS.ProcessEnv, readyWhen: RegExp): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const onData = (c: Buffer) => {
      output += c.toString();
      if (readyWhen.test(output)) done(child);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => fail(new Error(`exited ${code}: ${output.slice(-2000)}`)));
  });
}

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  statuses: string;
}

async function load(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, v]) => `${code}×${(v as { count: number }).count}`)
    .join(" ");
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, statuses };
}

const bench = await benchDatabase("qc-bench-http");
const work = bench.work;
const children: ChildProcess[] = [];
try {
  const databaseUrl = bench.url;
  const pepper = randomBytes(32);
  const database = createDatabase({ url: databaseUrl });
  const [tenant] = await database.db.insert(schema.tenants).values({ name: "Bench", status: "VERIFIED" }).returning();
  const key = await createApiKey({ db: database.db, pepper, now: () => new Date() }, { tenantId: tenant!.id, userId: null, label: "bench" });
  await database.close();

  const pems = await generate([{ name: "commonName", value: "localhost" }], { keySize: 2048 } as never);
  writeFileSync(join(work, "cert.pem"), pems.cert);
  writeFileSync(join(work, "key.pem"), pems.private);
  const [bareHttp, bareHttps, webHttps, webHttp] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  children.push(await start(["bench/bare-server.ts", String(bareHttp), String(bareHttps), Buffer.from(pems.cert).toString("base64"), Buffer.from(pems.private).toString("base64")], {}, /ready/));
  children.push(
    await start(
      ["apps/web/server.ts"],
      {
        DATABASE_URL: databaseUrl,
        HTTPS_PORT: String(webHttps),
        HTTP_PORT: String(webHttp),
        HOST: "127.0.0.1",
        TLS_CERT_FILE: join(work, "cert.pem"),
        TLS_KEY_FILE: join(work, "key.pem"),
        WEB_DASHBOARD: "false",
        LOG_LEVEL: "info",
        DATA_DIR: work,
        API_KEY_PEPPER: pepper.toString("hex"),
        NODE_ENV: "production",
        KYC_WEBHOOK_SECRET: "bench-kyc-secret-0123456789abcdef",
        // Capacity, not policy: the per-tenant bucket (100/s by default) would answer 429s.
        RATE_LIMIT_PER_SECOND: "1000000",
      },
      /web listening/,
    ),
  );
  const auth = { authorization: `Bearer ${key.keyId}:${key.secret}` };
  const results: Result[] = [];
  results.push(await load("bare node:http  GET /", `http://127.0.0.1:${bareHttp}/`));
  results.push(await load("bare node:https GET /", `https://127.0.0.1:${bareHttps}/`));
  results.push(await load("web  GET /healthz", `https://127.0.0.1:${webHttps}/healthz`));
  results.push(await load("web  GET /v1/credentials (no credentials → 401)", `https://127.0.0.1:${webHttps}/v1/credentials`));
  results.push(await load("web  GET /v1/credentials (API key, DB read)", `https://127.0.0.1:${webHttps}/v1/credentials`, auth));
  const baseline = results[0]!.rps;
  const tlsBaseline = results[1]!.rps;
  console.log(`\n${seconds} s per target, ${connections} connections, loopback, ${new Date().toISOString()}\n`);
  console.log("target".padEnd(54), "req/s".padStart(9), "p50 ms".padStart(8), "p99 ms".padStart(8), " ÷http  ÷https  statuses");
  for (const r of results) {
    console.log(
      r.name.padEnd(54),
      r.rps.toFixed(0).padStart(9),
      String(r.p50).padStart(8),
      String(r.p99).padStart(8),
      (r.rps / baseline).toFixed(3).padStart(6),
      (r.rps / tlsBaseline).toFixed(3).padStart(7),
      ` ${r.statuses}`,
    );
  }
  console.log(JSON.stringify({ seconds, connections, results }, null, 0));
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  await bench.dispose();
}
