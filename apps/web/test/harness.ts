import { request as httpsRequest } from "node:https";
import { request as httpRequest } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyRouter } from "@trpc/server";
import { appRouter, type AppDeps } from "@qc/api";
import { createLogger } from "@qc/core";
import type { DatabaseHandle } from "@qc/db";
import { startWebServer, type WebServer } from "../src/server";
import { loadTlsMaterial, type TlsMaterial } from "../src/tls";
import type { ReadinessProbe } from "../src/health";

export interface TestServer extends WebServer {
  tls: TlsMaterial;
  deps: AppDeps;
}

/** The real web server (HTTPS + redirector) on random ports, API only, over the given database. */
export async function startTestServer(options: {
  database: DatabaseHandle;
  router?: AnyRouter;
  trustProxyHops?: number;
  readinessProbes?: ReadinessProbe[];
}): Promise<TestServer> {
  const tls = await loadTlsMaterial({ dataDir: mkdtempSync(join(tmpdir(), "qc-web-tls-")) });
  const deps: AppDeps = { database: options.database, log: createLogger("web-test", "silent"), now: () => new Date() };
  const server = await startWebServer({
    deps,
    router: options.router ?? appRouter,
    tls,
    host: "127.0.0.1",
    httpsPort: 0,
    httpPort: 0,
    trustProxyHops: options.trustProxyHops ?? 0,
    readinessProbes: options.readinessProbes,
  });
  return { ...server, tls, deps };
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
}

/** One HTTP(S) exchange; HTTPS verifies the server against its own self-signed certificate. */
export function call(server: TestServer, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
    const common = { host: "127.0.0.1", path, method: options.method ?? "GET", headers };
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
