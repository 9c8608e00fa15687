import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createVault, enrollKeys, expectError, newSignerKey, proofFor, type Client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

describe("signer key pool and wallets/generate", () => {
  const t = useTestDatabase();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  async function tenant(): Promise<{ fixture: TenantFixture; api: Client }> {
    const fixture = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    return { fixture, api: client(() => server, fixture.authorization) };
  }

  it("enrolls a batch (201), counts available/assigned, and skips keys enrolled twice", async () => {
    const { fixture, api } = await tenant();
    expect((await api.get("/v1/signer/keys")).json()).toEqual({ available: 0, assigned: 0 });
    const keys = [newSignerKey(), newSignerKey(), newSignerKey()];
    const body = { keys: keys.map((k) => ({ publicKey: k.publicKey, proof: proofFor(fixture.tenantId, k) })) };
    const res = await api.post("/v1/signer/keys", body);
    expect(res.status).toBe(201);
    expect(res.json()).toEqual({ enrolled: 3, skipped: 0, available: 3, assigned: 0 });
    const again = await api.post("/v1/signer/keys", { keys: [body.keys[0], { ...body.keys[0] }] });
    expect(again.json()).toEqual({ enrolled: 0, skipped: 2, available: 3, assigned: 0 });
    const rows = await t.db.select().from(schema.signerKeys).where(eq(schema.signerKeys.tenantId, fixture.tenantId));
    expect(rows.map((r) => r.address).sort()).toEqual(keys.map((k) => k.address).sort());
    expect(JSON.stringify(rows)).not.toContain("secret");
  });

  it("rejects the whole batch with 1105 and the index of the first bad proof", async () => {
    const { fixture, api } = await tenant();
    const other = await tenant();
    const keys = Array.from({ length: 5 }, newSignerKey);
    const good = keys.map((k) => ({ publicKey: k.publicKey, proof: proofFor(fixture.tenantId, k) }));
    const bad: [string, { publicKey: string; proof: string }][] = [
      ["proof for another tenant", { ...good[3]!, proof: proofFor(other.fixture.tenantId, keys[3]!) }],
      ["proof of another key", { ...good[3]!, proof: good[2]!.proof }],
      ["truncated proof", { ...good[3]!, proof: good[3]!.proof.slice(0, -2) }],
      ["padded proof", { ...good[3]!, proof: good[3]!.proof + "00" }],
      ["truncated public key", { ...good[3]!, publicKey: good[3]!.publicKey.slice(0, -2) }],
      ["not hex", { ...good[3]!, publicKey: "0x" + "zz".repeat(2592) }],
    ];
    for (const [name, item] of bad) {
      const batch: { publicKey: string; proof: string }[] = [...good];
      batch[3] = item;
      const res = await api.post("/v1/signer/keys", { keys: batch });
      expectError(res, 400, "INVALID_OWNERSHIP_PROOF", 1105);
      expect(res.json().details, name).toMatchObject({ index: 3 });
    }
    expect((await api.get("/v1/signer/keys")).json()).toEqual({ available: 0, assigned: 0 });
    expectError(await api.post("/v1/signer/keys", { keys: [] }), 400, "VALIDATION_FAILED", 1001);
  });

  it("generate takes the oldest unassigned key (201, SIGNER_MANAGED), then 409 NO_SIGNER_KEY_AVAILABLE", async () => {
    const { fixture, api } = await tenant();
    const vault = await createVault(api);
    expectError(await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {}), 409, "NO_SIGNER_KEY_AVAILABLE", 1104);
    const keys = await enrollKeys(api, fixture.tenantId, 2);
    const res = await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, { label: "hot 1" });
    expect(res.status).toBe(201);
    const wallet = res.json();
    expect(Object.keys(wallet).sort()).toEqual([
      "address",
      "assetIds",
      "createdAt",
      "id",
      "label",
      "networkLinks",
      "publicKey",
      "status",
      "tenantId",
      "type",
      "vaultId",
    ]);
    expect(wallet).toMatchObject({
      vaultId: vault.id,
      tenantId: fixture.tenantId,
      address: keys[0]!.address,
      publicKey: keys[0]!.publicKey,
      label: "hot 1",
      status: "ACTIVE",
      type: "SIGNER_MANAGED",
      networkLinks: [{ networkCode: "QUANTUM_SANDBOX", vaultId: vault.id }],
      assetIds: ["011620ab-6fee-5894-b105-6c22053cf11e"],
    });
    expect((await api.get("/v1/signer/keys")).json()).toEqual({ available: 1, assigned: 1 });
    expect((await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {})).json().address).toBe(keys[1]!.address);
    expectError(await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {}), 409, "NO_SIGNER_KEY_AVAILABLE", 1104);
    expect((await api.get("/v1/signer/keys")).json()).toEqual({ available: 0, assigned: 2 });
  });

  it("20 concurrent generates get 20 distinct keys", async () => {
    const { fixture, api } = await tenant();
    const vault = await createVault(api);
    const keys = await enrollKeys(api, fixture.tenantId, 20);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {})));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const addresses = results.map((r) => r.json().address as string);
    expect(new Set(addresses).size).toBe(20);
    expect([...addresses].sort()).toEqual(keys.map((k) => k.address).sort());
    const rows = await t.db.select().from(schema.signerKeys).where(eq(schema.signerKeys.tenantId, fixture.tenantId));
    expect(new Set(rows.map((r) => r.walletId)).size).toBe(20);
    expect((await api.get("/v1/signer/keys")).json()).toEqual({ available: 0, assigned: 20 });
  });

  it("keeps each tenant's pool to itself", async () => {
    const a = await tenant();
    const b = await tenant();
    await enrollKeys(a.api, a.fixture.tenantId, 1);
    const vaultB = await createVault(b.api);
    expectError(await b.api.post(`/v1/vault/accounts/${vaultB.id}/wallets/generate`, {}), 409, "NO_SIGNER_KEY_AVAILABLE", 1104);
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, a.fixture, ["read"]);
    expect((await client(() => server, reader.authorization).get("/v1/signer/keys")).json()).toEqual({ available: 1, assigned: 0 });
  });

  it(
    "fills the pool and registers addresses only with the signer's key: an integration key (write or admin) cannot " +
      "plant its own keys (review H2)",
    async () => {
      const { fixture, api } = await tenant();
      const vault = await createVault(api);
      const as = async (scopes: ("read" | "write" | "admin" | "signer")[]) =>
        client(() => server, (await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, fixture, scopes)).authorization);
      const planted = newSignerKey();
      const enrollment = { keys: [{ publicKey: planted.publicKey, proof: proofFor(fixture.tenantId, planted) }] };
      const registration = { address: planted.address, publicKey: planted.publicKey, signature: proofFor(fixture.tenantId, planted) };
      for (const scopes of [["read"], ["write"], ["admin"], ["read", "write", "admin"]] as const) {
        const integration = await as([...scopes]);
        expectError(await integration.post("/v1/signer/keys", enrollment), 403, "INSUFFICIENT_SCOPE", 1020);
        expectError(await integration.post(`/v1/vault/accounts/${vault.id}/wallets`, registration), 403, "INSUFFICIENT_SCOPE", 1020);
        expectError(await integration.get("/v1/signer/transactions"), 403, "INSUFFICIENT_SCOPE", 1020);
      }
      expect(await t.db.select().from(schema.signerKeys).where(eq(schema.signerKeys.tenantId, fixture.tenantId))).toEqual([]);
      // An integration key still generates wallets, but only on keys the signer enrolled.
      const writer = await as(["write"]);
      expectError(await writer.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {}), 409, "NO_SIGNER_KEY_AVAILABLE", 1104);

      // The signer's key: enrolls and registers, reads what it needs, and moves nothing else.
      const signer = await as(["signer"]);
      expect((await signer.post("/v1/signer/keys", enrollment)).status).toBe(201);
      const generated = await writer.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {});
      expect(generated.status, generated.text).toBe(201);
      expect(generated.json()).toMatchObject({ address: planted.address, type: "SIGNER_MANAGED" });
      const own = newSignerKey();
      const registered = await signer.post(`/v1/vault/accounts/${vault.id}/wallets`, {
        address: own.address,
        publicKey: own.publicKey,
        signature: proofFor(fixture.tenantId, own),
      });
      expect(registered.status, registered.text).toBe(201);
      expect((await signer.get("/v1/signer/transactions")).status).toBe(200);
      for (const path of [
        "/v1/onboarding/status",
        "/v1/signer/keys",
        "/v1/assets",
        "/v1/vault/accounts",
        `/v1/vault/accounts/${vault.id}/wallets`,
      ])
        expect((await signer.get(path)).status, path).toBe(200);
      expectError(await signer.post("/v1/vault/accounts", { name: "x", networkCode: "QUANTUM_SANDBOX" }), 403, "INSUFFICIENT_SCOPE", 1020);
      expectError(await signer.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {}), 403, "INSUFFICIENT_SCOPE", 1020);
      expectError(await signer.get("/v1/credentials"), 403, "INSUFFICIENT_SCOPE", 1020);
    },
  );
});
