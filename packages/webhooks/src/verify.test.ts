import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook } from "./sign";
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationReason } from "./verify";

const body = JSON.stringify({ id: "evt_9", type: "webhook.test", timestamp: "2026-11-21T10:00:00.000Z", data: { amount: "1000" } });
const now = 1_790_000_000;

function reasonOf(run: () => unknown): WebhookVerificationReason {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error("verification unexpectedly succeeded");
}

describe("verifyWebhook", () => {
  const secret = generateWebhookSecret();
  const headers = { ...signWebhook({ id: "evt_9", timestamp: now, body, secrets: [secret] }) };

  it("accepts what the official library signs and returns id, timestamp and payload", () => {
    const theirs = new Webhook(secret).sign("evt_9", new Date(now * 1000), body);
    const received = { "Webhook-Id": "evt_9", "Webhook-Timestamp": String(now), "Webhook-Signature": theirs };
    expect(verifyWebhook(secret, received, body, { nowSeconds: now })).toEqual({ id: "evt_9", timestamp: now, payload: JSON.parse(body) });
    expect(verifyWebhook(secret, new Headers(received), Buffer.from(body), { nowSeconds: now }).id).toBe("evt_9");
    expect(verifyWebhook(secret.slice("whsec_".length), received, body, { nowSeconds: now }).id).toBe("evt_9");
  });

  it("accepts any one matching signature among several, ignoring other versions", () => {
    const other = signWebhook({ id: "evt_9", timestamp: now, body, secrets: [generateWebhookSecret()] })["webhook-signature"];
    const mixed = { ...headers, "webhook-signature": `v1a,AAAA ${other} ${headers["webhook-signature"]}` };
    expect(verifyWebhook(secret, mixed, body, { nowSeconds: now }).id).toBe("evt_9");
  });

  it("refuses a tampered body, another secret, an altered id and stale or future timestamps", () => {
    expect(reasonOf(() => verifyWebhook(secret, headers, body.replace("1000", "9000"), { nowSeconds: now }))).toBe("NO_MATCHING_SIGNATURE");
    expect(reasonOf(() => verifyWebhook(generateWebhookSecret(), headers, body, { nowSeconds: now }))).toBe("NO_MATCHING_SIGNATURE");
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, "webhook-id": "evt_10" }, body, { nowSeconds: now }))).toBe(
      "NO_MATCHING_SIGNATURE",
    );
    expect(reasonOf(() => verifyWebhook(secret, headers, body, { nowSeconds: now + 301 }))).toBe("TIMESTAMP_TOO_OLD");
    expect(reasonOf(() => verifyWebhook(secret, headers, body, { nowSeconds: now - 301 }))).toBe("TIMESTAMP_TOO_NEW");
    expect(verifyWebhook(secret, headers, body, { nowSeconds: now + 301, toleranceSeconds: 600 }).id).toBe("evt_9");
    expect(reasonOf(() => verifyWebhook(secret, headers, body, { nowSeconds: now + 11, toleranceSeconds: 10 }))).toBe("TIMESTAMP_TOO_OLD");
  });

  it("refuses a real-time stale delivery with the default tolerance", () => {
    const old = signWebhook({ id: "evt_11", timestamp: Math.floor(Date.now() / 1000) - 3600, body, secrets: [secret] });
    expect(reasonOf(() => verifyWebhook(secret, { ...old }, body))).toBe("TIMESTAMP_TOO_OLD");
    expect(() => new Webhook(secret).verify(body, { ...old })).toThrow(/too old/);
  });

  it("refuses missing headers, malformed timestamps and signatures, and a bad secret", () => {
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, "webhook-id": undefined }, body, { nowSeconds: now }))).toBe(
      "MISSING_HEADERS",
    );
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, "webhook-signature": "" }, body, { nowSeconds: now }))).toBe(
      "MISSING_HEADERS",
    );
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, "webhook-timestamp": "17e8" }, body, { nowSeconds: now }))).toBe(
      "INVALID_TIMESTAMP",
    );
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, "webhook-signature": "v1" }, body, { nowSeconds: now }))).toBe(
      "NO_MATCHING_SIGNATURE",
    );
    expect(reasonOf(() => verifyWebhook(secret, { ...headers, "webhook-signature": "v1,####" }, body, { nowSeconds: now }))).toBe(
      "NO_MATCHING_SIGNATURE",
    );
    expect(reasonOf(() => verifyWebhook("whsec_", headers, body, { nowSeconds: now }))).toBe("INVALID_SECRET");
  });

  it("refuses a correctly signed body that is not JSON", () => {
    const text = "not json";
    const signed = { ...signWebhook({ id: "evt_12", timestamp: now, body: text, secrets: [secret] }) };
    expect(reasonOf(() => verifyWebhook(secret, signed, text, { nowSeconds: now }))).toBe("INVALID_PAYLOAD");
  });
});
