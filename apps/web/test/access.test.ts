import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@qc/core";
import { createKeyFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { call, json, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";

/** A clock the server reads for expiry and grace periods, moved by the tests. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const minutes = (n: number) => n * 60_000;

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("credentials, scopes, allowlist, lockout, rate limits, audit", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let a: TenantFixture;
  let b: TenantFixture;
  const deps = () => ({ db: t.db, pepper: TEST_PEPPER, now: clock.now });

  beforeAll(async () => {
    server = await startTestServer({ database: t, now: clock.now, host: "::" });
    a = await createTenantFixture(deps());
    b = await createTenantFixture(deps());
  });
  afterAll(() => server?.close());

  it("lists keys without secrets, rotates with a grace period, then refuses the old key with the exact message", async () => {
    const list = await call(server, "/v1/credentials", { headers: { authorization: a.authorization } });
    expect(list.status).toBe(200);
    expect(list.json().data[0]).toMatchObject({ keyId: a.keyId, tenantId: a.tenantId, label: "fixture", status: "ACTIVE" });
    expect(list.text).not.toContain(a.secret);
    expect(list.text).not.toMatch(/secret/i);

    const rotated = await call(server, "/v1/credentials/rotate", {
      method: "POST",
      headers: { authorization: a.authorization, "content-type": "application/json" },
      body: JSON.stringify({ keyId: a.keyId, gracePeriodMinutes: 5 }),
    });
    expect(rotated.status).toBe(200);
    const { newKeyId, secret, oldKeyId, oldKeyExpiresAt } = rotated.json();
    expect(newKeyId).toMatch(/^qc_[0-9a-f]{32}$/);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(oldKeyId).toBe(a.keyId);
    expect(new Date(oldKeyExpiresAt).getTime() - clock.now().getTime()).toBeGreaterThan(minutes(4));
    const fresh = `Bearer ${newKeyId}:${secret}`;

    expect((await call(server, "/v1/credentials", { headers: { authorization: a.authorization } })).status).toBe(200);
    const again = await call(server, "/v1/credentials/rotate", {
      method: "POST",
      ...json({ keyId: a.keyId }),
      headers: { authorization: fresh, "content-type": "application/json" },
    });
    expect(again.status).toBe(409);

    clock.offsetMs += minutes(6);
    const refused = await call(server, "/v1/credentials", { headers: { authorization: a.authorization } });
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({
      error: "CREDENTIAL_ROTATED",
      code: 1012,
      message: "credential rotated and grace period expired",
    });
    const listed = await call(server, "/v1/credentials", { headers: { authorization: fresh } });
    expect(listed.status).toBe(200);
    expect(listed.json().data.find((k: { keyId: string }) => k.keyId === a.keyId).status).toBe("ROTATED");
    expect(listed.text).not.toContain(secret);
    a = { ...a, keyId: newKeyId, secret, authorization: fresh };
  });

  it("refuses an expired key with the exact message", async () => {
    const key = await createApiKey(deps(), TEST_PEPPER, {
      tenantId: a.tenantId,
      userId: a.userId,
      label: "short-lived",
      expiresAt: new Date(clock.now().getTime() + minutes(1)),
    });
    const authorization = `Bearer ${key.keyId}:${key.secret}`;
    expect((await call(server, "/v1/credentials", { headers: { authorization } })).status).toBe(200);
    clock.offsetMs += minutes(2);
    const res = await call(server, "/v1/credentials", { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: "CREDENTIAL_EXPIRED", code: 1011, message: "credential expired" });
  });

  it("issues keys from a dashboard session only, and revocation reaches the cache at once", async () => {
    const session = await createSessionFixture(deps(), a);
    const viaKey = await call(server, "/api/trpc/credentials.create", {
      method: "POST",
      headers: { authorization: a.authorization, "content-type": "application/json" },
      body: JSON.stringify({ json: { label: "nope" } }),
    });
    expect(viaKey.status).toBe(403);
    const created = await call(server, "/api/trpc/credentials.create", {
      method: "POST",
      headers: { cookie: `__Host-qc_session=${session.token}`, "sec-fetch-site": "same-origin", "content-type": "application/json" },
      body: JSON.stringify({ json: { label: "ci", scopes: ["read"] } }),
    });
    expect(created.status).toBe(200);
    const key = created.json().result.data.json;
    expect(key).toMatchObject({ label: "ci", scopes: ["read"], status: "ACTIVE" });
    const authorization = `Bearer ${key.keyId}:${key.secret}`;
    expect((await call(server, "/v1/audit-events?limit=1", { headers: { authorization } })).status).toBe(403); // read < admin
    expect((await call(server, "/v1/settings/ip-allowlist", { headers: { authorization: a.authorization } })).status).toBe(200);

    // Cache the key, revoke it: the very next request on this instance is refused (no waiting
    // for the cache TTL of 60 s, nor for the change's notification to come back).
    await call(server, "/v1/credentials", { headers: { authorization } });
    const revoked = await call(server, "/api/trpc/credentials.revoke", {
      method: "POST",
      headers: { authorization: session.authorization, "content-type": "application/json" },
      body: JSON.stringify({ json: { keyId: key.keyId } }),
    });
    expect(revoked.status).toBe(200);
    const refusal = await call(server, "/v1/settings/ip-allowlist", { headers: { authorization } });
    expect(refusal.status).toBe(401);
    expect(refusal.json()).toMatchObject({ error: "CREDENTIAL_REVOKED", code: 1013 });
  });

  it("records lastUsedAt without a write per request (batched)", async () => {
    await call(server, "/v1/credentials", { headers: { authorization: a.authorization } });
    const before = await t.db
      .select({ lastUsedAt: schema.apiKeys.lastUsedAt })
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.keyId, a.keyId));
    expect(before[0]!.lastUsedAt).toBeNull();
    await server.deps.authenticator.flushLastUsed();
    const after = await t.db
      .select({ lastUsedAt: schema.apiKeys.lastUsedAt })
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.keyId, a.keyId));
    expect(after[0]!.lastUsedAt).toBeInstanceOf(Date);
  });

  it("keeps tenants apart: another tenant's key id is not found", async () => {
    const res = await call(server, "/v1/credentials/rotate", {
      method: "POST",
      headers: { authorization: b.authorization, "content-type": "application/json" },
      body: JSON.stringify({ keyId: a.keyId }),
    });
    expect(res.status).toBe(404);
    expect(res.json().error).toBe("NOT_FOUND");
    const listB = await call(server, "/v1/credentials", { headers: { authorization: b.authorization } });
    expect(listB.json().data.map((k: { tenantId: string }) => k.tenantId)).toEqual([b.tenantId]);
  });

  it("applies the IP allowlist over real IPv4 and IPv6 sockets, and refuses a self-lockout", async () => {
    const put = (entries: unknown[], extra: Record<string, unknown> = {}, address = "127.0.0.1") =>
      call(server, "/v1/settings/ip-allowlist", {
        method: "PUT",
        address,
        headers: { authorization: b.authorization, "content-type": "application/json" },
        body: JSON.stringify({ entries, ...extra }),
      });
    const get = (address: string) => call(server, "/v1/settings/ip-allowlist", { address, headers: { authorization: b.authorization } });

    expect((await put([{ cidr: "not-an-ip" }])).json()).toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "entries.0.cidr" }] },
    });
    const v4 = await put([{ cidr: "127.0.0.0/8", label: "loopback v4" }, { cidr: "203.0.113.7" }]);
    expect(v4.status).toBe(200);
    expect(v4.json().entries).toEqual([
      { cidr: "127.0.0.0/8", label: "loopback v4" },
      { cidr: "203.0.113.7/32", label: "" },
    ]);
    expect((await get("127.0.0.1")).status).toBe(200);
    const outV6 = await get("::1");
    expect(outV6.status).toBe(403);
    expect(outV6.json()).toMatchObject({ error: "IP_NOT_ALLOWED", code: 1021 });

    const lockout = await put([{ cidr: "::1/128" }]);
    expect(lockout.status).toBe(409);
    expect(lockout.json().message).toContain("allowSelfLockout");
    expect((await put([{ cidr: "::1/128", label: "v6 only" }], { allowSelfLockout: true })).status).toBe(200);
    expect((await get("::1")).status).toBe(200);
    expect((await get("127.0.0.1")).status).toBe(403);

    // A dashboard session is held to the allowlist too; from an allowed address it can repair it.
    const session = await createSessionFixture(deps(), b);
    const repair = (address: string) =>
      call(server, "/v1/settings/ip-allowlist", {
        method: "PUT",
        address,
        headers: { authorization: session.authorization, "content-type": "application/json" },
        body: JSON.stringify({ entries: [] }),
      });
    expect((await repair("127.0.0.1")).json()).toMatchObject({ error: "IP_NOT_ALLOWED", code: 1021 });
    const repaired = await repair("::1");
    expect(repaired.status).toBe(200);
    expect((await get("127.0.0.1")).status).toBe(200);
    // Nor can a session lock itself (and with it the tenant's dashboard) out unasked.
    const sessionLockout = await call(server, "/v1/settings/ip-allowlist", {
      method: "PUT",
      headers: { authorization: session.authorization, "content-type": "application/json" },
      body: JSON.stringify({ entries: [{ cidr: "203.0.113.0/24" }] }),
    });
    expect(sessionLockout.status, sessionLockout.text).toBe(409);
    expect(sessionLockout.json().message).toContain("allowSelfLockout");
    expect((await get("127.0.0.1")).status).toBe(200);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, b.tenantId), eq(schema.auditEvents.action, "settings.ip_allowlist_replaced")));
    expect(audit).toHaveLength(3);
    await server.deps.authenticator.flushAudit(); // refusals are audited through the buffer
    expect(
      (await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "auth.ip_not_allowed"))).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it("locks a source out after 10 failures (missing headers do not count), even with good credentials", async () => {
    const c = await createTenantFixture(deps());
    for (let i = 0; i < 15; i++) expect((await call(server, "/v1/credentials", { address: "::1" })).status).toBe(401);
    expect((await call(server, "/v1/credentials", { address: "::1", headers: { authorization: c.authorization } })).status).toBe(200);
    const wrong = `Bearer ${c.keyId}:${"0".repeat(64)}`;
    for (let i = 0; i < 10; i++) {
      const res = await call(server, "/v1/credentials", { address: "::1", headers: { authorization: wrong } });
      expect(res.status).toBe(401);
      expect(res.json().error).toBe("UNAUTHENTICATED");
    }
    const locked = await call(server, "/v1/credentials", { address: "::1", headers: { authorization: c.authorization } });
    expect(locked.status).toBe(429);
    expect(locked.json()).toMatchObject({ error: "LOCKED_OUT", code: 1061 });
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(600);
    // Another source is not affected.
    expect((await call(server, "/v1/credentials", { address: "127.0.0.1", headers: { authorization: c.authorization } })).status).toBe(200);
    await server.deps.authenticator.flushAudit();
    const failures = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "auth.failed"), eq(schema.auditEvents.ip, "::1")));
    // Refusals naming no tenant are counted per source and minute (details.aggregated.count).
    const total = (rows: typeof failures) =>
      rows.reduce((sum, f) => sum + ((f.details.aggregated as { count?: number } | undefined)?.count ?? 1), 0);
    expect(total(failures.filter((f) => f.details.counted === true))).toBe(10);
    expect(total(failures.filter((f) => f.details.reason === "missing"))).toBe(15);
    expect(JSON.stringify(failures)).not.toContain("0".repeat(64));
  });

  it("marks a key sent over plain HTTP as exposed, processing nothing", async () => {
    const d = await createTenantFixture(deps());
    const res = await call(server, "/v1/credentials", { plain: true, headers: { authorization: d.authorization } });
    expect(res.status).toBe(308);
    const listed = await until(async () => {
      const list = (await call(server, "/v1/credentials", { headers: { authorization: d.authorization } })).json();
      return list.data[0].exposed ? list : undefined;
    });
    expect(listed.data[0]).toMatchObject({ keyId: d.keyId, exposed: true });
    const [audit] = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "credential.exposed"), eq(schema.auditEvents.targetId, d.keyId)));
    expect(audit).toMatchObject({ tenantId: d.tenantId, targetType: "api_key" });
    const [mail] = await t.db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.to, d.email), eq(schema.emails.kind, "credential_exposed")));
    expect(mail?.subject).toContain(d.keyId);
    expect(mail?.text).not.toContain(d.secret);
  });

  it("serves the audit trail to admins, newest first, paginated", async () => {
    const page1 = await call(server, "/v1/audit-events?limit=2", { headers: { authorization: b.authorization } });
    expect(page1.status).toBe(200);
    const body = page1.json();
    expect(body.events).toHaveLength(2);
    expect(body.page.hasMore).toBe(true);
    expect(body.events[0].id > body.events[1].id).toBe(true);
    const page2 = (
      await call(server, `/v1/audit-events?limit=2&cursor=${body.page.nextCursor}`, { headers: { authorization: b.authorization } })
    ).json();
    expect(page2.events[0].id < body.events[1].id).toBe(true);
    const bad = await call(server, "/v1/audit-events?cursor=zzz", { headers: { authorization: b.authorization } });
    expect(bad.status).toBe(400);
  });
});

/**
 * What a caller allowed to use the operation gets for the matrix's request: path ids are a
 * UUID no tenant owns, bodies are `{}`, the tenant is VERIFIED. A new route fails the matrix
 * until it is listed here, so every route of the document is covered on purpose.
 */
const ALLOWED_ANSWER: Record<string, string> = {
  "GET /v1/credentials": "200",
  "POST /v1/credentials/rotate": "400 VALIDATION_FAILED",
  "POST /v1/signup": "400 VALIDATION_FAILED",
  "POST /v1/signup/verify-email": "400 VALIDATION_FAILED",
  // Always 202: the answer never tells whether an address has an account.
  "POST /v1/signup/resend-verification": "202",
  "POST /v1/auth/login": "400 VALIDATION_FAILED",
  "POST /v1/auth/password-reset": "202",
  "POST /v1/auth/password-reset/confirm": "400 VALIDATION_FAILED",
  // An API key has no session to end.
  "POST /v1/auth/logout": "409 CONFLICT",
  "GET /v1/onboarding/status": "200",
  // The fixture tenant is already verified.
  "POST /v1/onboarding/kyc": "409 CONFLICT",
  // Unsigned: refused before the body is looked at, whoever calls.
  "POST /v1/onboarding/kyc/callback": "401 UNAUTHENTICATED",
  // `to` is required.
  "GET /v1/dev/mailbox": "400 VALIDATION_FAILED",
  "GET /v1/settings/ip-allowlist": "200",
  "PUT /v1/settings/ip-allowlist": "400 VALIDATION_FAILED",
  "GET /v1/members": "200",
  // `role` is required.
  "PUT /v1/members/{userId}": "400 VALIDATION_FAILED",
  "GET /v1/members/{userId}/passkeys": "200",
  "DELETE /v1/members/{userId}/passkeys/{passkeyId}": "404 NOT_FOUND",
  "GET /v1/settings/security": "200",
  "PUT /v1/settings/security": "400 VALIDATION_FAILED",
  "POST /v1/auth/login/passkey": "400 VALIDATION_FAILED",
  "DELETE /v1/members/{userId}": "404 NOT_FOUND",
  "GET /v1/members/invitations": "200",
  "POST /v1/members/invitations": "400 VALIDATION_FAILED",
  "DELETE /v1/members/invitations/{invitationId}": "404 NOT_FOUND",
  // No credentials: `token`, `name` and `password` are required.
  "POST /v1/members/invitations/accept": "400 VALIDATION_FAILED",
  "GET /v1/audit-events": "200",
  "GET /v1/audit-events/export": "200",
  "GET /v1/audit/public-key": "200",
  "POST /v1/vault/accounts": "400 VALIDATION_FAILED",
  "GET /v1/vault/accounts": "200",
  "GET /v1/vault/accounts/{vaultAccountId}": "404 NOT_FOUND",
  "PUT /v1/vault/accounts/{vaultAccountId}": "400 VALIDATION_FAILED",
  "POST /v1/vault/accounts/{vaultAccountId}/archive": "404 NOT_FOUND",
  "POST /v1/vault/accounts/{vaultAccountId}/wallets/generate": "404 NOT_FOUND",
  "POST /v1/vault/accounts/{vaultAccountId}/wallets": "400 VALIDATION_FAILED",
  "GET /v1/vault/accounts/{vaultAccountId}/wallets": "404 NOT_FOUND",
  "POST /v1/vault/accounts/{vaultAccountId}/wallets/watch-only": "400 VALIDATION_FAILED",
  "GET /v1/wallets/{walletId}": "404 NOT_FOUND",
  "POST /v1/wallets/{walletId}/archive": "404 NOT_FOUND",
  "POST /v1/wallets/{walletId}/network-links": "400 VALIDATION_FAILED",
  "GET /v1/wallets/{walletId}/balance": "404 NOT_FOUND",
  "GET /v1/assets": "200",
  "POST /v1/assets": "400 VALIDATION_FAILED",
  "POST /v1/signer/keys": "400 VALIDATION_FAILED",
  "GET /v1/signer/keys": "200",
  "GET /v1/signer/transactions": "200",
  "POST /v1/signer/transactions/{transactionId}/signature": "400 VALIDATION_FAILED",
  "POST /v1/signer/transactions/{transactionId}/reject": "400 VALIDATION_FAILED",
  "POST /v1/webhooks": "400 VALIDATION_FAILED",
  "GET /v1/webhooks": "200",
  "GET /v1/webhooks/{webhookId}": "404 NOT_FOUND",
  "PUT /v1/webhooks/{webhookId}": "400 VALIDATION_FAILED",
  "DELETE /v1/webhooks/{webhookId}": "404 NOT_FOUND",
  "POST /v1/webhooks/{webhookId}/rotate-secret": "404 NOT_FOUND",
  "POST /v1/webhooks/{webhookId}/test": "404 NOT_FOUND",
  "POST /v1/webhooks/{webhookId}/resend": "400 VALIDATION_FAILED",
  "POST /v1/webhooks/{webhookId}/simulate": "400 VALIDATION_FAILED",
  "GET /v1/webhooks/{webhookId}/deliveries": "404 NOT_FOUND",
  "POST /v1/webhooks/deliveries/{deliveryId}/retry": "404 NOT_FOUND",
  // The key is checked before the body: none sent.
  "POST /v1/transactions": "400 IDEMPOTENCY_KEY_REQUIRED",
  "POST /v1/transactions/batch": "400 IDEMPOTENCY_KEY_REQUIRED",
  // No idempotency key needed: the empty body is refused.
  "POST /v1/transactions/simulate": "400 VALIDATION_FAILED",
  "GET /v1/contracts/templates": "200",
  "POST /v1/contracts/deployments": "400 IDEMPOTENCY_KEY_REQUIRED",
  "GET /v1/transactions": "200",
  "GET /v1/transactions/{transactionId}": "404 NOT_FOUND",
  "GET /v1/transactions/{transactionId}/events": "404 NOT_FOUND",
  "GET /v1/transactions/{transactionId}/evidence": "404 NOT_FOUND",
  "POST /v1/transactions/{transactionId}/cancel": "404 NOT_FOUND",
  "POST /v1/transactions/{transactionId}/speed-up": "404 NOT_FOUND",
  "GET /v1/approver-groups": "200",
  "POST /v1/approver-groups": "400 VALIDATION_FAILED",
  "GET /v1/approver-groups/{groupId}": "404 NOT_FOUND",
  "PUT /v1/approver-groups/{groupId}": "400 VALIDATION_FAILED",
  "DELETE /v1/approver-groups/{groupId}": "404 NOT_FOUND",
  "GET /v1/address-book": "200",
  "POST /v1/address-book": "400 VALIDATION_FAILED",
  "GET /v1/address-book/{entryId}": "404 NOT_FOUND",
  "DELETE /v1/address-book/{entryId}": "404 NOT_FOUND",
  "POST /v1/address-book/{entryId}/approvals": "400 VALIDATION_FAILED",
  "GET /v1/settings/address-book": "200",
  "PUT /v1/settings/address-book": "400 VALIDATION_FAILED",
  "GET /v1/members/me": "200",
  "GET /v1/members/me/approval-keys": "200",
  "POST /v1/members/me/approval-keys": "400 VALIDATION_FAILED",
  "DELETE /v1/members/me/approval-keys/{keyId}": "404 NOT_FOUND",
  "GET /v1/approvals": "200",
  "POST /v1/transactions/{transactionId}/approvals": "400 VALIDATION_FAILED",
  "GET /v1/transactions/{transactionId}/approvals": "404 NOT_FOUND",
  "GET /v1/policies": "200",
  "PUT /v1/policies": "400 VALIDATION_FAILED",
  "POST /v1/policies/evaluate": "400 VALIDATION_FAILED",
  "GET /v1/settings/screening-denylist": "200",
  "PUT /v1/settings/screening-denylist": "400 VALIDATION_FAILED",
};

/** What each scope may call (docs/decisions/access-control.md): read ⊂ write ⊂ admin; signer is read plus the signer's routes. */
const SCOPE_GRANTS: Record<string, string[]> = {
  read: ["read"],
  write: ["read", "write"],
  admin: ["read", "write", "admin"],
  signer: ["read", "signer"],
};

describe("access matrix over every operation of the OpenAPI document", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    // A budget the matrix cannot spend: the per-tenant limit has its own test below.
    server = await startTestServer({
      database: t,
      rateLimits: {
        tenantPerSecond: 100_000,
        tenantBurstExtra: 100_000,
        signupPerHour: 1_000,
        signupLockSeconds: 1,
        resendPerHourPerIp: 1_000,
        resendPerHourPerEmail: 1_000,
      },
    });
  });
  afterAll(() => server?.close());

  it("answers each caller exactly: 401 without credentials, 403 below the scope, the route's own answer otherwise", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const keys = {
      read: await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]),
      write: await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["write"]),
      admin: await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["admin"]),
      signer: await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["signer"]),
    };
    const document = (await call(server, "/v1/openapi.json")).json();
    const operations: { key: string; method: string; path: string; scope: string | undefined }[] = [];
    for (const [path, item] of Object.entries<Record<string, { "x-scope"?: string }>>(document.paths)) {
      for (const [method, op] of Object.entries(item))
        operations.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, scope: op["x-scope"] });
    }
    expect(operations.map((op) => op.key).sort()).toEqual(Object.keys(ALLOWED_ANSWER).sort());

    const fill = (path: string) => path.replace(/\{[^}]+\}/g, "0194f2c4-0000-7000-8000-00000000abcd");
    const send = (op: (typeof operations)[number], authorization?: string) =>
      call(server, fill(op.path), {
        method: op.method,
        headers: { ...(authorization ? { authorization } : {}), ...(op.method === "GET" ? {} : { "content-type": "application/json" }) },
        ...(op.method === "GET" ? {} : { body: "{}" }),
      });
    const answer = (res: TestResponse) => (res.status < 400 ? String(res.status) : `${res.status} ${res.json().error}`);

    const mismatches: string[] = [];
    const check = (op: (typeof operations)[number], caller: string, res: TestResponse, expected: string) => {
      if (answer(res) !== expected) mismatches.push(`${op.key} as ${caller}: ${answer(res)}, expected ${expected}`);
    };
    for (const op of operations) {
      const allowed = ALLOWED_ANSWER[op.key]!;
      check(op, "anonymous", await send(op), op.scope ? "401 UNAUTHENTICATED" : allowed);
      for (const [scope, key] of Object.entries(keys)) {
        const permitted = !op.scope || SCOPE_GRANTS[scope]!.includes(op.scope);
        check(op, `${scope} key`, await send(op, key.authorization), permitted ? allowed : "403 INSUFFICIENT_SCOPE");
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe("per-tenant rate limit", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      rateLimits: {
        tenantPerSecond: 5,
        tenantBurstExtra: 3,
        signupPerHour: 30,
        signupLockSeconds: 600,
        resendPerHourPerIp: 20,
        resendPerHourPerEmail: 5,
      },
    });
  });
  afterAll(() => server?.close());

  it("answers RateLimit-* headers, then 429 RATE_LIMITED with Retry-After once the bucket is spent", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const res = await call(server, "/v1/credentials", { headers: { authorization: tenant.authorization } });
      statuses.push(res.status);
      if (res.status === 200) expect(res.headers["ratelimit-limit"]).toBe("5");
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    expect(limited?.json()).toMatchObject({ error: "RATE_LIMITED", code: 1060 });
    expect(Number(limited?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });
});
