import { systemActor, transitionTransaction, type TransactionStatus } from "@qc/core";
import { createSubmittedTransferFixture, createTenantFixture, createTransferWalletFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { RETRY_DELAYS_SECONDS, verifyWebhook, WebhookVerificationError } from "@qc/webhooks";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { createVault, expectError, type Client } from "./custody-helpers";
import { TEST_PEPPER, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { sendTestEvent, subscribeReceiver, useWebhookDeliveryStack, type DeliveryView, type ReceivedRequest } from "./webhooks-receiver";

const SWEEP_MS = 200;
/** What the sweeper waits past a delivery's time before it takes it (six sweeps), plus a margin. */
const PAST_GRACE_MS = 6 * SWEEP_MS + 500;

describe("webhook delivery: fan-out, signing, retries, disabling", () => {
  const t = useTestDatabase();
  const stack = useWebhookDeliveryStack(t, { sweepIntervalMs: SWEEP_MS });
  const { clock, receivedAt } = stack;
  let server: TestServer;
  beforeAll(() => {
    server = stack.server();
  });

  interface Subscriber {
    tenant: TenantFixture;
    api: Client;
    hook: { id: string; secret: string };
  }

  const subscribe = (path: string, body: Record<string, unknown> = {}, tenant?: TenantFixture): Promise<Subscriber> =>
    subscribeReceiver(t, stack, path, body, tenant);
  const sendTest = sendTestEvent;
  const deliveries = async (s: Subscriber): Promise<DeliveryView[]> => {
    const res = await s.api.get(`/v1/webhooks/${s.hook.id}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return res.json().deliveries;
  };
  const deliveryOf = async (s: Subscriber, eventId: string) => (await deliveries(s)).find((d) => d.eventId === eventId);
  const waitForDelivery = (s: Subscriber, eventId: string, done: (d: DeliveryView) => boolean) =>
    eventually(async () => {
      const delivery = await deliveryOf(s, eventId);
      return delivery && done(delivery) ? delivery : undefined;
    });
  const verifiesWith = (secret: string, request: ReceivedRequest) =>
    verifyWebhook(secret, request.headers, request.body, { nowSeconds: Number(request.headers["webhook-timestamp"]) });
  /** Brings the delivery's next attempt due, past the sweeper's grace. */
  const bringDue = (delivery: DeliveryView) => clock.advanceTo(new Date(Date.parse(delivery.nextAttemptAt!) + PAST_GRACE_MS));

  it("signs the exact bytes it sends; the official standardwebhooks library and verifyWebhook both accept them", async () => {
    const s = await subscribe("/signed");
    const eventId = await sendTest(s);
    const delivered = await waitForDelivery(s, eventId, (d) => d.status === "DELIVERED");
    expect(delivered.attempts).toMatchObject([{ statusCode: 204, error: null }]);

    const [request] = receivedAt("/signed");
    expect(request!.headers["webhook-id"]).toBe(eventId);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(request!.json)).toEqual(["id", "type", "timestamp", "sequence", "data"]);
    expect(request!.json).toMatchObject({ id: eventId, type: "webhook.test", sequence: 1, data: { webhookId: s.hook.id } });

    const raw = request!.body.toString("utf8");
    const headers = request!.headers as Record<string, string>;
    expect(new Webhook(s.hook.secret).verify(raw, headers)).toEqual(request!.json);
    expect(verifyWebhook(s.hook.secret, request!.headers, request!.body, { toleranceSeconds: 300 }).payload).toEqual(request!.json);

    // Each verifier refuses a tampered body, an old timestamp and another secret.
    const tampered = raw.replace('"webhook.test"', '"webhook.tesT"');
    expect(() => new Webhook(s.hook.secret).verify(tampered, headers)).toThrow();
    expect(() => verifyWebhook(s.hook.secret, headers, tampered)).toThrow(WebhookVerificationError);
    const other = (await subscribe("/other")).hook.secret;
    expect(() => new Webhook(other).verify(raw, headers)).toThrow();
    expect(() => verifyWebhook(other, headers, raw)).toThrow(/no webhook-signature matches/);
    const stale = { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 600) };
    expect(() => new Webhook(s.hook.secret).verify(raw, stale)).toThrow();
    expect(() => verifyWebhook(s.hook.secret, stale, raw)).toThrow(WebhookVerificationError);
  });

  it("signs with both secrets during a rotation, each verifying on its own, then with the new one only", async () => {
    const s = await subscribe("/rotating");
    const rotated = await s.api.post(`/v1/webhooks/${s.hook.id}/rotate-secret`);
    const newSecret = rotated.json().secret as string;
    const during = await sendTest(s);
    await waitForDelivery(s, during, (d) => d.status === "DELIVERED");
    const [request] = receivedAt("/rotating");
    const signatures = String(request!.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    for (const secret of [newSecret, s.hook.secret]) {
      expect(new Webhook(secret).verify(request!.body.toString("utf8"), request!.headers as Record<string, string>)).toEqual(request!.json);
      expect(verifyWebhook(secret, request!.headers, request!.body).id).toBe(during);
    }
    // The first signature is the new secret's: each one verifies alone.
    for (const [index, secret] of [newSecret, s.hook.secret].entries()) {
      expect(verifyWebhook(secret, { ...request!.headers, "webhook-signature": signatures[index] }, request!.body).id).toBe(during);
    }

    // 24 hours later the old secret no longer signs.
    clock.advanceTo(new Date(Date.parse(rotated.json().previousSecretExpiresAt) + 60_000));
    const after = await sendTest(s);
    await waitForDelivery(s, after, (d) => d.status === "DELIVERED");
    const late = receivedAt("/rotating").find((r) => r.json.id === after)!;
    expect(String(late.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifiesWith(newSecret, late).id).toBe(after);
    expect(() => verifiesWith(s.hook.secret, late)).toThrow(/no webhook-signature matches/);
  });

  it("retries a receiver that fails 3 times on the schedule, then delivers: 4 attempts, one webhook-id, the same bytes", async () => {
    stack
      .receiver()
      .script("/flaky", (request) => (request.nth <= 3 ? { status: 503, body: `busy ${request.nth}` } : { status: 200, body: "ok" }));
    const s = await subscribe("/flaky");
    const eventId = await sendTest(s);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const pending = await waitForDelivery(s, eventId, (d) => d.attempts.length === attempt && d.status === "PENDING");
      const last = pending.attempts.at(-1)!;
      expect(last).toMatchObject({ statusCode: 503, responseExcerpt: `busy ${attempt}`, error: "HTTP 503" });
      // CONTRACT §7: 5 s, 5 min, 30 min after the failures, each within its ±10 % jitter.
      const waited = (Date.parse(pending.nextAttemptAt!) - Date.parse(last.attemptedAt)) / 1000;
      const planned = RETRY_DELAYS_SECONDS[attempt - 1]!;
      expect(waited).toBeGreaterThanOrEqual(planned * 0.9);
      expect(waited).toBeLessThanOrEqual(planned * 1.1 + 2);
      expect(receivedAt("/flaky")).toHaveLength(attempt);
      // A pending delivery already has its schedule: a manual retry is refused.
      if (attempt === 1) expectError(await s.api.post(`/v1/webhooks/deliveries/${pending.id}/retry`), 409, "CONFLICT", 1040);
      bringDue(pending);
    }
    const delivered = await waitForDelivery(s, eventId, (d) => d.status === "DELIVERED");
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 200]);
    expect(delivered).toMatchObject({ attemptCount: 4, nextAttemptAt: null });

    const requests = receivedAt("/flaky");
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([eventId]));
    for (const request of requests) {
      expect(request.body.equals(requests[0]!.body)).toBe(true);
      expect(verifiesWith(s.hook.secret, request).id).toBe(eventId);
    }
    // Each attempt is signed at its own time: the timestamps follow the (driven) clock.
    const stamps = requests.map((r) => Number(r.headers["webhook-timestamp"]));
    expect(stamps[1]! - stamps[0]!).toBeGreaterThanOrEqual(4);
    expect(stamps[2]! - stamps[1]!).toBeGreaterThanOrEqual(270);
    expect(stamps[3]! - stamps[2]!).toBeGreaterThanOrEqual(1620);
    expect((await s.api.get(`/v1/webhooks/${s.hook.id}`)).json().failingSince).toBeNull();
  });

  it("records a slow receiver's timeout and retries it", async () => {
    stack.receiver().script("/slow", (request) => (request.nth === 1 ? "hang" : { status: 200 }));
    const s = await subscribe("/slow");
    const eventId = await sendTest(s);
    const pending = await waitForDelivery(s, eventId, (d) => d.attempts.length === 1 && d.status === "PENDING");
    expect(pending.attempts[0]).toMatchObject({ statusCode: null, responseExcerpt: null, error: "timed out after 1000 ms" });
    expect(pending.attempts[0]!.durationMs).toBeGreaterThanOrEqual(990);
    bringDue(pending);
    const delivered = await waitForDelivery(s, eventId, (d) => d.status === "DELIVERED");
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([null, 200]);
    expect(receivedAt("/slow").map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
  });

  it("disables the endpoint on 410 with its pending deliveries, emails the admins, and resends by hand once re-enabled", async () => {
    let gone = true;
    stack
      .receiver()
      .script("/gone", (request) => (request.nth === 1 ? { status: 500 } : gone ? { status: 410, body: "no such hook" } : { status: 200 }));
    const s = await subscribe("/gone");
    const first = await sendTest(s);
    await waitForDelivery(s, first, (d) => d.attempts.length === 1 && d.status === "PENDING");
    const second = await sendTest(s);
    const disabled = await waitForDelivery(s, second, (d) => d.status === "DISABLED");
    expect(disabled.attempts).toMatchObject([{ statusCode: 410, responseExcerpt: "no such hook", error: "HTTP 410" }]);
    expect(await deliveryOf(s, first)).toMatchObject({ status: "DISABLED", nextAttemptAt: null });
    expect((await s.api.get(`/v1/webhooks/${s.hook.id}`)).json()).toMatchObject({ status: "DISABLED", disabledReason: "GONE" });

    const emails = await t.db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.tenantId, s.tenant.tenantId), eq(schema.emails.kind, "webhook_disabled")));
    expect(emails.map((e) => e.to)).toEqual([s.tenant.email]);
    expect(emails[0]!.text).toContain("410 Gone");
    expect(emails[0]!.text).not.toContain(s.hook.secret);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, s.hook.id), eq(schema.auditEvents.action, "webhook.disabled")));
    expect(audit.map((a) => a.details)).toEqual([{ reason: "GONE", stoppedDeliveries: 1 }]);

    // Nothing more goes out while disabled; a retry is refused until it is enabled again.
    expectError(await s.api.post(`/v1/webhooks/deliveries/${disabled.id}/retry`), 409, "CONFLICT", 1040);
    gone = false;
    expect((await s.api.put(`/v1/webhooks/${s.hook.id}`, { enabled: true })).json()).toMatchObject({
      status: "ENABLED",
      disabledReason: null,
    });
    const retried = await s.api.post(`/v1/webhooks/deliveries/${disabled.id}/retry`);
    expect(retried.status, retried.text).toBe(202);
    expect(retried.json()).toMatchObject({ id: disabled.id, status: "PENDING", attemptCount: 0 });
    const delivered = await waitForDelivery(s, second, (d) => d.status === "DELIVERED");
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([410, 200]);
    expect(receivedAt("/gone").filter((r) => r.json.id === second)).toHaveLength(2);
    // Another tenant's delivery is not found.
    const stranger = await subscribe("/stranger");
    expectError(await stranger.api.post(`/v1/webhooks/deliveries/${disabled.id}/retry`), 404, "NOT_FOUND", 1030);
  });

  it("disables an endpoint failing for 5 days and emails its admins", async () => {
    stack.receiver().script("/down", () => ({ status: 502 }));
    const s = await subscribe("/down");
    const eventId = await sendTest(s);
    const pending = await waitForDelivery(s, eventId, (d) => d.attempts.length === 1);
    const failingSince = (await s.api.get(`/v1/webhooks/${s.hook.id}`)).json().failingSince as string;
    expect(failingSince).toBe(pending.attempts[0]!.attemptedAt);
    clock.advanceTo(new Date(Date.parse(failingSince) + 5 * 24 * 3600_000 + PAST_GRACE_MS));
    const disabled = await waitForDelivery(s, eventId, (d) => d.status === "DISABLED");
    expect(disabled.attempts.map((a) => a.statusCode)).toEqual([502, 502]);
    expect((await s.api.get(`/v1/webhooks/${s.hook.id}`)).json()).toMatchObject({ status: "DISABLED", disabledReason: "FAILING" });
    const emails = await t.db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.tenantId, s.tenant.tenantId), eq(schema.emails.kind, "webhook_disabled")));
    expect(emails).toHaveLength(1);
    expect(emails[0]!.text).toContain("failed every delivery for 5 days");
  });

  it("fans each event out once to the tenant's matching enabled endpoints, and a replay creates nothing", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const vaultsOnly = await subscribe("/fan/vaults", { events: ["vault.archived"] }, tenant);
    const everything = await subscribe("/fan/all", {}, tenant);
    const switchedOff = await subscribe("/fan/off", {}, tenant);
    await switchedOff.api.put(`/v1/webhooks/${switchedOff.hook.id}`, { enabled: false });
    const otherTenant = await subscribe("/fan/other");

    const vault = await createVault(everything.api);
    expect((await everything.api.post(`/v1/vault/accounts/${vault.id}/archive`)).status).toBe(200);
    const wallet = await everything.api.post(`/v1/vault/accounts/${(await createVault(everything.api)).id}/wallets/watch-only`, {
      address: "0x2222222222222222222222222222222222222222",
    });
    expect(wallet.status, wallet.text).toBe(201);
    await eventually(async () => receivedAt("/fan/all").length === 2 && receivedAt("/fan/vaults").length === 1);
    expect(
      receivedAt("/fan/all")
        .map((r) => r.json.type)
        .sort(),
    ).toEqual(["vault.archived", "wallet.created"]);
    expect(receivedAt("/fan/vaults").map((r) => r.json.type)).toEqual(["vault.archived"]);

    // The same events dispatched again (as after a crash between fan-out and its commit): the
    // unique (endpoint, event) pair makes it a no-op.
    const events = await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.tenantId, tenant.tenantId));
    expect(events.every((e) => e.dispatchedAt !== null)).toBe(true);
    await t.db.update(schema.eventOutbox).set({ dispatchedAt: null }).where(eq(schema.eventOutbox.tenantId, tenant.tenantId));
    await eventually(async () =>
      (await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.tenantId, tenant.tenantId))).every(
        (e) => e.dispatchedAt !== null,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 4 * SWEEP_MS));
    const rows = await t.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.tenantId, tenant.tenantId));
    expect(rows.map((r) => r.endpointId).sort()).toEqual([vaultsOnly.hook.id, everything.hook.id, everything.hook.id].sort());
    expect(receivedAt("/fan/all")).toHaveLength(2);
    expect(receivedAt("/fan/off")).toHaveLength(0);
    expect(receivedAt("/fan/other")).toHaveLength(0);
    expect(await deliveries(otherTenant)).toEqual([]);
  });

  it("delivers a transaction's status changes with increasing sequence, one per status", async () => {
    const s = await subscribe("/ordered", { events: ["transaction.status_changed"] });
    // Stored as create-transfer stores it (row, history, audit, transaction.created), without the
    // checks' job: the daemon running here must not move it before the test does.
    const wallet = await createTransferWalletFixture(server.deps, { tenantId: s.tenant.tenantId });
    const transaction = await createSubmittedTransferFixture(server.deps, {
      tenantId: s.tenant.tenantId,
      wallet,
      destinationAddress: "0x4444444444444444444444444444444444444444",
      amount: 1000n,
    });
    const path: TransactionStatus[] = ["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"];
    for (let i = 1; i < path.length; i++) {
      const moved = await transitionTransaction(server.deps, {
        tenantId: s.tenant.tenantId,
        transactionId: transaction.id,
        from: [path[i - 1]!],
        to: path[i]!,
        actor: systemActor("test"),
      });
      expect(moved.moved).toBe(true);
    }
    await eventually(async () => receivedAt("/ordered").length >= 5);
    const events = receivedAt("/ordered").map((r) => r.json);
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
    const bySequence = [...events].sort((x, y) => x.sequence - y.sequence);
    // Sequence 1 is the aggregate's transaction.created (not subscribed to here).
    expect(bySequence.map((e) => e.sequence)).toEqual([2, 3, 4, 5, 6]);
    expect(bySequence.map((e) => (e.data.transaction as { status: string }).status)).toEqual(path.slice(1));
    expect(bySequence.map((e) => e.data.previousStatus)).toEqual(path.slice(0, -1));
    for (const event of bySequence) expect((event.data.transaction as { id: string }).id).toBe(transaction.id);
  });
});
