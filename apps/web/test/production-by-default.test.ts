import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { freePort, useTestDatabase } from "@qc/db/testing";
import { bundleApp, ROOT } from "../../../scripts/bundle";
import { loadTlsMaterial } from "../src/tls";

// Review M7 / issue 29 item 5: the web process as an operator starts it by hand, with a clean
// environment. Without the explicit development opt-in (QC_DEV_MODE=true, which `./qc start`
// sets) it is production: it refuses to start without production's secrets, and once they are
// there it serves no dev mailbox and no self-approving sandbox KYC. Before, a missing NODE_ENV
// meant development mode, and the public dev mailbox handed out password-reset links.
//
// Issue 30 item 9: what runs here is what production runs, the compiled output of
// `pnpm build` (scripts/bundle.ts, bundled again by this test in a second or two, so a clean
// clone needs nothing prepared): `node --enable-source-maps apps/web/dist/server.js` and
// `apps/daemon/dist/main.js`, with no TypeScript loader.

interface Started {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  signal(signal: NodeJS.Signals): void;
  kill(): void;
}

/** A compiled entry with exactly `env` (plus PATH and HOME), nothing inherited. */
function startCompiled(entry: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["--enable-source-maps", entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    exited,
    output: () => output,
    signal: (signal) => void child.kill(signal),
    kill: () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"),
  };
}

let server = "";
let daemon = "";
beforeAll(async () => {
  [server, daemon] = await Promise.all([bundleApp("web"), bundleApp("daemon")]);
}, 60_000);

function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms: ${what()}`)), ms).unref()),
  ]);
}

function get(
  port: number,
  ca: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: options.headers,
        ca,
        servername: "localhost",
        timeout: 5_000,
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(options.method === "POST" ? "{}" : undefined);
  });
}

describe("the compiled web server, started bare, is production", () => {
  const t = useTestDatabase();
  const started: Started[] = [];
  afterAll(() => started.forEach((s) => s.kill()));

  it("refuses to start without production's secrets, naming every missing one", async () => {
    const web = startCompiled(server, {
      DATABASE_URL: t.url,
      DATA_DIR: mkdtempSync(join(tmpdir(), "qc-bare-")),
      WEB_DASHBOARD: "false",
      HTTPS_PORT: "0",
      HTTP_PORT: "0",
    });
    started.push(web);
    const exit = await within(web.exited, 90_000, () => `the server did not stop; it printed:\n${web.output()}`);
    expect(exit.code, web.output()).not.toBe(0);
    expect(web.output()).toContain(
      "production mode (QC_DEV_MODE is not true) needs KYC_WEBHOOK_SECRET, WEBHOOK_SECRET_KEY, API_KEY_PEPPER, " +
        "TLS_CERT_FILE, TLS_KEY_FILE",
    );
    // --enable-source-maps: the stack names the TypeScript source, not a line of the bundle.
    expect(web.output()).toMatch(/packages\/core\/src\/env\.ts:\d+:\d+/);
  }, 120_000);

  it("with the secrets set, serves no dev mailbox and no sandbox KYC, and generates no secret", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-bare-"));
    // The operator's certificate: made here once, then configured like any other.
    const certDir = mkdtempSync(join(tmpdir(), "qc-bare-tls-"));
    const tls = await loadTlsMaterial({ dataDir: certDir });
    const pepper = randomBytes(32);
    const [httpsPort, httpPort] = [await freePort(), await freePort()];
    const web = startCompiled(server, {
      DATABASE_URL: t.url,
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      HTTPS_PORT: String(httpsPort),
      HTTP_PORT: String(httpPort),
      WEB_DASHBOARD: "false",
      LOG_LEVEL: "warn",
      TLS_CERT_FILE: join(certDir, "tls", "localhost-cert.pem"),
      TLS_KEY_FILE: join(certDir, "tls", "localhost-key.pem"),
      API_KEY_PEPPER: pepper.toString("hex"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      KYC_WEBHOOK_SECRET: randomBytes(24).toString("hex"),
    });
    started.push(web);
    const up = async () => {
      for (;;) {
        const exited = await Promise.race([
          web.exited.then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), 250)),
        ]);
        if (exited) throw new Error(`the server exited:\n${web.output()}`);
        if ((await get(httpsPort, tls.cert, "/healthz").catch(() => undefined))?.status === 200) return;
      }
    };
    await within(up(), 90_000, () => `not up; it printed:\n${web.output()}`);

    // The API answers from compiled code: no credentials, no vaults; an API key, its (no) vaults,
    // with the query's string coerced to the declared number on the way.
    const anonymous = await get(httpsPort, tls.cert, "/v1/vault/accounts");
    expect(anonymous.status, anonymous.body).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ error: "UNAUTHENTICATED" });
    const verified = await createTenantFixture({ db: t.db, pepper });
    const vaults = await get(httpsPort, tls.cert, "/v1/vault/accounts?limit=5", { headers: { authorization: verified.authorization } });
    expect(vaults.status, vaults.body).toBe(200);
    expect(JSON.parse(vaults.body)).toMatchObject({ vaults: [] });

    const mailbox = await get(httpsPort, tls.cert, "/v1/dev/mailbox?to=victim%40example.com");
    expect(mailbox.status, mailbox.body).toBe(404);
    expect(JSON.parse(mailbox.body)).toMatchObject({ error: "NOT_FOUND" });

    const tenant = await createTenantFixture({ db: t.db, pepper }, { status: "PENDING_VERIFICATION" });
    const kyc = await get(httpsPort, tls.cert, "/v1/onboarding/kyc", {
      method: "POST",
      headers: { authorization: tenant.authorization, "content-type": "application/json" },
    });
    expect(kyc.status, kyc.body).toBe(503);
    expect(JSON.parse(kyc.body)).toMatchObject({ error: "UNAVAILABLE" });

    // Nothing was generated on disk in place of a configured secret.
    expect(existsSync(join(dataDir, "secrets"))).toBe(false);
    expect(existsSync(join(dataDir, "tls"))).toBe(false);
  }, 150_000);
});

describe("the compiled daemon", () => {
  const t = useTestDatabase();
  const started: Started[] = [];
  afterAll(() => started.forEach((s) => s.kill()));

  it("starts in production with its secrets, beats, and stops cleanly on SIGTERM", async () => {
    const instanceId = "compiled-daemon";
    const running = startCompiled(daemon, {
      DATABASE_URL: t.url,
      DAEMON_INSTANCE_ID: instanceId,
      LOG_LEVEL: "warn",
      // Nothing listens there; no email is sent in this test.
      SMTP_URL: "smtp://127.0.0.1:9",
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      KYC_WEBHOOK_SECRET: randomBytes(24).toString("hex"),
    });
    started.push(running);
    const beating = async () => {
      for (;;) {
        const [row] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, instanceId));
        if (row) return;
        const exited = await Promise.race([
          running.exited.then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), 250)),
        ]);
        if (exited) throw new Error(`the daemon exited:\n${running.output()}`);
      }
    };
    await within(beating(), 90_000, () => `no heartbeat; it printed:\n${running.output()}`);
    running.signal("SIGTERM");
    const exit = await within(running.exited, 30_000, () => `the daemon did not stop; it printed:\n${running.output()}`);
    expect(exit, running.output()).toEqual({ code: 0, signal: null });
    const [row] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, instanceId));
    expect(row!.stoppedAt).not.toBeNull();
  }, 120_000);
});
