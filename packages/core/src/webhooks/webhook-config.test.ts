import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, serviceConfigFromEnv, serviceEnvSchema } from "../env";

/** Development mode unless the test says otherwise (QC_DEV_MODE: "false" is production). */
const configFrom = (env: Record<string, string>) =>
  serviceConfigFromEnv(parseEnv(serviceEnvSchema, { DATA_DIR: mkdtempSync(join(tmpdir(), "qc-env-")), QC_DEV_MODE: "true", ...env }));

describe("webhook configuration from the environment", () => {
  it("reads WEBHOOK_SECRET_KEY as hex or base64, with previous keys after a comma", () => {
    const current = randomBytes(32);
    const previous = randomBytes(32);
    const config = configFrom({ WEBHOOK_SECRET_KEY: `${current.toString("hex")}, ${previous.toString("base64")}` });
    expect(Buffer.from(config.webhooks.secretKeys.current).equals(current)).toBe(true);
    expect(config.webhooks.secretKeys.previous.map((key) => Buffer.from(key).toString("hex"))).toEqual([previous.toString("hex")]);
  });

  it("requires the key in production, and refuses a bad one without echoing it", () => {
    expect(() => configFrom({ QC_DEV_MODE: "false", KYC_WEBHOOK_SECRET: "k".repeat(32) })).toThrow(
      "WEBHOOK_SECRET_KEY is required in production",
    );
    const bad = "not-a-key-but-a-secret-value";
    let message = "";
    try {
      configFrom({ WEBHOOK_SECRET_KEY: bad });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("WEBHOOK_SECRET_KEY must be 32 bytes");
    expect(message).not.toContain(bad);
  });

  it("generates one development key per DATA_DIR, and never allows private URLs in production", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-env-"));
    const first = configFrom({ DATA_DIR: dataDir });
    const again = configFrom({ DATA_DIR: dataDir });
    expect(Buffer.from(again.webhooks.secretKeys.current).equals(Buffer.from(first.webhooks.secretKeys.current))).toBe(true);
    expect(first.webhooks).toMatchObject({ allowPrivateUrls: false, deliveryTimeoutMs: 15_000, sweepIntervalMs: 5_000 });
    expect(configFrom({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_DELIVERY_TIMEOUT_MS: "2000" }).webhooks).toMatchObject({
      allowPrivateUrls: true,
      deliveryTimeoutMs: 2000,
    });
    const production = configFrom({
      QC_DEV_MODE: "false",
      KYC_WEBHOOK_SECRET: "k".repeat(32),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    });
    expect(production.webhooks.allowPrivateUrls).toBe(false);
    expect(() => configFrom({ WEBHOOK_DELIVERY_TIMEOUT_MS: "60000" })).toThrow("WEBHOOK_DELIVERY_TIMEOUT_MS");
  });
});
