import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createTenantFixture } from "@qc/core/testing";
import { freePort, useTestDatabase } from "@qc/db/testing";
import { loadTlsMaterial } from "../src/tls";

// Review M7 / issue 29 item 5: the web process as an operator starts it by hand
// (`node --import tsx apps/web/server.ts`), with a clean environment. Without the explicit
// development opt-in (QC_DEV_MODE=true, which `./qc start` sets) it is production: it refuses to
// start without production's secrets, and once they are there it serves no dev mailbox and no
// self-approving sandbox KYC. Before, a missing NODE_ENV meant development mode, and the public
// dev mailbox handed out password-reset links.

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SERVER = fileURLToPath(new URL("../server.ts", import.meta.url));

interface Started {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  kill(): void;
}

/** server.ts with exactly `env` (plus PATH and HOME, which node and tsx need), nothing inherited. */
function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { exited, output: () => output, kill: () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL") };
}

function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms: ${what()}`)), ms).unref())]);
}

function get(port: number, ca: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: options.headers, ca, servername: "localhost", timeout: 5_000 }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(options.method === "POST" ? "{}" : undefined);
  });
}

describe("a bare server.ts is production", () => {
  const t = useTestDatabase();
  const started: Started[] = [];
  afterAll(() => started.forEach((s) => s.kill()));

  it("refuses to start without production's secrets, naming every missing one", async () => {
    const server = startServer({ DATABASE_URL: t.url, DATA_DIR: mkdtempSync(join(tmpdir(), "qc-bare-")), WEB_DASHBOARD: "false", HTTPS_PORT: "0", HTTP_PORT: "0" });
    started.push(server);
    const exit = await within(server.exited, 90_000, () => `the server did not stop; it printed:\n${server.output()}`);
    expect(exit.code, server.output()).not.toBe(0);
    expect(server.output()).toContain("production mode (QC_DEV_MODE is not true) needs KYC_WEBHOOK_SECRET, WEBHOOK_SECRET_KEY, API_KEY_PEPPER, TLS_CERT_FILE, TLS_KEY_FILE");
  }, 120_000);

  it("with the secrets set, serves no dev mailbox and no sandbox KYC, and generates no secret", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-bare-"));
    // The operator's certificate: made here once, then configured like any other.
    const certDir = mkdtempSync(join(tmpdir(), "qc-bare-tls-"));
    const tls = await loadTlsMaterial({ dataDir: certDir });
    const pepper = randomBytes(32);
    const [httpsPort, httpPort] = [await freePort(), await freePort()];
    const server = startServer({
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
    started.push(server);
    const up = async () => {
      for (;;) {
        const exited = await Promise.race([server.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 250))]);
        if (exited) throw new Error(`the server exited:\n${server.output()}`);
        if ((await get(httpsPort, tls.cert, "/healthz").catch(() => undefined))?.status === 200) return;
      }
    };
    await within(up(), 90_000, () => `not up; it printed:\n${server.output()}`);

    const mailbox = await get(httpsPort, tls.cert, "/v1/dev/mailbox?to=victim%40example.com");
    expect(mailbox.status, mailbox.body).toBe(404);
    expect(JSON.parse(mailbox.body)).toMatchObject({ error: "NOT_FOUND" });

    const tenant = await createTenantFixture({ db: t.db, pepper }, { status: "PENDING_VERIFICATION" });
    const kyc = await get(httpsPort, tls.cert, "/v1/onboarding/kyc", { method: "POST", headers: { authorization: tenant.authorization, "content-type": "application/json" } });
    expect(kyc.status, kyc.body).toBe(503);
    expect(JSON.parse(kyc.body)).toMatchObject({ error: "UNAVAILABLE" });

    // Nothing was generated on disk in place of a configured secret.
    expect(existsSync(join(dataDir, "secrets"))).toBe(false);
    expect(existsSync(join(dataDir, "tls"))).toBe(false);
  }, 150_000);
});
