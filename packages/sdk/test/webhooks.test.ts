import { ed25519 } from "@noble/curves/ed25519.js";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook } from "@qc/webhooks";
import { verifyWebhook, WebhookVerificationError } from "../src/index.js";

const body = JSON.stringify({
  id: "evt-1",
  type: "transaction.status_changed",
  timestamp: "2026-11-21T10:00:00.000Z",
  data: { amount: "1" },
});
const now = () => Math.floor(Date.now() / 1000);

/** v1a as an independent Ed25519 implementation (@noble/curves; the SDK uses node:crypto) signs it. */
function signV1a(secretKey: Uint8Array, id: string, timestamp: number, payload: string) {
  const signature = ed25519.sign(new TextEncoder().encode(`${id}.${timestamp}.${payload}`), secretKey);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1a,${Buffer.from(signature).toString("base64")}`,
  };
}

describe("verifyWebhook", () => {
  it("v1: accepts the house signer's and standardwebhooks' signatures, refuses a tampered body and an old timestamp", () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ id: "msg-1", timestamp: now(), body, secrets: [secret] });
    expect(verifyWebhook(body, headers, { secret })).toMatchObject({ id: "evt-1", data: { amount: "1" } });
    const official = new Webhook(secret).sign("msg-2", new Date(), body);
    expect(
      verifyWebhook(body, { "webhook-id": "msg-2", "webhook-timestamp": String(now()), "webhook-signature": official }, { secret }).type,
    ).toBe("transaction.status_changed");
    expect(() => verifyWebhook(body.replace('"1"', '"2"'), headers, { secret })).toThrow(WebhookVerificationError);
    const old = signWebhook({ id: "msg-3", timestamp: now() - 600, body, secrets: [secret] });
    expect(() => verifyWebhook(body, old, { secret })).toThrow(/too old/);
    expect(() => verifyWebhook(body, headers, { secret: generateWebhookSecret() })).toThrow(WebhookVerificationError);
  });

  it("v1a: accepts an Ed25519 signature by the whpk_ key among others, refuses tampering, expiry and another key", () => {
    const secretKey = ed25519.utils.randomSecretKey();
    const publicKey = `whpk_${Buffer.from(ed25519.getPublicKey(secretKey)).toString("base64")}`;
    const headers = signV1a(secretKey, "msg-1", now(), body);
    expect(verifyWebhook(body, headers, { publicKey }).id).toBe("evt-1");
    const listed = {
      ...headers,
      "webhook-signature": `v1,AAAA v1a,${Buffer.alloc(64).toString("base64")} ${headers["webhook-signature"]}`,
    };
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(listed), { publicKey }).id).toBe("evt-1");
    expect(() => verifyWebhook(`${body} `, headers, { publicKey })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, signV1a(secretKey, "msg-2", now() - 600, body), { publicKey })).toThrow(/too old/);
    const other = `whpk_${Buffer.from(ed25519.getPublicKey(ed25519.utils.randomSecretKey())).toString("base64")}`;
    expect(() => verifyWebhook(body, headers, { publicKey: other })).toThrow(WebhookVerificationError);
  });
});
