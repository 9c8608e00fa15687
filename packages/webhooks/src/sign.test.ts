import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, InvalidWebhookSecretError, signWebhook } from "./sign";
import { verifyWebhook } from "./verify";

const body = JSON.stringify({
  id: "01936f8e-7d2a-7c41-9a8e-2f5b6c7d8e9f",
  type: "transaction.status_changed",
  timestamp: "2026-11-21T10:00:00.000Z",
  data: { previousStatus: "CONFIRMING", note: "naïve ünïcode ✓" },
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("signWebhook", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it("produces signatures the official standardwebhooks library verifies", () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ id: "evt_2Lh9", timestamp: nowSeconds(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it("signs exactly what the official library signs, for a string and for the same bytes", () => {
    const secret = generateWebhookSecret();
    const theirs = new Webhook(secret).sign("evt_1", new Date(1_790_000_000_000), body);
    expect(signWebhook({ id: "evt_1", timestamp: 1_790_000_000, body, secrets: [secret] })["webhook-signature"]).toBe(theirs);
    expect(
      signWebhook({ id: "evt_1", timestamp: 1_790_000_000, body: Buffer.from(body, "utf8"), secrets: [secret] })["webhook-signature"],
    ).toBe(theirs);
  });

  it("sends both signatures during a rotation, and each secret verifies on its own", () => {
    const [previous, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signWebhook({ id: "evt_3", timestamp: nowSeconds(), body, secrets: [current, previous] });
    const parts = headers["webhook-signature"].split(" ");
    expect(parts).toHaveLength(2);
    expect(parts.every((part) => /^v1,[A-Za-z0-9+/]{43}=$/.test(part))).toBe(true);
    for (const secret of [previous, current]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
      expect(verifyWebhook(secret, { ...headers }, body).id).toBe("evt_3");
    }
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow(/No matching signature/);
  });

  it("refuses secrets that are not ours, without echoing them", () => {
    for (const bad of ["", "whsec_", "whsec_c2hvcnQ=", "sk_live_abc", `whsec_${"!".repeat(44)}`]) {
      expect(() => signWebhook({ id: "evt_4", timestamp: 1, body, secrets: [bad] })).toThrow(InvalidWebhookSecretError);
    }
    try {
      signWebhook({ id: "evt_4", timestamp: 1, body, secrets: ["whsec_c2hvcnQ="] });
    } catch (error) {
      expect((error as Error).message).not.toContain("c2hvcnQ");
    }
    expect(() => signWebhook({ id: "evt_4", timestamp: 1, body, secrets: [] })).toThrow(TypeError);
    expect(() => signWebhook({ id: "a b", timestamp: 1, body, secrets: [generateWebhookSecret()] })).toThrow(TypeError);
  });
});
