import { randomBytes } from "node:crypto";
import { schema, sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemActor, userActor } from "../audit/actor";
import { revokeApiKey } from "../credentials/revoke-api-key";
import { createLogger } from "../logger";
import { replaceIpAllowlist } from "../settings/replace-ip-allowlist";
import { changeMemberRole } from "../members/change-member-role";
import { createSessionFixture, createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { Authenticator } from "./authenticator";

/**
 * The credential caches against real PostgreSQL, with the LISTEN connection that keeps them
 * coherent. The notification of a change reaches even the instance that made it only a moment
 * after the commit; these tests ask right after the commit, before it can have arrived.
 */
describe("Authenticator caches", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);
  const now = () => new Date();
  let authenticator: Authenticator;
  let tenant: TenantFixture;
  const request = (authorization: string) => ({ authorization, ip: "198.51.100.20", requestId: "req-cache" });

  beforeAll(async () => {
    authenticator = new Authenticator({ database: t, databaseUrl: t.url, pepper, now, log: createLogger("test", "silent") });
    await authenticator.listen();
    expect(authenticator.listenerConnected).toBe(true);
    tenant = await createTenantFixture({ db: t.db, pepper });
  });
  afterAll(() => authenticator?.close());

  it("refuses a key on the very next request after this instance revoked it", async () => {
    const other = await createTenantFixture({ db: t.db, pepper });
    await expect(authenticator.authenticate(request(other.authorization))).resolves.toMatchObject({ keyId: other.keyId });
    await revokeApiKey({ db: t.db, now, authenticator }, { tenantId: other.tenantId, keyId: other.keyId, actor: systemActor("test") });
    await expect(authenticator.authenticate(request(other.authorization))).rejects.toMatchObject({ error: "CREDENTIAL_REVOKED" });
  });

  it("applies a new allowlist on the very next request after this instance replaced it", async () => {
    expect(await authenticator.allowlist(tenant.tenantId)).toEqual([]);
    const replace = (cidr: string) =>
      replaceIpAllowlist(
        { db: t.db, now, authenticator },
        { tenantId: tenant.tenantId, actor: systemActor("test"), callerIp: "127.0.0.1", entries: [{ cidr, label: "" }] },
      );
    await replace("192.0.2.0/24");
    expect(await authenticator.allowlist(tenant.tenantId)).toEqual(["192.0.2.0/24"]);
    await replace("198.51.100.0/24");
    expect(await authenticator.allowlist(tenant.tenantId)).toEqual(["198.51.100.0/24"]);
  });

  it("does not cache a read that was in flight when an invalidation arrived", async () => {
    const fresh = await createTenantFixture({ db: t.db, pepper });
    const inFlight = authenticator.allowlist(fresh.tenantId);
    // The notification of a change made elsewhere, arriving while the read is on the wire.
    authenticator.invalidate(`tenant:${fresh.tenantId}`);
    expect(await inFlight).toEqual([]);
    // A change that sends no notification at all: only a read that was not cached sees it.
    await t.db.insert(schema.ipAllowlistEntries).values({ tenantId: fresh.tenantId, cidr: "203.0.113.0/24", label: "", position: 0 });
    expect(await authenticator.allowlist(fresh.tenantId)).toEqual(["203.0.113.0/24"]);
    // And an ordinary read is cached: the same silent change is not seen until the TTL.
    await t.db.execute(sql`delete from ip_allowlist_entries where tenant_id = ${fresh.tenantId}`);
    expect(await authenticator.allowlist(fresh.tenantId)).toEqual(["203.0.113.0/24"]);
  });

  it("acts with the member's current role: a role change applies to the member's cached keys on every instance", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const member = await createMemberFixture({ db: t.db, pepper }, owner, "ADMIN");
    const session = await createSessionFixture({ db: t.db }, member);
    const elsewhere = new Authenticator({ database: t, databaseUrl: t.url, pepper, now, log: createLogger("test", "silent") });
    try {
      await elsewhere.listen();
      const roleOn = async (instance: Authenticator, authorization: string) => (await instance.authenticate(request(authorization))).role;
      // Both instances have the key cached with the role it had.
      expect(await roleOn(authenticator, member.authorization)).toBe("ADMIN");
      expect(await roleOn(elsewhere, member.authorization)).toBe("ADMIN");
      expect(await elsewhere.authenticate(request(member.authorization))).toMatchObject({ kind: "api_key", userId: member.userId });
      await changeMemberRole(
        { db: t.db, now, authenticator },
        { tenantId: owner.tenantId, userId: member.userId, role: "VIEWER", actor: userActor(owner.userId) },
      );
      // This instance: the very next request. A session reads the role with the session: at once anywhere.
      expect(await roleOn(authenticator, member.authorization)).toBe("VIEWER");
      expect(await roleOn(elsewhere, session.authorization)).toBe("VIEWER");
      // The other instance: as soon as the notification arrives (well within the cache's minute).
      await vi.waitFor(async () => expect(await roleOn(elsewhere, member.authorization)).toBe("VIEWER"), { timeout: 5_000, interval: 20 });
    } finally {
      await elsewhere.close();
    }
  });
});
