import { EVENT_TYPES, EVENTS } from "@qc/core";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { verifyWebhook, verifyWebhookWithPublicKey } from "@qc/webhooks";
import { countV1aSignaturesVerifiedIndependently } from "@qc/webhooks/testing";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { expectError } from "./custody-helpers";
import { call, startTestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { sendTestEvent, subscribeReceiver, useWebhookDeliveryStack, type DeliveryView, type ReceivedRequest } from "./webhooks-receiver";

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
  type Subscriber = Awaited<ReturnType<typeof subscribe>>;
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

  describe("resend", () => {
    /** What the sweeper waits past a delivery's time before it takes it (six sweeps of 200 ms), plus a margin. */
    const PAST_GRACE_MS = 6 * 200 + 500;
    const deliveries = async (s: Subscriber): Promise<DeliveryView[]> =>
      (await s.api.get(`/v1/webhooks/${s.hook.id}/deliveries`)).json().deliveries;
    const requestsFor = (path: string, eventId: string) => receivedAt(path).filter((r) => r.headers["webhook-id"] === eventId);
    const resend = (s: Subscriber, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      call(stack.server(), `/v1/webhooks/${s.hook.id}/resend`, {
        method: "POST",
        headers: { authorization: s.tenant.authorization, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });

    /** Drives every delivery of `s` through its whole retry schedule (the clock jumps to each next attempt) until all are FAILED. */
    async function failEverything(s: Subscriber, count: number): Promise<DeliveryView[]> {
      for (;;) {
        // Each round: wait until no attempt is due or under way, then jump to the latest next attempt.
        const settled = await eventually(async () => {
          const list = await deliveries(s);
          const now = clock.now().getTime();
          const idle =
            list.length === count &&
            list.every(
              (d) => d.status === "FAILED" || (d.status === "PENDING" && Date.parse(d.nextAttemptAt!) > now && d.attemptCount > 0),
            );
          return idle ? list : undefined;
        });
        const pending = settled.filter((d) => d.status === "PENDING");
        if (pending.length === 0) return settled;
        // A leased delivery's next attempt is its lease's end: wait for the attempt rather than jump past it.
        const latest = Math.max(...pending.map((d) => Date.parse(d.nextAttemptAt!)));
        clock.advanceTo(new Date(latest + PAST_GRACE_MS));
      }
    }

    it("after a receiver outage, resends each failed event of the window exactly once more, with its original webhook-id", async () => {
      let down = true;
      const path = "/resend/outage";
      stack.receiver().script(path, () => (down ? { status: 500, body: "down" } : { status: 204 }));
      const s = await subscribe(path, { signatureSchemes: ["v1", "v1a"] });
      const [before, ...inside] = [await sendTest(s), await sendTest(s), await sendTest(s), await sendTest(s)];
      const failed = await failEverything(s, 4);
      expect(failed.map((d) => d.attemptCount)).toEqual([8, 8, 8, 8]);
      const attemptsDuringOutage = (eventId: string) => requestsFor(path, eventId).length;
      for (const eventId of [before!, ...inside]) expect(attemptsDuringOutage(eventId)).toBe(8);

      // The window starts at the second event's creation (its body's timestamp): the first is outside.
      const createdAt = (eventId: string) => requestsFor(path, eventId)[0]!.json.timestamp;
      expect(Date.parse(createdAt(before!))).toBeLessThan(Date.parse(createdAt(inside[0]!)));
      down = false;
      const res = await resend(s, { since: createdAt(inside[0]!) });
      expect(res.status, res.text).toBe(202);
      expect(res.json()).toEqual({ queued: 3 });
      for (const eventId of inside) {
        await eventually(async () => requestsFor(path, eventId).length === 9);
      }
      // Settled: every resent delivery DELIVERED, the one outside the window still FAILED and not sent.
      const after = await eventually(async () => {
        const list = await deliveries(s);
        return list.filter((d) => d.status === "DELIVERED").length === 3 ? list : undefined;
      });
      expect(after.find((d) => d.eventId === before)).toMatchObject({ status: "FAILED" });
      await new Promise((resolve) => setTimeout(resolve, PAST_GRACE_MS));
      expect(attemptsDuringOutage(before!)).toBe(8);
      for (const eventId of inside) {
        const requests = requestsFor(path, eventId);
        expect(requests).toHaveLength(9);
        const last = requests.at(-1)!;
        expect(last.json.id).toBe(eventId);
        expect(last.body.equals(requests[0]!.body)).toBe(true);
        // Signed at the (driven) clock's time: checked against that time, not the wall clock.
        expect(verifyWebhook(s.hook.secret, last.headers, last.body, { nowSeconds: Number(last.headers["webhook-timestamp"]) }).id).toBe(
          eventId,
        );
        expect(countV1aSignaturesVerifiedIndependently(s.hook.publicKey!, last.headers, last.body)).toBe(1);
      }

      // onlyFailed (default true): nothing failed any more, nothing to send.
      expect((await resend(s, { since: createdAt(inside[0]!) })).json()).toEqual({ queued: 0 });
      // onlyFailed: false resends the delivered ones as well (and the failed one, when its event is in the window).
      const all = await resend(s, { since: createdAt(before!), onlyFailed: false });
      expect(all.json()).toEqual({ queued: 4 });
      for (const eventId of inside) await eventually(async () => requestsFor(path, eventId).length === 10);
      await eventually(async () => attemptsDuringOutage(before!) === 9);

      // Outside the window: nothing. A window entirely before the events, and one after them.
      const earlier = new Date(Date.parse(createdAt(before!)) - 3600_000);
      expect((await resend(s, { since: earlier.toISOString(), until: createdAt(before!), onlyFailed: false })).json()).toEqual({
        queued: 0,
      });
      const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "webhook.deliveries_resent"));
      expect(audit.filter((a) => a.targetId === s.hook.id).map((a) => (a.details as { queued: number }).queued)).toEqual([3, 0, 4, 0]);
    });

    it("never sends a delivery in flight twice: a PENDING delivery is left to its schedule", async () => {
      const path = "/resend/in-flight";
      stack.receiver().script(path, (request) => (request.nth === 1 ? "hang" : { status: 204 }));
      const s = await subscribe(path);
      const eventId = await sendTest(s);
      await eventually(async () => stack.receiver().held() === 1);
      const since = new Date(Date.now() - 60_000).toISOString();
      const res = await resend(s, { since, onlyFailed: false });
      expect(res.json()).toEqual({ queued: 0 });
      // The held attempt times out and is retried on its schedule; the resend added no attempt of its own.
      const [delivery] = await eventually(async () => {
        const list = await deliveries(s);
        return list[0]?.status === "PENDING" && list[0].attemptCount === 1 ? list : undefined;
      });
      clock.advanceTo(new Date(Date.parse(delivery!.nextAttemptAt!) + PAST_GRACE_MS));
      await eventually(async () => (await deliveries(s))[0]?.status === "DELIVERED");
      expect(requestsFor(path, eventId)).toHaveLength(2);
    });

    it("is idempotent with X-Idempotency-Key, validates its window, and refuses a disabled endpoint (409)", async () => {
      const path = "/resend/rules";
      stack.receiver().script(path, () => ({ status: 400 }));
      const s = await subscribe(path);
      const eventId = await sendTest(s);
      await eventually(async () => (await deliveries(s))[0]?.status === "FAILED");
      const since = new Date(Date.now() - 60_000).toISOString();
      const first = await resend(s, { since }, { "x-idempotency-key": "resend-rules-1" });
      expect(first.json()).toEqual({ queued: 1 });
      await eventually(async () => requestsFor(path, eventId).length === 2 && (await deliveries(s))[0]?.status === "FAILED");
      const replay = await resend(s, { since }, { "x-idempotency-key": "resend-rules-1" });
      expect(replay.status).toBe(202);
      expect(replay.json()).toEqual({ queued: 1 });
      await new Promise((resolve) => setTimeout(resolve, PAST_GRACE_MS));
      expect(requestsFor(path, eventId)).toHaveLength(2);

      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      for (const body of [
        { since: iso(now - 8 * 24 * 3600_000) },
        { since: iso(now), until: iso(now - 1000) },
        { since: iso(now), until: iso(now) },
        { since: "yesterday" },
        {},
        { since: iso(now - 1000), onlyFailed: "yes" },
      ]) {
        expectError(await resend(s, body), 400, "VALIDATION_FAILED", 1001);
      }
      expect((await resend(s, { since: iso(now - 7 * 24 * 3600_000), until: iso(now) })).status).toBe(202);

      await s.api.put(`/v1/webhooks/${s.hook.id}`, { enabled: false });
      expectError(await resend(s, { since }), 409, "CONFLICT", 1040);
      const stranger = await subscribe("/resend/stranger");
      expectError(
        await call(stack.server(), `/v1/webhooks/${s.hook.id}/resend`, {
          method: "POST",
          headers: { authorization: stranger.tenant.authorization, "content-type": "application/json" },
          body: JSON.stringify({ since }),
        }),
        404,
        "NOT_FOUND",
        1030,
      );
    });
  });

  describe("simulate", () => {
    const simulate = (s: Subscriber, type: string) => s.api.post(`/v1/webhooks/${s.hook.id}/simulate`, { type });

    it("sends every catalog type as a real signed delivery whose data matches the type's schema, with simulated: true", async () => {
      const path = "/simulate/all";
      // A filter that matches none of them: a simulated event goes to the endpoint it names all the same.
      const s = await subscribe(path, { events: ["vault.archived"], signatureSchemes: ["v1", "v1a"] });
      const bystander = await subscribeReceiver(t, stack, "/simulate/bystander", {}, s.tenant);
      const sent = new Map<string, string>();
      for (const type of EVENT_TYPES) {
        const res = await simulate(s, type);
        expect(res.status, res.text).toBe(202);
        expect(res.json()).toMatchObject({ webhookId: s.hook.id, type });
        sent.set(res.json().eventId, type);
      }
      await eventually(async () => receivedAt(path).length === EVENT_TYPES.length);
      for (const request of receivedAt(path)) {
        const type = sent.get(String(request.headers["webhook-id"]))!;
        expect(request.json).toMatchObject({ id: request.headers["webhook-id"], type });
        expect(verifiesV1(s.hook.secret, request)).toEqual(request.json);
        expect(countV1aSignaturesVerifiedIndependently(s.hook.publicKey!, request.headers, request.body)).toBe(1);
        const { simulated, ...data } = request.json.data;
        expect(simulated).toBe(true);
        expect(EVENTS[type as keyof typeof EVENTS].data.parse(data)).toEqual(data);
      }
      expect(new Set([...sent.values()])).toEqual(new Set(EVENT_TYPES));
      expect(receivedAt("/simulate/bystander")).toHaveLength(0);
      expect(bystander.hook.id).not.toBe(s.hook.id);
    });

    it("refuses an unknown type (400), a disabled endpoint (409), and does not exist in production (404)", async () => {
      const s = await subscribe("/simulate/rules");
      expectError(await simulate(s, "transaction.teleported"), 400, "VALIDATION_FAILED", 1001);
      expectError(await s.api.post(`/v1/webhooks/${s.hook.id}/simulate`, {}), 400, "VALIDATION_FAILED", 1001);
      const production = await startTestServer({ database: t, config: { production: true } });
      try {
        const res = await call(production, `/v1/webhooks/${s.hook.id}/simulate`, {
          method: "POST",
          headers: { authorization: s.tenant.authorization, "content-type": "application/json" },
          body: JSON.stringify({ type: "webhook.test" }),
        });
        expectError(res, 404, "NOT_FOUND", 1030);
        expect(res.json().message).toMatch(/production/);
      } finally {
        await production.close();
      }
      await s.api.put(`/v1/webhooks/${s.hook.id}`, { enabled: false });
      expectError(await simulate(s, "wallet.created"), 409, "CONFLICT", 1040);
    });
  });
});
