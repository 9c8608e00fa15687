/**
 * What every benchmark that starts the real web process needs: a loopback certificate and the
 * process's environment, so that the benchmarks measure the same server the same way.
 */
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { testCertificate } from "@qc/webhooks/testing";
import { bundleApp, type AppName } from "../scripts/bundle";

/**
 * A certificate for 127.0.0.1 that Node accepts as its own trust anchor (`ca`); given `work`, also
 * written there as cert.pem and key.pem for the web process (TLS_CERT_FILE, TLS_KEY_FILE).
 */
export async function loopbackCertificate(work?: string): Promise<{ cert: string; key: string }> {
  const pems = await testCertificate({ commonName: "qc-bench" });
  if (work) {
    writeFileSync(join(work, "cert.pem"), pems.cert);
    writeFileSync(join(work, "key.pem"), pems.key);
  }
  return pems;
}

/**
 * The web process's environment in a benchmark: loopback only, the certificate of
 * `loopbackCertificate(work)`, no dashboard, production mode, and the per-tenant rate limit
 * raised (capacity, not policy: a benchmark is one tenant; the default bucket would answer 429s).
 * Callers add what their run needs.
 */
export function benchWebEnv(params: {
  databaseUrl: string;
  work: string;
  httpsPort: number;
  httpPort: number;
  apiKeyPepper: Buffer;
}): Record<string, string> {
  return {
    DATABASE_URL: params.databaseUrl,
    HTTPS_PORT: String(params.httpsPort),
    HTTP_PORT: String(params.httpPort),
    HOST: "127.0.0.1",
    TLS_CERT_FILE: join(params.work, "cert.pem"),
    TLS_KEY_FILE: join(params.work, "key.pem"),
    WEB_DASHBOARD: "false",
    // "web listening" is logged at info; nothing is logged per request.
    LOG_LEVEL: "info",
    DATA_DIR: params.work,
    API_KEY_PEPPER: params.apiKeyPepper.toString("hex"),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
    NODE_ENV: "production",
    KYC_WEBHOOK_SECRET: "bench-kyc-secret-0123456789abcdef",
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "1000000",
  };
}

const compiled = new Map<string, Promise<string>>();

/**
 * The arguments of `node` that run an app as production does (README, "Running the pieces in
 * production"): its esbuild bundle (`scripts/bundle.ts`, built once per benchmark run) with source
 * maps, never the development transpiler. `checkout`: another checkout's app, built by that
 * checkout's own scripts/bundle.ts (a paired before/after, e.g. bench/http.ts's BENCH_BASELINE).
 */
export async function compiledAppArgs(app: AppName, checkout?: string): Promise<string[]> {
  const key = `${checkout ?? "."}:${app}`;
  let outfile = compiled.get(key);
  if (!outfile) compiled.set(key, (outfile = checkout ? bundleAppOf(checkout, app) : bundleApp(app)));
  return ["--enable-source-maps", await outfile];
}

async function bundleAppOf(checkout: string, app: AppName): Promise<string> {
  const script = join(checkout, "scripts/bundle.ts");
  // Compiled against compiled only: a checkout run by tsx would not be a pair.
  if (!existsSync(script)) throw new Error(`${checkout} has no scripts/bundle.ts (it predates the compiled build)`);
  const { bundleApp: bundleThere } = (await import(pathToFileURL(script).href)) as { bundleApp: typeof bundleApp };
  return bundleThere(app);
}
