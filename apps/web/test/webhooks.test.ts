import { defaultWebhookConfig } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectError, type Client } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { trpcMutation } from "./identity-helpers";

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const RECORD_KEYS = [
  "createdAt",
  "description",
  "disabledAt",
  "disabledReason",
  "events",
  "failingSince",
  "id",
  "previousSecretExpiresAt",
  "publicKey",
  "signatureSchemes",
  "status",
  "tenantId",
  "updatedAt",
  "url",
];

describe("webhook subscriptions over real HTTPS", () => {
  const t = useTestDatabase();
  /** As in production: https and public addresses only. */
  let strict: TestServer;
  /** WEBHOOK_ALLOW_PRIVATE_URLS, so endpoints can point at loopback. */
  let lenient: TestServer;
  let a: TenantFixture;
  let b: TenantFixture;
  let apiA: Client;
  let apiB: Client;
  let strictA: Client;

  beforeAll(async () => {
    strict = await startTestServer({ database: t });
    lenient = await startTestServer({ database: t, config: { webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true } } });
    a = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    b = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    apiA = client(() => lenient, a.authorization);
    apiB = client(() => lenient, b.authorization);
    strictA = client(() => strict, a.authorization);
  });
  afterAll(async () => {
    await strict?.close();
    await lenient?.close();
  });

  const del = (api: "a" | "b", path: string) =>
    call(lenient, path, { method: "DELETE", headers: { authorization: (api === "a" ? a : b).authorization } });
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await apiA.post("/v1/webhooks", { url: "https://127.0.0.1:9/hooks", ...body });
    expect(res.status, res.text).toBe(201);
    return res.json() as { id: string; secret: string; url: string; events: string[]; status: string };
  };

  it("creates (201) with a secret shown once, stored only sealed, never listed or audited", async () => {
    const res = await apiA.post("/v1/webhooks", {
      url: "https://127.0.0.1:9/hooks?token=abc",
      events: ["transaction.status_changed", "transaction.status_changed", "wallet.created"],
      description: "ledger",
    });
    expect(res.status, res.text).toBe(201);
    const created = res.json();
    expect(Object.keys(created).sort()).toEqual([...RECORD_KEYS, "secret"].sort());
    expect(created).toMatchObject({
      tenantId: a.tenantId,
      url: "https://127.0.0.1:9/hooks?token=abc",
      events: ["transaction.status_changed", "wallet.created"],
      description: "ledger",
      status: "ENABLED",
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(created.secret).toMatch(SECRET);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);

    const fetched = await apiA.get(`/v1/webhooks/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.json()).toEqual(Object.fromEntries(Object.entries(created).filter(([key]) => key !== "secret")));
    const listed = await apiA.get("/v1/webhooks");
    expect(listed.json().webhooks.map((w: { id: string }) => w.id)).toContain(created.id);
    for (const text of [fetched.text, listed.text]) expect(text).not.toContain(created.secret.slice(6));

    const [row] = await t.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, created.id));
    expect(row!.secretCiphertext).toMatch(/^v1\./);
    expect(row!.secretCiphertext).not.toContain(created.secret.slice(6));
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, created.id), eq(schema.auditEvents.action, "webhook.created")));
    expect(audit).toHaveLength(1);
    // The origin only: a token in the URL is not copied into the audit trail.
    expect(audit[0]!.details).toEqual({
      origin: "https://127.0.0.1:9",
      events: ["transaction.status_changed", "wallet.created"],
      signatureSchemes: ["v1"],
    });
    expect(JSON.stringify(audit)).not.toContain(created.secret.slice(6));
  });

  it("refuses URLs that are not https or not public, naming the reason, and creates nothing", async () => {
    const cases: [string, string, RegExp][] = [
      ["https://127.0.0.1/hooks", "ADDRESS_NOT_PUBLIC", /127\.0\.0\.1 is a loopback address/],
      ["https://10.0.0.1/hooks", "ADDRESS_NOT_PUBLIC", /10\.0\.0\.1 is a private \(RFC 1918\) address/],
      ["https://[::1]/hooks", "ADDRESS_NOT_PUBLIC", /::1 is a loopback address/],
      ["https://[::ffff:127.0.0.1]/hooks", "ADDRESS_NOT_PUBLIC", /::ffff:7f00:1 is a loopback address/],
      ["https://169.254.169.254/latest/meta-data", "ADDRESS_NOT_PUBLIC", /link-local/],
      ["https://localhost/hooks", "ADDRESS_NOT_PUBLIC", /host "localhost" resolves to (127\.0\.0\.1|::1), which is a loopback address/],
      ["http://hooks.example.com/hooks", "SCHEME_NOT_ALLOWED", /must use https, not http/],
      ["https://user:pw@hooks.example.com/hooks", "CREDENTIALS_IN_URL", /user name or password/],
      ["not a url", "INVALID_URL", /not a valid absolute URL/],
    ];
    const before = await t.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.tenantId, a.tenantId));
    for (const [url, reason, message] of cases) {
      const res = await strictA.post("/v1/webhooks", { url });
      expectError(res, 400, "VALIDATION_FAILED", 1001);
      expect(res.json().message, url).toMatch(message);
      expect(res.json().details, url).toMatchObject({ reason, fields: [{ path: "url" }] });
    }
    const after = await t.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.tenantId, a.tenantId));
    expect(after).toHaveLength(before.length);

    // The same vetting on update, even for an endpoint saved while private URLs were allowed.
    const hook = await create();
    const res = await strictA.put(`/v1/webhooks/${hook.id}`, { url: "https://10.0.0.1/hooks" });
    expectError(res, 400, "VALIDATION_FAILED", 1001);
    expect(res.json().details.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect((await apiA.get(`/v1/webhooks/${hook.id}`)).json().url).toBe(hook.url);
    // With WEBHOOK_ALLOW_PRIVATE_URLS, plain http to loopback is fine (development only).
    expect((await apiA.post("/v1/webhooks", { url: "http://127.0.0.1:9/dev" })).status).toBe(201);
  });

  it("validates event types against the catalog and the other fields", async () => {
    const unknown = await apiA.post("/v1/webhooks", {
      url: "https://127.0.0.1:9/x",
      events: ["transaction.created", "transaction.exploded"],
    });
    expectError(unknown, 400, "VALIDATION_FAILED", 1001);
    expect(unknown.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["events.1"]);
    expectError(
      await apiA.post("/v1/webhooks", { url: "https://127.0.0.1:9/x", events: "transaction.created" }),
      400,
      "VALIDATION_FAILED",
      1001,
    );
    expectError(
      await apiA.post("/v1/webhooks", { url: "https://127.0.0.1:9/x", description: "d".repeat(501) }),
      400,
      "VALIDATION_FAILED",
      1001,
    );
    expectError(await apiA.post("/v1/webhooks", {}), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/webhooks/not-a-uuid"), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/webhooks?limit=0"), 400, "VALIDATION_FAILED", 1001);
  });

  it("updates url, events, description and enabled; an empty change is refused", async () => {
    const hook = await create({ events: ["wallet.created"], description: "first" });
    const res = await apiA.put(`/v1/webhooks/${hook.id}`, { url: "https://127.0.0.1:10/moved", events: [], description: null });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ url: "https://127.0.0.1:10/moved", events: [], description: null, status: "ENABLED" });

    const disabled = (await apiA.put(`/v1/webhooks/${hook.id}`, { enabled: false })).json();
    expect(disabled).toMatchObject({ status: "DISABLED", disabledReason: "MANUAL" });
    expect(disabled.disabledAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expectError(await apiA.post(`/v1/webhooks/${hook.id}/test`), 409, "CONFLICT", 1040);
    const enabled = (await apiA.put(`/v1/webhooks/${hook.id}`, { enabled: true })).json();
    expect(enabled).toMatchObject({ status: "ENABLED", disabledReason: null, disabledAt: null, failingSince: null });

    expectError(await apiA.put(`/v1/webhooks/${hook.id}`, {}), 400, "VALIDATION_FAILED", 1001);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, hook.id), eq(schema.auditEvents.action, "webhook.updated")));
    expect(audit).toHaveLength(3);
  });

  it("rotates the secret: a new one shown once, the old one still signing for 24 h", async () => {
    const hook = await create();
    const before = Date.now();
    const res = await apiA.post(`/v1/webhooks/${hook.id}/rotate-secret`);
    expect(res.status, res.text).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(hook.secret);
    const overlapEnds = Date.parse(rotated.previousSecretExpiresAt);
    expect(overlapEnds).toBeGreaterThanOrEqual(before + 24 * 3600_000);
    expect(overlapEnds).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    const fetched = await apiA.get(`/v1/webhooks/${hook.id}`);
    expect(fetched.json()).not.toHaveProperty("secret");
    expect(fetched.text).not.toContain(rotated.secret.slice(6));
    const [row] = await t.db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.id, hook.id));
    expect(row!.previousSecretCiphertext).toMatch(/^v1\./);
    expect(row!.previousSecretCiphertext).not.toBe(row!.secretCiphertext);
  });

  it("queues a test event for that endpoint only (202)", async () => {
    const hook = await create({ events: ["wallet.created"] });
    const res = await apiA.post(`/v1/webhooks/${hook.id}/test`);
    expect(res.status, res.text).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ webhookId: hook.id, type: "webhook.test" });
    const [event] = await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.id, body.eventId));
    expect(event).toMatchObject({
      tenantId: a.tenantId,
      type: "webhook.test",
      aggregateType: "webhook",
      aggregateId: hook.id,
      data: { webhookId: hook.id },
    });
  });

  it("lists newest first with a cursor, and deletes (soft): gone everywhere afterwards", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const api = client(() => lenient, tenant.authorization);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.post("/v1/webhooks", { url: `https://127.0.0.1:9/h${i}` })).json().id);
    const first = (await api.get("/v1/webhooks?limit=2")).json();
    expect(first.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(first.page.hasMore).toBe(true);
    const second = (await api.get(`/v1/webhooks?limit=2&cursor=${first.page.nextCursor}`)).json();
    expect(second).toEqual({ webhooks: [expect.objectContaining({ id: ids[0] })], page: { nextCursor: null, hasMore: false } });

    const deleted = await call(lenient, `/v1/webhooks/${ids[1]}`, { method: "DELETE", headers: { authorization: tenant.authorization } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json()).toEqual({ id: ids[1], deleted: true });
    expectError(await api.get(`/v1/webhooks/${ids[1]}`), 404, "NOT_FOUND", 1030);
    expectError(await api.put(`/v1/webhooks/${ids[1]}`, { enabled: false }), 404, "NOT_FOUND", 1030);
    expectError(await api.get(`/v1/webhooks/${ids[1]}/deliveries`), 404, "NOT_FOUND", 1030);
    expect((await api.get("/v1/webhooks")).json().webhooks.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[0]]);
  });

  it("keeps tenants apart and needs the admin scope for every route", async () => {
    const hook = await create();
    expectError(await apiB.get(`/v1/webhooks/${hook.id}`), 404, "NOT_FOUND", 1030);
    expectError(await apiB.put(`/v1/webhooks/${hook.id}`, { enabled: false }), 404, "NOT_FOUND", 1030);
    expectError(await apiB.post(`/v1/webhooks/${hook.id}/rotate-secret`), 404, "NOT_FOUND", 1030);
    expectError(await apiB.post(`/v1/webhooks/${hook.id}/test`), 404, "NOT_FOUND", 1030);
    expectError(await apiB.get(`/v1/webhooks/${hook.id}/deliveries`), 404, "NOT_FOUND", 1030);
    expectError(await del("b", `/v1/webhooks/${hook.id}`), 404, "NOT_FOUND", 1030);
    expect((await apiB.get("/v1/webhooks")).json().webhooks.map((w: { id: string }) => w.id)).not.toContain(hook.id);

    const writer = client(() => lenient, (await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, a, ["write"])).authorization);
    for (const res of [
      await writer.get("/v1/webhooks"),
      await writer.get(`/v1/webhooks/${hook.id}`),
      await writer.post("/v1/webhooks", { url: "https://127.0.0.1:9/w" }),
      await writer.post(`/v1/webhooks/${hook.id}/rotate-secret`),
      await writer.get(`/v1/webhooks/${hook.id}/deliveries`),
    ]) {
      expectError(res, 403, "INSUFFICIENT_SCOPE", 1020);
    }
    expect((await apiA.get(`/v1/webhooks/${hook.id}`)).json().status).toBe("ENABLED");
  });

  it("serves the same operations over tRPC", async () => {
    const res = await trpcMutation(
      lenient,
      "webhooks.create",
      { url: "https://127.0.0.1:9/trpc", events: ["vault.archived"] },
      { authorization: a.authorization },
    );
    expect(res.status, res.text).toBe(200);
    const created = res.json().result.data.json;
    expect(created).toMatchObject({ url: "https://127.0.0.1:9/trpc", events: ["vault.archived"] });
    expect(created.secret).toMatch(SECRET);
    const refused = await trpcMutation(strict, "webhooks.create", { url: "https://10.0.0.1/x" }, { authorization: a.authorization });
    expect(refused.status).toBe(400);
    expect(refused.json().error.json).toMatchObject({ error: "VALIDATION_FAILED", code: 1001, details: { reason: "ADDRESS_NOT_PUBLIC" } });
  });
});
