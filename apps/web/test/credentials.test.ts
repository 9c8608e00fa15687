import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, markExposedCredentials } from "@qc/core";
import { and, eq, schema } from "@qc/db";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";

/** A clock the server reads for expiry and grace periods, moved by the test. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const minutes = (n: number) => n * 60_000;

interface ListedKey {
  keyId: string;
  status: string;
  expiresAt: string | null;
  createdByUserId: string;
}

describe("GET /v1/credentials: when each key stops working", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ database: t, now: clock.now });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER, now: clock.now });
  });
  afterAll(() => server?.close());

  const rotate = async (authorization: string, keyId: string, gracePeriodMinutes: number) => {
    const res = await call(server, "/v1/credentials/rotate", {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ keyId, gracePeriodMinutes }),
    });
    expect(res.status, res.text).toBe(200);
    return res.json() as { newKeyId: string; secret: string; oldKeyExpiresAt: string };
  };
  const list = async (authorization: string): Promise<Record<string, ListedKey>> => {
    const res = await call(server, "/v1/credentials", { headers: { authorization } });
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries((res.json().data as ListedKey[]).map((key) => [key.keyId, key]));
  };
  const statusWith = async (authorization: string) => {
    const res = await call(server, "/v1/onboarding/status", { headers: { authorization } });
    return res.status === 200 ? "works" : (res.json() as { error: string }).error;
  };

  it("lists a rotated key with the end of its grace period, or its own earlier expiry, and the status a request would meet", async () => {
    // A key without expiry, rotated with 30 minutes of grace: it stops when the grace ends.
    const open = await rotate(tenant.authorization, tenant.keyId, 30);
    const current = `Bearer ${open.newKeyId}:${open.secret}`;
    let keys = await list(current);
    expect(keys[tenant.keyId]).toMatchObject({ status: "ROTATING", expiresAt: open.oldKeyExpiresAt });
    expect(Date.parse(open.oldKeyExpiresAt) - clock.now().getTime()).toBeGreaterThan(minutes(29));
    expect(keys[open.newKeyId]).toMatchObject({ status: "ACTIVE", expiresAt: null });
    // Each key names the member it acts for; the rotated key stays the same member's.
    expect(keys[tenant.keyId]!.createdByUserId).toBe(tenant.userId);
    expect(keys[open.newKeyId]!.createdByUserId).toBe(tenant.userId);

    // A key that expires in 10 minutes, rotated with 60 minutes of grace: its own expiry comes first.
    const ownExpiry = new Date(clock.now().getTime() + minutes(10));
    const shortLived = await createApiKey({ db: t.db, now: clock.now }, TEST_PEPPER, {
      tenantId: tenant.tenantId,
      userId: tenant.userId,
      label: "short-lived",
      expiresAt: ownExpiry,
    });
    const successor = await rotate(current, shortLived.keyId, 60);
    // The rotation's answer names the same stopping time as the list.
    expect(successor.oldKeyExpiresAt).toBe(ownExpiry.toISOString());
    keys = await list(current);
    expect(keys[shortLived.keyId]).toMatchObject({ status: "ROTATING", expiresAt: ownExpiry.toISOString() });
    expect(keys[successor.newKeyId]).toMatchObject({ status: "ACTIVE", expiresAt: ownExpiry.toISOString() });

    // Eleven minutes on: the short-lived key is expired although still inside its grace period,
    // and the list says what a request with it meets.
    clock.offsetMs += minutes(11);
    keys = await list(current);
    expect(keys[shortLived.keyId]).toMatchObject({ status: "EXPIRED", expiresAt: ownExpiry.toISOString() });
    expect(await statusWith(`Bearer ${shortLived.keyId}:${shortLived.secret}`)).toBe("CREDENTIAL_EXPIRED");
    expect(keys[tenant.keyId]).toMatchObject({ status: "ROTATING", expiresAt: open.oldKeyExpiresAt });
    expect(await statusWith(tenant.authorization)).toBe("works");

    // Past the 30-minute grace: the first key is refused as rotated, at the time the list gave.
    clock.offsetMs += minutes(20);
    expect(clock.now().getTime()).toBeGreaterThan(Date.parse(open.oldKeyExpiresAt));
    keys = await list(current);
    expect(keys[tenant.keyId]).toMatchObject({ status: "ROTATED", expiresAt: open.oldKeyExpiresAt });
    expect(await statusWith(tenant.authorization)).toBe("CREDENTIAL_ROTATED");
    expect(keys[shortLived.keyId]).toMatchObject({ status: "EXPIRED" });
  });
});

describe("credential changes that need more than a key id or an old key", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  const rotate = (authorization: string, keyId: string) =>
    call(server, "/v1/credentials/rotate", {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ keyId, gracePeriodMinutes: 30 }),
    });
  const exposure = async (keyId: string) => ({
    exposed:
      (await t.db.select({ exposedAt: schema.apiKeys.exposedAt }).from(schema.apiKeys).where(eq(schema.apiKeys.keyId, keyId)))[0]!
        .exposedAt !== null,
    audited: (
      await t.db
        .select()
        .from(schema.auditEvents)
        .where(and(eq(schema.auditEvents.action, "credential.exposed"), eq(schema.auditEvents.targetId, keyId)))
    ).length,
  });

  it("marks a key exposed over plain HTTP only with its real secret; a key id with a wrong secret marks nothing (review L2)", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const other = await createApiKey({ db: t.db, now: () => new Date() }, TEST_PEPPER, {
      tenantId: tenant.tenantId,
      userId: tenant.userId,
      label: "other",
    });
    // The service itself, awaited: a wrong secret (or an unknown key) finds nothing to mark.
    const wrong = `Bearer ${tenant.keyId}:${"0".repeat(64)}`;
    expect(await markExposedCredentials(server.deps, { authorization: wrong, ip: "198.51.100.7" })).toBeNull();
    expect(
      await markExposedCredentials(server.deps, { authorization: `Bearer qc_${"1".repeat(32)}:${"0".repeat(64)}`, ip: "198.51.100.7" }),
    ).toBeNull();
    // Over the plain-HTTP port: the same 308 either way; then the real secret of another key.
    expect((await call(server, "/v1/credentials", { plain: true, headers: { authorization: wrong } })).status).toBe(308);
    expect(
      (await call(server, "/v1/credentials", { plain: true, headers: { authorization: `Bearer ${other.keyId}:${other.secret}` } })).status,
    ).toBe(308);
    for (let i = 0; i < 200 && !(await exposure(other.keyId)).exposed; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await exposure(other.keyId)).toEqual({ exposed: true, audited: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await exposure(tenant.keyId)).toEqual({ exposed: false, audited: 0 });
    const mails = await t.db.select().from(schema.emails).where(eq(schema.emails.kind, "credential_exposed"));
    expect(mails.map((mail) => mail.subject)).toEqual([`API key ${other.keyId} was sent over plain HTTP: rotate it`]);
  });

  it("refuses every rotation by a key that was itself rotated (in its grace period): 403 INSUFFICIENT_SCOPE (review L3)", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const spare = await createApiKey({ db: t.db, now: () => new Date() }, TEST_PEPPER, {
      tenantId: tenant.tenantId,
      userId: tenant.userId,
      label: "spare",
    });
    const first = await rotate(tenant.authorization, tenant.keyId);
    expect(first.status, first.text).toBe(200);
    const { newKeyId, secret } = first.json() as { newKeyId: string; secret: string };
    // The old key still works for reads during its grace period…
    expect((await call(server, "/v1/credentials", { headers: { authorization: tenant.authorization } })).status).toBe(200);
    // …but cannot rotate its successor (and so mint and keep the newest secret), nor any other key.
    for (const keyId of [newKeyId, spare.keyId]) {
      const refused = await rotate(tenant.authorization, keyId);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json()).toMatchObject({
        error: "INSUFFICIENT_SCOPE",
        code: 1020,
        message: "this API key has been rotated: during its grace period it cannot rotate keys; use its successor",
      });
      expect(refused.text).not.toMatch(/[0-9a-f]{64}/);
    }
    const rows = await t.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.tenantId, tenant.tenantId));
    expect(rows).toHaveLength(3);
    expect(rows.filter((row) => row.rotatedAt !== null).map((row) => row.keyId)).toEqual([tenant.keyId]);
    // The successor can.
    expect((await rotate(`Bearer ${newKeyId}:${secret}`, spare.keyId)).status).toBe(200);
  });
});
