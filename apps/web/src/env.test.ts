import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serviceConfigFromEnv } from "@qc/core/env";
import { describe, expect, it } from "vitest";
import { readWebEnv, rpcUrlsFromEnv } from "./env";

const read = (vars: Record<string, string>) => readWebEnv(vars as NodeJS.ProcessEnv);
const dev = (vars: Record<string, string> = {}) => read({ NODE_ENV: "test", QC_DEV_MODE: "true", ...vars });

/** Everything production needs for the web process, as an operator would configure it. */
const PRODUCTION_SECRETS = {
  KYC_WEBHOOK_SECRET: "k".repeat(32),
  WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
  API_KEY_PEPPER: randomBytes(32).toString("hex"),
  TLS_CERT_FILE: "/etc/qc/tls/cert.pem",
  TLS_KEY_FILE: "/etc/qc/tls/key.pem",
};
const MISSING_ALL =
  "production mode (QC_DEV_MODE is not true) needs KYC_WEBHOOK_SECRET, WEBHOOK_SECRET_KEY, API_KEY_PEPPER, " +
  "TLS_CERT_FILE, TLS_KEY_FILE";

describe("web configuration", () => {
  it("lists only configured networks, splitting comma-separated fallbacks", () => {
    const env = dev({ QUANTUM_SANDBOX_RPC_URL: " http://a:8546 , http://b:8546," });
    expect(rpcUrlsFromEnv(env)).toEqual({ QUANTUM_SANDBOX: ["http://a:8546", "http://b:8546"] });
    expect(rpcUrlsFromEnv(dev())).toEqual({});
  });

  it("stops at boot on a bad value, naming the variable", () => {
    expect(() => dev({ HTTPS_PORT: "not-a-port" })).toThrow(/HTTPS_PORT/);
  });
});

describe("production unless development is opted into (QC_DEV_MODE)", () => {
  it("with nothing set is production, and refuses to start naming every missing secret at once", () => {
    expect(() => read({})).toThrow(MISSING_ALL);
    // NODE_ENV never opens development mode: the review's deployment forgot a variable, and
    // one set to `development` or `test` by habit must not publish the dev mailbox either.
    for (const NODE_ENV of ["development", "test", "production"]) expect(() => read({ NODE_ENV })).toThrow(MISSING_ALL);
    expect(() => read({ QC_DEV_MODE: "false" })).toThrow(MISSING_ALL);
    expect(() => read({ ...PRODUCTION_SECRETS, API_KEY_PEPPER: "", TLS_KEY_FILE: "" })).toThrow(
      "production mode (QC_DEV_MODE is not true) needs API_KEY_PEPPER, TLS_KEY_FILE; set them, or set QC_DEV_MODE=true",
    );
  });

  it("never echoes a configured secret in the refusal", () => {
    let message = "";
    try {
      read({ ...PRODUCTION_SECRETS, API_KEY_PEPPER: "" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("needs API_KEY_PEPPER");
    for (const value of Object.values(PRODUCTION_SECRETS)) expect(message).not.toContain(value);
  });

  it("with the secrets set is production: no development default, no dev outbox, no sandbox KYC", () => {
    const env = read(PRODUCTION_SECRETS);
    expect(env.QC_DEV_MODE).toBe(false);
    const config = serviceConfigFromEnv(env);
    expect(config.production).toBe(true);
    expect(config.kyc.webhookSecret).toBe(PRODUCTION_SECRETS.KYC_WEBHOOK_SECRET);
    expect(Buffer.from(config.webhooks.secretKeys.current).toString("hex")).toBe(PRODUCTION_SECRETS.WEBHOOK_SECRET_KEY);
  });

  it("refuses the development-only settings in production, each named", () => {
    expect(() => read({ ...PRODUCTION_SECRETS, WEBHOOK_ALLOW_PRIVATE_URLS: "true" })).toThrow(
      "WEBHOOK_ALLOW_PRIVATE_URLS=true lets webhooks reach http and private-network addresses (request forgery) and " +
        "is refused in production",
    );
    expect(() => read({ ...PRODUCTION_SECRETS, WEB_DASHBOARD_DEV: "true" })).toThrow(
      "WEB_DASHBOARD_DEV=true runs Next's development server and is refused in production",
    );
    expect(read({ ...PRODUCTION_SECRETS, WEBHOOK_ALLOW_PRIVATE_URLS: "false", WEB_DASHBOARD_DEV: "false" }).WEB_DASHBOARD_DEV).toBe(false);
  });

  it("QC_DEV_MODE=true turns the development conveniences on, and nothing else does", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-web-env-"));
    const env = read({ QC_DEV_MODE: "true", DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
    const config = serviceConfigFromEnv(env);
    expect(config.production).toBe(false);
    expect(config.kyc).toMatchObject({ provider: "sandbox", webhookSecret: "dev-kyc-webhook-secret-not-for-production" });
    expect(config.webhooks.allowPrivateUrls).toBe(true);
    // The webhook key is generated under DATA_DIR, and the same on the next start.
    const again = serviceConfigFromEnv(read({ QC_DEV_MODE: "1", DATA_DIR: dataDir }));
    expect(Buffer.from(again.webhooks.secretKeys.current).equals(Buffer.from(config.webhooks.secretKeys.current))).toBe(true);
  });

  it("refuses QC_DEV_MODE=true next to NODE_ENV=production, and a value that is not a flag", () => {
    expect(() => read({ QC_DEV_MODE: "true", NODE_ENV: "production" })).toThrow(
      "QC_DEV_MODE: QC_DEV_MODE=true contradicts NODE_ENV=production",
    );
    expect(() => read({ ...PRODUCTION_SECRETS, QC_DEV_MODE: "yes" })).toThrow(/QC_DEV_MODE/);
  });
});
