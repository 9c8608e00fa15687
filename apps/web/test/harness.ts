import { request as httpsRequest } from "node:https";
import { request as httpRequest } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyRouter } from "@trpc/server";
import { randomBytes } from "node:crypto";
import { appRouter, createAppDeps, type AppConfig, type AppDeps } from "@qc/api";
import { createLogger, serviceConfig } from "@qc/core";
import type { DatabaseHandle } from "@qc/db";
import { startWebServer, type WebServer } from "../src/server";
import { loadTlsMaterial, type TlsMaterial } from "../src/tls";
import type { ReadinessProbe } from "../src/health";

export interface TestServer extends WebServer {
  tls: TlsMaterial;
  deps: AppDeps;
}

/** One pepper for the whole test process, so fixtures and servers agree on key hashes. */
export const TEST_PEPPER = randomBytes(32);
export const TEST_KYC_SECRET = "test-kyc-webhook-secret-0123456789";

/** The real web server (HTTPS + redirector) on random ports, API only, over the given database. */
export async function startTestServer(options: {
  database: DatabaseHandle & { url?: string };
  databaseUrl?: string;
  router?: AnyRouter;
  trustProxyHops?: number;
  /** TRUSTED_PROXIES (default loopback, which the tests connect from). */
  trustedProxies?: string[];
  readinessProbes?: ReadinessProbe[];
  lockout?: Parameters<typeof createAppDeps>[0]["lockout"];
  /** The clock the services read (expiry, grace periods); real time by default. */
  now?: () => Date;
  /** Listen address: "::" gives dual-stack, so tests can call from 127.0.0.1 and ::1. */
  host?: string;
  /** Overrides of the test configuration (SMTP, KYC, RPC URLs). */
  config?: Partial<AppConfig>;
  rateLimits?: Parameters<typeof createAppDeps>[0]["rateLimits"];
  /** PUBLIC_URL as the web process gets it (redirect target, allowed Origin); unset by default. */
  publicUrl?: string;
}): Promise<TestServer> {
  const tls = await loadTlsMaterial({ dataDir: tlsDir() });
  const databaseUrl = options.databaseUrl ?? options.database.url;
  if (!databaseUrl) throw new Error("startTestServer needs the database URL");
  const deps = await createAppDeps({
    database: options.database,
    databaseUrl,
    log: createLogger("web-test", process.env.TEST_LOG_LEVEL ?? "silent"),
    config: {
      ...serviceConfig({ publicUrl: "https://localhost", kyc: { provider: "sandbox", webhookSecret: TEST_KYC_SECRET, sandboxDelayMs: 0 } }),
      apiKeyPepper: TEST_PEPPER,
      ...options.config,
    },
    lockout: options.lockout,
    rateLimits: options.rateLimits,
    now: options.now,
  });
  const server = await startWebServer({
    deps,
    router: options.router ?? appRouter,
    tls,
    host: options.host ?? "127.0.0.1",
    httpsPort: 0,
    httpPort: 0,
    trustProxyHops: options.trustProxyHops ?? 0,
    trustedProxies: options.trustedProxies,
    readinessProbes: options.readinessProbes,
    publicUrl: options.publicUrl,
  });
  return {
    ...server,
    tls,
    deps,
    close: async () => {
      await server.close();
      await deps.close();
    },
  };
}

let sharedTlsDir: string | undefined;
function tlsDir(): string {
  sharedTlsDir ??= mkdtempSync(join(tmpdir(), "qc-web-tls-"));
  return sharedTlsDir;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = any>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Plain HTTP to the redirector instead of HTTPS. */
  plain?: boolean;
  /** Source/target address: "127.0.0.1" (default) or "::1" (server must listen on "::"). */
  address?: string;
}

/** One HTTP(S) exchange; HTTPS verifies the server against its own self-signed certificate. */
export function call(server: TestServer, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
    const common = { host: options.address ?? "127.0.0.1", path, method: options.method ?? "GET", headers };
    const onResponse = (res: import("node:http").IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    };
    const req = options.plain
      ? httpRequest({ ...common, port: server.httpPort }, onResponse)
      : httpsRequest({ ...common, port: server.httpsPort, ca: server.tls.cert, servername: "localhost" }, onResponse);
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export const json = (value: unknown) => ({
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});
