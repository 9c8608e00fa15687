import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@qc/core";
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

    // A key that expires in 10 minutes, rotated with 60 minutes of grace: its own expiry comes first.
    const ownExpiry = new Date(clock.now().getTime() + minutes(10));
    const shortLived = await createApiKey({ db: t.db, now: clock.now }, TEST_PEPPER, { tenantId: tenant.tenantId, userId: tenant.userId, label: "short-lived", expiresAt: ownExpiry });
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
