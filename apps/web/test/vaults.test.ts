import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createVault, expectError, type Client } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";

describe("vaults over real HTTPS", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let a: TenantFixture;
  let b: TenantFixture;
  let apiA: Client;
  let apiB: Client;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    a = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER }, { status: "PENDING_VERIFICATION" });
    b = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    apiA = client(() => server, a.authorization);
    apiB = client(() => server, b.authorization);
  });
  afterAll(() => server?.close());

  it("creates (201), fetches, lists, renames and replaces metadata", async () => {
    const res = await apiA.post("/v1/vault/accounts", { name: "Ops", networkCode: "QUANTUM_SANDBOX", metadata: { desk: "treasury" } });
    expect(res.status).toBe(201);
    const vault = res.json();
    expect(Object.keys(vault).sort()).toEqual(["createdAt", "id", "metadata", "name", "networkCode", "status", "tenantId", "updatedAt"]);
    expect(vault).toMatchObject({
      tenantId: a.tenantId,
      name: "Ops",
      networkCode: "QUANTUM_SANDBOX",
      status: "ACTIVE",
      metadata: { desk: "treasury" },
    });
    expect(vault.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect((await apiA.get(`/v1/vault/accounts/${vault.id}`)).json()).toEqual(vault);
    const list = await apiA.get("/v1/vault/accounts");
    expect(list.status).toBe(200);
    expect(list.json().vaults.map((v: { id: string }) => v.id)).toContain(vault.id);
    expect(list.json().page).toMatchObject({ hasMore: false, nextCursor: null });

    const renamed = await apiA.put(`/v1/vault/accounts/${vault.id}`, { name: "Operations" });
    expect(renamed.status).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "Operations", metadata: { desk: "treasury" } });
    const replaced = await apiA.put(`/v1/vault/accounts/${vault.id}`, { metadata: { region: "eu" } });
    expect(replaced.json()).toMatchObject({ name: "Operations", metadata: { region: "eu" } });
    expectError(await apiA.put(`/v1/vault/accounts/${vault.id}`, {}), 400, "VALIDATION_FAILED", 1001);

    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, vault.id)));
    expect(audit.map((r) => r.action).sort()).toEqual(["vault.created", "vault.updated", "vault.updated"]);
  });

  it("enforces the metadata limits with field details", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])), "metadata"],
      [{ ["k".repeat(41)]: "v" }, `metadata.${"k".repeat(41)}`],
      [{ note: "x".repeat(501) }, "metadata.note"],
      [{ count: 7 }, "metadata.count"],
      [{ nested: { a: "b" } }, "metadata.nested"],
    ];
    for (const [metadata, path] of cases) {
      const res = await apiA.post("/v1/vault/accounts", { name: "M", networkCode: "QUANTUM_SANDBOX", metadata });
      expectError(res, 400, "VALIDATION_FAILED", 1001);
      expect(res.json().details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    // Exactly at the limits is fine.
    const limits = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padStart(40, "k"), "v".repeat(500)]));
    expect((await apiA.post("/v1/vault/accounts", { name: "M", networkCode: "QUANTUM_SANDBOX", metadata: limits })).status).toBe(201);
  });

  it("accepts only the two networks and validates path ids and list parameters", async () => {
    for (const networkCode of ["QUANTUM_TESTNET", "quantum_sandbox", "", 20804]) {
      const res = await apiA.post("/v1/vault/accounts", { name: "N", networkCode });
      expectError(res, 400, "VALIDATION_FAILED", 1001);
      expect(res.json().details.fields[0].path).toBe("networkCode");
    }
    expectError(await apiA.post("/v1/vault/accounts", { name: "", networkCode: "QUANTUM_SANDBOX" }), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/vault/accounts/not-a-uuid"), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/vault/accounts?limit=201"), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/vault/accounts?limit=0"), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/vault/accounts?cursor=bm90LWEtY3Vyc29y"), 400, "VALIDATION_FAILED", 1001);
    expectError(await apiA.get("/v1/vault/accounts?status=DELETED"), 400, "VALIDATION_FAILED", 1001);
  });

  it("pages newest first across 3 pages with inserts between calls: nothing repeated, nothing skipped", async () => {
    const own = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const api = client(() => server, own.authorization);
    const initial: string[] = [];
    for (let i = 0; i < 7; i++) initial.push((await createVault(api, { name: `v${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/v1/vault/accounts?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const body = res.json();
      seen.push(...body.vaults.map((v: { id: string }) => v.id));
      cursor = body.page.nextCursor;
      expect(body.page.hasMore).toBe(cursor !== null);
      pages += 1;
      // Concurrent writers insert between the client's calls.
      await createVault(api, { name: `inserted-${pages}` });
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...initial].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    // The default page size is 50 and a fresh first page shows the newest inserts.
    const first = (await api.get("/v1/vault/accounts")).json();
    expect(first.vaults).toHaveLength(10);
    expect(first.vaults[0].name).toBe("inserted-3");
  });

  it("filters by networkCode and status", async () => {
    const own = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const api = client(() => server, own.authorization);
    const sandbox = await createVault(api, { networkCode: "QUANTUM_SANDBOX" });
    const mainnet = await createVault(api, { networkCode: "QUANTUM_MAINNET" });
    const archived = await createVault(api, { networkCode: "QUANTUM_MAINNET" });
    expect((await api.post(`/v1/vault/accounts/${archived.id}/archive`)).status).toBe(200);
    const ids = async (query: string) => (await api.get(`/v1/vault/accounts?${query}`)).json().vaults.map((v: { id: string }) => v.id);
    expect(await ids("networkCode=QUANTUM_SANDBOX")).toEqual([sandbox.id]);
    expect(await ids("networkCode=QUANTUM_MAINNET")).toEqual([archived.id, mainnet.id]);
    expect(await ids("status=ARCHIVED")).toEqual([archived.id]);
    expect(await ids("networkCode=QUANTUM_MAINNET&status=ACTIVE")).toEqual([mainnet.id]);
  });

  it("archives idempotently: one audit row, one vault.archived event in the outbox; then read-only", async () => {
    const vault = await createVault(apiA);
    const first = await apiA.post(`/v1/vault/accounts/${vault.id}/archive`);
    expect(first.status).toBe(200);
    expect(first.json()).toMatchObject({ id: vault.id, status: "ARCHIVED" });
    const second = await apiA.post(`/v1/vault/accounts/${vault.id}/archive`);
    expect(second.status).toBe(200);
    expect(second.json()).toEqual(first.json());

    const events = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.tenantId, a.tenantId), eq(schema.eventOutbox.type, "vault.archived")));
    expect(events.filter((e) => (e.data.vault as { id: string }).id === vault.id)).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, vault.id), eq(schema.auditEvents.action, "vault.archived")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "api_key", actorId: a.keyId, tenantId: a.tenantId });

    expectError(await apiA.put(`/v1/vault/accounts/${vault.id}`, { name: "again" }), 409, "VAULT_ARCHIVED", 1101);
    expect((await apiA.get(`/v1/vault/accounts/${vault.id}`)).json().status).toBe("ARCHIVED");
  });

  it("answers 404 for another tenant's vault on every id-taking route, and for unknown ids", async () => {
    const vault = await createVault(apiA);
    const unknown = "0194f2c4-0000-7000-8000-000000000001";
    for (const id of [vault.id, unknown]) {
      expectError(await apiB.get(`/v1/vault/accounts/${id}`), 404, "NOT_FOUND", 1030);
      expectError(await apiB.put(`/v1/vault/accounts/${id}`, { name: "mine" }), 404, "NOT_FOUND", 1030);
      expectError(await apiB.post(`/v1/vault/accounts/${id}/archive`), 404, "NOT_FOUND", 1030);
      expectError(await apiB.get(`/v1/vault/accounts/${id}/wallets`), 404, "NOT_FOUND", 1030);
      expectError(await apiB.post(`/v1/vault/accounts/${id}/wallets/generate`, {}), 404, "NOT_FOUND", 1030);
      expectError(
        await apiB.post(`/v1/vault/accounts/${id}/wallets`, { address: "0x" + "11".repeat(20), publicKey: "0x00", signature: "0x00" }),
        404,
        "NOT_FOUND",
        1030,
      );
      expectError(
        await apiB.post(`/v1/vault/accounts/${id}/wallets/watch-only`, { address: "0x" + "11".repeat(20) }),
        404,
        "NOT_FOUND",
        1030,
      );
    }
    expect((await apiB.get("/v1/vault/accounts")).json().vaults.map((v: { id: string }) => v.id)).not.toContain(vault.id);
    expect((await apiA.get(`/v1/vault/accounts/${vault.id}`)).json().status).toBe("ACTIVE");
  });

  it("needs read for GET and write for changes", async () => {
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, a, ["read"]);
    const api = client(() => server, reader.authorization);
    expect((await api.get("/v1/vault/accounts")).status).toBe(200);
    expectError(await api.post("/v1/vault/accounts", { name: "x", networkCode: "QUANTUM_SANDBOX" }), 403, "INSUFFICIENT_SCOPE", 1020);
    const writer = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, a, ["write"]);
    expect(
      (await client(() => server, writer.authorization).post("/v1/vault/accounts", { name: "x", networkCode: "QUANTUM_SANDBOX" })).status,
    ).toBe(201);
    expectError(await call(server, "/v1/vault/accounts"), 401, "UNAUTHENTICATED", 1010);
  });

  it("serves the same procedures over tRPC for the dashboard", async () => {
    const created = await call(server, "/api/trpc/vaults.create", {
      method: "POST",
      headers: { authorization: a.authorization, "content-type": "application/json" },
      body: JSON.stringify({ json: { name: "From the dashboard", networkCode: "QUANTUM_MAINNET" } }),
    });
    expect(created.status).toBe(200);
    const vault = created.json().result.data.json;
    expect(vault).toMatchObject({ name: "From the dashboard", networkCode: "QUANTUM_MAINNET", status: "ACTIVE" });
    const input = encodeURIComponent(JSON.stringify({ json: { vaultAccountId: vault.id } }));
    const fetched = await call(server, `/api/trpc/vaults.get?input=${input}`, { headers: { authorization: a.authorization } });
    expect(fetched.json().result.data.json).toEqual(vault);
  });
});
