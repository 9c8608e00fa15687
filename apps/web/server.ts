/**
 * The web process: HTTPS (API + dashboard) and the plain-HTTP redirector.
 * Started by `pnpm start` (scripts/start.ts), which provides DATABASE_URL on embedded defaults.
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { appRouter, createAppDeps } from "@qc/api";
import { createLogger, DEFAULT_RATE_LIMITS, developmentMode, serviceConfigFromEnv } from "@qc/core";
import { createDatabase, runMigrations } from "@qc/db";
import { readWebEnv } from "./src/env";
import { startWebServer } from "./src/server";
import { loadTlsMaterial } from "./src/tls";
import { chainReadinessProbe } from "./src/health";
import { loadPepper } from "./src/secrets";
import { installProcessErrorHandlers } from "./src/process-errors";
import type { PageHandler } from "./src/app";

const env = readWebEnv();
const log = createLogger("web", env.LOG_LEVEL);
// Before anything else (Next installs its own, which only log): a bug one request reaches must
// not stop the process, and one that may have broken shared state must (src/process-errors.ts).
installProcessErrorHandlers(log);
if (!env.DATABASE_URL) {
  log.fatal("DATABASE_URL is not set; `pnpm start` provides one (embedded PostgreSQL) when you run the whole stack");
  process.exit(1);
}

await runMigrations(env.DATABASE_URL);
const database = createDatabase({ url: env.DATABASE_URL, applicationName: "qc-web" });
// The one switch (packages/core/src/env.ts): without QC_DEV_MODE=true this is production.
const production = !developmentMode(env);
if (!production)
  log.warn("development mode (QC_DEV_MODE=true): dev mailbox, sandbox KYC and generated secrets are on; never expose this " + "instance");
const deps = await createAppDeps({
  database,
  databaseUrl: env.DATABASE_URL,
  log,
  config: {
    ...serviceConfigFromEnv(env, { fallbackPublicUrl: `https://localhost:${env.HTTPS_PORT}` }),
    apiKeyPepper: loadPepper({ configured: env.API_KEY_PEPPER, dataDir: env.DATA_DIR, production }),
  },
  lockout: { failures: env.LOCKOUT_FAILURES, windowSeconds: env.LOCKOUT_WINDOW_SECONDS, lockSeconds: env.LOCKOUT_SECONDS },
  rateLimits: {
    ...DEFAULT_RATE_LIMITS,
    tenantPerSecond: env.RATE_LIMIT_PER_SECOND,
    tenantBurstExtra: env.RATE_LIMIT_BURST,
    signupPerHour: env.SIGNUP_LIMIT_PER_HOUR,
    signupLockSeconds: env.SIGNUP_LOCKOUT_SECONDS,
  },
});

let tls: Awaited<ReturnType<typeof loadTlsMaterial>>;
try {
  tls = await loadTlsMaterial({ certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE, dataDir: env.DATA_DIR, production });
} catch (error) {
  log.fatal({ err: error }, (error as Error).message);
  process.exit(1);
}

let pages: PageHandler | undefined;
const pagesDevelopment = env.WEB_DASHBOARD && (env.WEB_DASHBOARD_DEV ?? !production);
if (env.WEB_DASHBOARD) {
  const { default: next } = await import("next");
  const app = next({ dev: pagesDevelopment, dir: dirname(fileURLToPath(import.meta.url)) });
  await app.prepare();
  const handle = app.getRequestHandler();
  pages = (req, res) => handle(req, res);
}

const server = await startWebServer({
  deps,
  router: appRouter,
  tls,
  host: env.HOST,
  httpsPort: env.HTTPS_PORT,
  httpPort: env.HTTP_PORT,
  publicUrl: env.PUBLIC_URL,
  trustProxyHops: env.TRUST_PROXY_HOPS,
  trustedProxies: env.TRUSTED_PROXIES,
  pages,
  pagesDevelopment,
  metricsToken: env.METRICS_TOKEN,
  readinessProbes: [chainReadinessProbe(deps.chain, deps.chain.networks())],
});
log.info({ https: server.httpsUrl, http: server.httpUrl }, "web listening");

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "web stopping");
  await server.close();
  await deps.close();
  await database.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
