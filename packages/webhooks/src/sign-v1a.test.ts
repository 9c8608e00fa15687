import { ed25519 } from "@noble/curves/ed25519.js";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, generateWebhookSigningKeyPair, InvalidWebhookKeyError, signWebhook, webhookPublicKeyOf } from "./sign";
import { countV1aSignaturesVerifiedIndependently } from "./testing";
import { verifyWebhook, verifyWebhookWithPublicKey, WebhookVerificationError } from "./verify";

const body = JSON.stringify({ id: "evt", type: "webhook.test", timestamp: "2026-11-21T10:00:00.000Z", data: { note: "naïve ✓" } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("v1a (Ed25519) signatures", () => {
  it("makes whpk_ public keys of 32 bytes, derived from the sealed whsk_ seed as @noble/curves derives them", () => {
    const pair = generateWebhookSigningKeyPair();
    expect(pair.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(pair.signingKey).toMatch(/^whsk_[A-Za-z0-9+/]{43}=$/);
    expect(webhookPublicKeyOf(pair.signingKey)).toBe(pair.publicKey);
    const seed = Buffer.from(pair.signingKey.slice(5), "base64");
    expect(Buffer.from(ed25519.getPublicKey(seed)).toString("base64")).toBe(pair.publicKey.slice(5));
    expect(generateWebhookSigningKeyPair().publicKey).not.toBe(pair.publicKey);
  });

  it("signs <id>.<timestamp>.<body> with every scheme: v1 for the official library, v1a for an independent Ed25519", () => {
    const secret = generateWebhookSecret();
    const pair = generateWebhookSigningKeyPair();
    const headers = { ...signWebhook({ id: "evt_1", timestamp: nowSeconds(), body, secrets: [secret], signingKeys: [pair.signingKey] }) };
    const [v1, v1a, ...rest] = headers["webhook-signature"].split(" ");
    expect(rest).toEqual([]);
    expect(v1).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(v1a).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(countV1aSignaturesVerifiedIndependently(pair.publicKey, { ...headers }, body)).toBe(1);
    // And @noble/curves signs the very same bytes (Ed25519 is deterministic).
    const content = Buffer.from(`evt_1.${headers["webhook-timestamp"]}.${body}`, "utf8");
    const theirs = ed25519.sign(content, Buffer.from(pair.signingKey.slice(5), "base64"));
    expect(v1a).toBe(`v1a,${Buffer.from(theirs).toString("base64")}`);
    expect(verifyWebhookWithPublicKey(pair.publicKey, headers, body).payload).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, headers, body).id).toBe("evt_1");
  });

  it("a tampered body, another key or a v1-only header fails", () => {
    const pair = generateWebhookSigningKeyPair();
    const other = generateWebhookSigningKeyPair();
    const headers = { ...signWebhook({ id: "evt_2", timestamp: nowSeconds(), body, secrets: [], signingKeys: [pair.signingKey] }) };
    const tampered = body.replace("naïve", "naive");
    expect(countV1aSignaturesVerifiedIndependently(pair.publicKey, headers, tampered)).toBe(0);
    expect(() => verifyWebhookWithPublicKey(pair.publicKey, headers, tampered)).toThrow(WebhookVerificationError);
    expect(countV1aSignaturesVerifiedIndependently(other.publicKey, headers, body)).toBe(0);
    expect(() => verifyWebhookWithPublicKey(other.publicKey, headers, body)).toThrow(/no v1a webhook-signature matches/);
    const v1Only = { ...signWebhook({ id: "evt_2", timestamp: nowSeconds(), body, secrets: [generateWebhookSecret()] }) };
    expect(() => verifyWebhookWithPublicKey(pair.publicKey, v1Only, body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhookWithPublicKey("whpk_short", headers, body)).toThrow(/public key/);
  });

  it("signs with both key pairs during a rotation, each verifying on its own", () => {
    const [previous, current] = [generateWebhookSigningKeyPair(), generateWebhookSigningKeyPair()];
    const headers = {
      ...signWebhook({ id: "evt_3", timestamp: nowSeconds(), body, secrets: [], signingKeys: [current.signingKey, previous.signingKey] }),
    };
    const entries = headers["webhook-signature"].split(" ");
    expect(entries).toHaveLength(2);
    for (const [index, pair] of [current, previous].entries()) {
      expect(countV1aSignaturesVerifiedIndependently(pair.publicKey, { ...headers, "webhook-signature": entries[index] }, body)).toBe(1);
      expect(verifyWebhookWithPublicKey(pair.publicKey, headers, body).id).toBe("evt_3");
    }
  });

  it("refuses malformed signing keys without echoing them, and a header with no signature at all", () => {
    expect(() => signWebhook({ id: "e", timestamp: 1, body, secrets: [], signingKeys: ["whsk_c2VjcmV0"] })).toThrow(InvalidWebhookKeyError);
    expect(() => signWebhook({ id: "e", timestamp: 1, body, secrets: [], signingKeys: ["whsk_c2VjcmV0"] })).not.toThrow(/c2VjcmV0/);
    expect(() => signWebhook({ id: "e", timestamp: 1, body, secrets: [] })).toThrow(TypeError);
  });
});
