/**
 * The web process: HTTPS (API + dashboard) and the plain-HTTP redirector.
 * Started by `pnpm start` (scripts/start.ts), which provides DATABASE_URL on embedded defaults.
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { appRouter, type AppDeps } from "@qc/api";
import { createLogger } from "@qc/core";
import { createDatabase, runMigrations } from "@qc/db";
import { readWebEnv } from "./src/env";
import { startWebServer } from "./src/server";
import { loadTlsMaterial } from "./src/tls";
import type { PageHandler } from "./src/app";

const env = readWebEnv();
const log = createLogger("web", env.LOG_LEVEL);
if (!env.DATABASE_URL) {
  log.fatal("DATABASE_URL is not set; `pnpm start` provides one (embedded PostgreSQL) when you run the whole stack");
  process.exit(1);
}

await runMigrations(env.DATABASE_URL);
const database = createDatabase({ url: env.DATABASE_URL, applicationName: "qc-web" });
const deps: AppDeps = { database, log, now: () => new Date() };

let pages: PageHandler | undefined;
if (env.WEB_DASHBOARD) {
  const { default: next } = await import("next");
  const app = next({ dev: env.NODE_ENV !== "production", dir: dirname(fileURLToPath(import.meta.url)) });
  await app.prepare();
  const handle = app.getRequestHandler();
  pages = (req, res) => handle(req, res);
}

const server = await startWebServer({
  deps,
  router: appRouter,
  tls: await loadTlsMaterial({ certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE, dataDir: env.DATA_DIR }),
  host: env.HOST,
  httpsPort: env.HTTPS_PORT,
  httpPort: env.HTTP_PORT,
  publicUrl: env.PUBLIC_URL,
  trustProxyHops: env.TRUST_PROXY_HOPS,
  pages,
});
log.info({ https: server.httpsUrl, http: server.httpUrl }, "web listening");

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "web stopping");
  await server.close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
