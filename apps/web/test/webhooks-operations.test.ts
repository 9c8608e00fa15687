import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { verifyWebhookWithPublicKey } from "@qc/webhooks";
import { countV1aSignaturesVerifiedIndependently } from "@qc/webhooks/testing";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { eventually } from "./identity-helpers";
import { sendTestEvent, subscribeReceiver, useWebhookDeliveryStack, type ReceivedRequest } from "./webhooks-receiver";

/**
 * CONTRACT §18's webhook operations over real HTTPS with the daemon delivering to a real receiver:
 * `v1a` (Ed25519) signatures, resend of a window of deliveries, simulated events.
 */
describe("webhook operations: v1a signatures, resend, simulate", () => {
  const t = useTestDatabase();
  const stack = useWebhookDeliveryStack(t, { sweepIntervalMs: 200 });
  const { clock, receivedAt } = stack;

  interface Hook {
    id: string;
    secret: string;
    publicKey: string | null;
    signatureSchemes: string[];
    previousSecretExpiresAt: string | null;
  }
  const subscribe = (path: string, body: Record<string, unknown> = {}) => subscribeReceiver<Hook>(t, stack, path, body);
  const sendTest = sendTestEvent;
  const arrived = (path: string, eventId: string) =>
    eventually(async () => receivedAt(path).find((r) => r.json.id === eventId) ?? undefined);
  const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;
  const verifiesV1 = (secret: string, request: ReceivedRequest) =>
    new Webhook(secret).verify(request.body.toString("utf8"), headersOf(request));

  describe("v1a signatures", () => {
    it("creates with v1 and v1a: a whpk_ public key on create, GET and list; the sealed private key never leaves", async () => {
      const s = await subscribe("/v1a/create", { signatureSchemes: ["v1a", "v1"] });
      expect(s.hook.signatureSchemes).toEqual(["v1", "v1a"]);
      expect(s.hook.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
      const fetched = await s.api.get(`/v1/webhooks/${s.hook.id}`);
      expect(fetched.json()).toMatchObject({ signatureSchemes: ["v1", "v1a"], publicKey: s.hook.publicKey });
      const listed = await s.api.get("/v1/webhooks");
      expect(listed.json().webhooks[0]).toMatchObject({ id: s.hook.id, publicKey: s.hook.publicKey });
      const [row] = await t.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, s.hook.id));
      expect(row!.signingKeyCiphertext).toMatch(/^v1\./);
      for (const text of [fetched.text, listed.text]) expect(text).not.toMatch(/whsk_|signingKey/);

      // The default is v1 only, without a key pair.
      const plain = await subscribe("/v1a/plain");
      expect(plain.hook).toMatchObject({ signatureSchemes: ["v1"], publicKey: null });
      const bad = await plain.api.post("/v1/webhooks", { url: stack.receiver().url("/x"), signatureSchemes: ["v2"] });
      expect(bad.status).toBe(400);
      expect(bad.json().error).toBe("VALIDATION_FAILED");
      const twice = await plain.api.post("/v1/webhooks", { url: stack.receiver().url("/x"), signatureSchemes: ["v1", "v1"] });
      expect(twice.json().error).toBe("VALIDATION_FAILED");
    });

    it("signs each delivery with both schemes: v1 for the official library, v1a for an independent Ed25519; a tampered body fails", async () => {
      const s = await subscribe("/v1a/signed", { signatureSchemes: ["v1", "v1a"] });
      const eventId = await sendTest(s);
      const request = await arrived("/v1a/signed", eventId);
      const entries = String(request.headers["webhook-signature"]).split(" ");
      expect(entries.map((entry) => entry.split(",")[0])).toEqual(["v1", "v1a"]);
      expect(verifiesV1(s.hook.secret, request)).toEqual(request.json);
      expect(countV1aSignaturesVerifiedIndependently(s.hook.publicKey!, request.headers, request.body)).toBe(1);
      expect(verifyWebhookWithPublicKey(s.hook.publicKey!, request.headers, request.body).id).toBe(eventId);

      const tampered = request.body.toString("utf8").replace('"webhook.test"', '"webhook.tesT"');
      expect(countV1aSignaturesVerifiedIndependently(s.hook.publicKey!, request.headers, tampered)).toBe(0);
      expect(() => verifyWebhookWithPublicKey(s.hook.publicKey!, request.headers, tampered)).toThrow(/no v1a/);
      expect(() => new Webhook(s.hook.secret).verify(tampered, headersOf(request))).toThrow();
    });

    it("rotation replaces the key pair too: both sign v1 and v1a for 24 h, then only the new ones", async () => {
      const s = await subscribe("/v1a/rotating", { signatureSchemes: ["v1", "v1a"] });
      const rotated = (await s.api.post(`/v1/webhooks/${s.hook.id}/rotate-secret`)).json() as Hook;
      expect(rotated.publicKey).toMatch(/^whpk_/);
      expect(rotated.publicKey).not.toBe(s.hook.publicKey);
      const during = await arrived("/v1a/rotating", await sendTest(s));
      expect(
        String(during.headers["webhook-signature"])
          .split(" ")
          .map((entry) => entry.split(",")[0]),
      ).toEqual(["v1", "v1", "v1a", "v1a"]);
      for (const hook of [rotated, s.hook]) {
        expect(verifiesV1(hook.secret, during)).toEqual(during.json);
        expect(countV1aSignaturesVerifiedIndependently(hook.publicKey!, during.headers, during.body)).toBe(1);
      }

      clock.advanceTo(new Date(Date.parse(rotated.previousSecretExpiresAt!) + 60_000));
      const after = await arrived("/v1a/rotating", await sendTest(s));
      expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      expect(countV1aSignaturesVerifiedIndependently(rotated.publicKey!, after.headers, after.body)).toBe(1);
      expect(countV1aSignaturesVerifiedIndependently(s.hook.publicKey!, after.headers, after.body)).toBe(0);
      expect(() => verifiesV1(s.hook.secret, after)).toThrow();
    });

    it("PUT adds v1a (a new key pair) and removes it (the pair is destroyed)", async () => {
      const s = await subscribe("/v1a/update");
      const added = (await s.api.put(`/v1/webhooks/${s.hook.id}`, { signatureSchemes: ["v1", "v1a"] })).json() as Hook;
      expect(added.publicKey).toMatch(/^whpk_/);
      const signed = await arrived("/v1a/update", await sendTest(s));
      expect(countV1aSignaturesVerifiedIndependently(added.publicKey!, signed.headers, signed.body)).toBe(1);
      // Unchanged schemes keep the key.
      expect((await s.api.put(`/v1/webhooks/${s.hook.id}`, { signatureSchemes: ["v1a", "v1"] })).json().publicKey).toBe(added.publicKey);
      const removed = (await s.api.put(`/v1/webhooks/${s.hook.id}`, { signatureSchemes: ["v1"] })).json() as Hook;
      expect(removed).toMatchObject({ signatureSchemes: ["v1"], publicKey: null });
      const [row] = await t.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, s.hook.id));
      expect(row!.signingKeyCiphertext).toBeNull();
      const unsigned = await arrived("/v1a/update", await sendTest(s));
      expect(String(unsigned.headers["webhook-signature"])).toMatch(/^v1,[^ ]+$/);
    });
  });
});
