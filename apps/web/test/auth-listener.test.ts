import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionFixture, createTenantFixture } from "@qc/core/testing";
import { sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";

/**
 * Two web instances on one database keep their credential caches coherent through a LISTEN
 * connection. When that connection is cut (a PostgreSQL restart, a proxy dropping it), a
 * revocation made on the other instance must still be refused at once, not after the cache TTL.
 */
describe("cross-instance credential revocation survives a lost LISTEN connection", () => {
  const t = useTestDatabase();
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer({ database: t });
    b = await startTestServer({ database: t });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it(
    "reconnects the listener and refuses a key revoked on the other instance without waiting for the TTL",
    { timeout: 60_000 },
    async () => {
      const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
      const session = await createSessionFixture({ db: t.db }, tenant);
      const trpc = (server: TestServer, path: string, input: unknown) =>
        call(server, `/api/trpc/${path}`, {
          method: "POST",
          headers: { authorization: session.authorization, "content-type": "application/json" },
          body: JSON.stringify({ json: input }),
        });
      const created = await trpc(a, "credentials.create", { label: "listener", scopes: ["read"] });
      expect(created.status, created.text).toBe(200);
      const key = created.json().result.data.json as { keyId: string; secret: string };
      const authorization = `Bearer ${key.keyId}:${key.secret}`;

      // Cut every auth listener connection, as a database restart would, and wait for new ones.
      const listeners = async () =>
        (
          await t.db.execute(
            sql`select pid from pg_stat_activity where application_name = 'qc-auth-listener' and datname = current_database()`,
          )
        ).rows.map((row) => Number(row.pid));
      const before = await listeners();
      expect(before.length).toBe(2);
      await t.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'qc-auth-listener' and datname = current_database()`,
      );
      await eventually(async () => {
        const now = await listeners();
        return now.length === 2 && now.every((pid) => !before.includes(pid)) && b.deps.authenticator.listenerConnected ? now : undefined;
      }, 20_000);

      // B caches the key after the cut, then A revokes it: B must see the revocation promptly.
      expect((await call(b, "/v1/vault/accounts", { headers: { authorization } })).status).toBe(200);
      const revoked = await trpc(a, "credentials.revoke", { keyId: key.keyId });
      expect(revoked.status, revoked.text).toBe(200);
      const refusal = await eventually(async () => {
        const res = await call(b, "/v1/vault/accounts", { headers: { authorization } });
        return res.status === 401 ? res : undefined;
      }, 10_000);
      expect(refusal.json()).toMatchObject({ error: "CREDENTIAL_REVOKED" });
    },
  );
});
