import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook } from "./sign";
import { verifyWebhook } from "./verify";

const body = JSON.stringify({ id: "evt_1", type: "transaction.status_changed", timestamp: "2026-11-21T10:00:00.000Z", data: { previousStatus: "CONFIRMING" } });

describe("Standard Webhooks signatures", () => {
  it("are accepted by the reference standardwebhooks library", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ id: "msg_2Lh9", timestamp: now, body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("match what the reference library signs, byte for byte", () => {
    const secret = generateWebhookSecret();
    const at = new Date(1_790_000_000_000);
    const theirs = new Webhook(secret).sign("msg_1", at, body);
    expect(signWebhook({ id: "msg_1", timestamp: 1_790_000_000, body, secrets: [secret] })["webhook-signature"]).toBe(theirs);
  });

  it("carry both signatures during a rotation, and either secret verifies", () => {
    const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ id: "msg_3", timestamp: now, body, secrets: [newSecret, oldSecret] });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
      expect(verifyWebhook({ secret, headers: { ...headers }, body })).toEqual({ ok: true });
    }
  });

  it("are refused for a tampered body, another secret, or a stale timestamp", () => {
    const secret = generateWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = { ...signWebhook({ id: "msg_4", timestamp: now, body, secrets: [secret] }) };
    expect(verifyWebhook({ secret, headers, body: body.replace("CONFIRMING", "COMPLETED") })).toEqual({ ok: false, reason: "no_matching_signature" });
    expect(verifyWebhook({ secret: generateWebhookSecret(), headers, body })).toEqual({ ok: false, reason: "no_matching_signature" });
    expect(verifyWebhook({ secret, headers, body, nowSeconds: now + 301 })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect(verifyWebhook({ secret, headers: { ...headers, "webhook-id": undefined }, body })).toEqual({ ok: false, reason: "missing_headers" });
    expect(() => new Webhook(secret).verify(body.replace("CONFIRMING", "X"), headers)).toThrow();
  });
});
