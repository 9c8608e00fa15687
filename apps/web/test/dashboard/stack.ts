import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase, schema } from "@qc/db";
import { freePort } from "@qc/db/testing";
import { startTestDevnet, type TestDevnet } from "@qc/devnet/testing";
import { ensureDashboardBuild } from "../../src/dashboard/production-build";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

export interface Stack {
  baseUrl: string;
  /** The web server's self-signed certificate (PEM), for Node clients that verify it. */
  cert: string;
  devnet: TestDevnet;
  metricsToken: string;
  env: NodeJS.ProcessEnv;
  /** What the web server and the daemon printed, for a failing test's message. */
  output(): string;
  close(): Promise<void>;
}

/**
 * The stack as `./qc start` runs it, on the test's own database: the web server (server.ts, with
 * the dashboard's production build) and the daemon (main.ts) as their own processes, on one
 * environment, and a devnet. Only the ports, the data directory and the short delays differ.
 */
export async function startStack(databaseUrl: string): Promise<Stack> {
  await ensureDashboardBuild({ env: process.env });
  const devnet = await startTestDevnet({ blockTimeMs: 150 });
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "qc-dashboard-test-"));
  const metricsToken = "metrics-token-for-the-browser-test";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    // As `./qc start`: the development conveniences (dev mailbox, sandbox KYC) the browser tests use.
    QC_DEV_MODE: "true",
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    // Dual-stack: "localhost" may resolve to ::1 first, for Chromium and Node alike.
    HOST: "::",
    HTTPS_PORT: String(httpsPort),
    HTTP_PORT: String(httpPort),
    PUBLIC_URL: `https://localhost:${httpsPort}`,
    WEB_DASHBOARD: "true",
    WEB_DASHBOARD_DEV: "false",
    METRICS_TOKEN: metricsToken,
    KYC_SANDBOX_DELAY_MS: "0",
    QUANTUM_SANDBOX_RPC_URL: devnet.url,
    QUANTUM_MAINNET_RPC_URL: "",
    DAEMON_HEARTBEAT_SECONDS: "2",
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  let output = "";
  const children: ChildProcess[] = [];
  const run = (name: string, script: string) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const keep = (chunk: Buffer) => {
      output = (output + `[${name}] ${chunk.toString()}`).slice(-20_000);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    children.push(child);
    return child;
  };
  const close = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
            setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
          }),
      ),
    );
    await devnet.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    run("web", "apps/web/server.ts");
    run("daemon", "apps/daemon/src/main.ts");
    const baseUrl = `https://localhost:${httpsPort}`;
    await waitReady(`https://127.0.0.1:${httpsPort}/readyz`, 90_000, () => output);
    // The first test's KYC is decided by the daemon's job: on a loaded machine the daemon can boot
    // well after the web server, so the stack is ready once the daemon beats too.
    await waitDaemon(databaseUrl, 90_000, () => output);
    return {
      baseUrl,
      cert: readFileSync(join(dataDir, "tls/localhost-cert.pem"), "utf8"),
      devnet,
      metricsToken,
      env,
      output: () => output,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function waitReady(url: string, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const ok = await new Promise<boolean>((done) => {
      const req = request(url, { rejectUnauthorized: false, timeout: 2_000 }, (res) => {
        res.resume();
        done(res.statusCode === 200);
      });
      req.on("error", () => done(false));
      req.on("timeout", () => req.destroy());
      req.end();
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the web server did not become ready within ${timeoutMs / 1000} s:\n${output()}`);
}

async function waitDaemon(databaseUrl: string, timeoutMs: number, output: () => string): Promise<void> {
  const database = createDatabase({ url: databaseUrl, poolMax: 1, pipelinedReads: 0 });
  try {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const heartbeats = await database.db.select().from(schema.daemonHeartbeats);
      if (heartbeats.some((row) => row.stoppedAt === null)) return;
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    await database.close();
  }
  throw new Error(`the daemon did not start within ${timeoutMs / 1000} s:\n${output()}`);
}

/** One HTTPS exchange verified against the stack's certificate. */
export function fetchText(
  stack: Stack,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(path, stack.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", servername: "localhost", port: url.port, path: url.pathname + url.search, ca: stack.cert, headers },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
