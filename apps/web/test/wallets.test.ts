import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { mlDsa87, ownershipProofMessage } from "@qc/chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToHex, checksumAddress } from "viem";
import { client, createVault, enrollKeys, expectError, NATIVE, newSignerKey, proofFor, type Client } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";

describe("wallets over real HTTPS", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let a: TenantFixture;
  let b: TenantFixture;
  let apiA: Client;
  let apiB: Client;
  let vault: { id: string };

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    a = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    b = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    apiA = client(() => server, a.authorization);
    apiB = client(() => server, b.authorization);
    vault = await createVault(apiA);
  });
  afterAll(() => server?.close());

  const register = (body: Record<string, unknown>, vaultId = vault.id, api = apiA) =>
    api.post(`/v1/vault/accounts/${vaultId}/wallets`, body);

  it("registers an address with its ownership proof (201 REGISTERED), stored canonical; event and audit in the same commit", async () => {
    const key = newSignerKey();
    const checksummed = checksumAddress(key.address);
    const res = await register({
      address: checksummed.slice(2),
      publicKey: key.publicKey.toUpperCase().replace("0X", "0x"),
      signature: proofFor(a.tenantId, key),
      label: "cold",
    });
    expect(res.status).toBe(201);
    const wallet = res.json();
    expect(wallet).toMatchObject({
      vaultId: vault.id,
      tenantId: a.tenantId,
      address: key.address,
      publicKey: key.publicKey,
      type: "REGISTERED",
      status: "ACTIVE",
      label: "cold",
      assetIds: [NATIVE.QUANTUM_SANDBOX],
      networkLinks: [{ networkCode: "QUANTUM_SANDBOX", vaultId: vault.id }],
    });
    expect(wallet.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect((await apiA.get(`/v1/wallets/${wallet.id}`)).json()).toEqual(wallet);

    const [event] = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.tenantId, a.tenantId), eq(schema.eventOutbox.type, "wallet.created")));
    expect(event?.data).toEqual({ wallet });
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, wallet.id));
    expect(audit.map((r) => r.action)).toEqual(["wallet.registered"]);
    expect(audit[0]).toMatchObject({ actorType: "api_key", actorId: a.keyId, details: { address: key.address, type: "REGISTERED" } });

    expectError(
      await register({ address: key.address, publicKey: key.publicKey, signature: proofFor(a.tenantId, key) }),
      409,
      "ADDRESS_ALREADY_REGISTERED",
      1103,
    );
    expectError(
      await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: key.address.toUpperCase().replace("0X", "0x") }),
      409,
      "ADDRESS_ALREADY_REGISTERED",
      1103,
    );
    // Another tenant may hold the same address.
    const vaultB = await createVault(apiB);
    expect(
      (await register({ address: key.address, publicKey: key.publicKey, signature: proofFor(b.tenantId, key) }, vaultB.id, apiB)).status,
    ).toBe(201);
  });

  it("refuses every bad registration with 400 INVALID_OWNERSHIP_PROOF (1105)", async () => {
    const key = newSignerKey();
    const other = newSignerKey();
    const proof = proofFor(a.tenantId, key);
    const body = { address: key.address, publicKey: key.publicKey, signature: proof };
    const bare = key.address.slice(2);
    const contextless = bytesToHex(
      mlDsa87.sign(new TextEncoder().encode(ownershipProofMessage(a.tenantId, key.address)), key.secretKey, {
        context: new TextEncoder().encode("QUANTUM-TX-v1"),
      }),
    );
    const cases: [string, Record<string, unknown>][] = [
      ["address of 39 hex digits", { ...body, address: `0x${bare.slice(1)}` }],
      ["address of 41 hex digits", { ...body, address: `0x${bare}0` }],
      ["address left-padded to 32 bytes", { ...body, address: `0x${"0".repeat(24)}${bare}` }],
      ["address with a non-hex digit", { ...body, address: `0x${bare.slice(0, 39)}g` }],
      ["mixed-case address failing EIP-55", { ...body, address: `0x${flipCase(checksumAddress(key.address).slice(2))}` }],
      ["address not derived from the key", { ...body, address: other.address, signature: proofFor(a.tenantId, key, other.address) }],
      ["proof for another tenant", { ...body, signature: proofFor(b.tenantId, key) }],
      ["proof for another address", { ...body, signature: proofFor(a.tenantId, key, other.address) }],
      ["proof with another context", { ...body, signature: contextless }],
      ["truncated signature", { ...body, signature: proof.slice(0, -2) }],
      ["padded signature", { ...body, signature: proof + "00" }],
      ["signature of another key", { ...body, signature: proofFor(a.tenantId, other, key.address) }],
      ["truncated public key", { ...body, publicKey: key.publicKey.slice(0, -2) }],
      ["padded public key", { ...body, publicKey: key.publicKey + "00" }],
      ["empty signature", { ...body, signature: "" }],
    ];
    for (const [name, payload] of cases) {
      const res = await register(payload);
      expect({ name, status: res.status, error: res.json().error, code: res.json().code }).toEqual({
        name,
        status: 400,
        error: "INVALID_OWNERSHIP_PROOF",
        code: 1105,
      });
    }
    expect(
      await t.db
        .select()
        .from(schema.wallets)
        .where(and(eq(schema.wallets.tenantId, a.tenantId), eq(schema.wallets.address, key.address))),
    ).toEqual([]);
    // The untouched body is accepted: the cases above failed for the reason they name.
    expect((await register(body)).status).toBe(201);
  });

  it("adds watch-only wallets (201, publicKey null) and validates their address", async () => {
    const address = "0x" + "ab".repeat(20);
    const res = await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, {
      address: address.toUpperCase().replace("0X", ""),
      label: "exchange deposit",
    });
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ address, publicKey: null, type: "WATCH_ONLY", status: "ACTIVE", label: "exchange deposit" });
    const bad = await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: "0x1234" });
    expectError(bad, 400, "VALIDATION_FAILED", 1001);
    expect(bad.json().details.fields[0].path).toBe("address");
  });

  it("checks assetIds against the vault's network (UNKNOWN_ASSET)", async () => {
    const watch = (assetIds: string[]) =>
      apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: newSignerKey().address, assetIds });
    const mainnetAsset = await watch([NATIVE.QUANTUM_SANDBOX, NATIVE.QUANTUM_MAINNET]);
    expectError(mainnetAsset, 400, "UNKNOWN_ASSET", 1107);
    expect(mainnetAsset.json().details).toMatchObject({ assetId: NATIVE.QUANTUM_MAINNET, index: 1 });
    expectError(await watch(["0194f2c4-0000-7000-8000-000000000009"]), 400, "UNKNOWN_ASSET", 1107);
    const ok = await watch([NATIVE.QUANTUM_SANDBOX, NATIVE.QUANTUM_SANDBOX]);
    expect(ok.json().assetIds).toEqual([NATIVE.QUANTUM_SANDBOX]);
    expect((await watch([])).json().assetIds).toEqual([]);
  });

  it("lists a vault's wallets newest first across pages, with inserts between calls", async () => {
    const own = await createVault(apiA, { name: "paged" });
    const created: string[] = [];
    const watch = async () => {
      const res = await apiA.post(`/v1/vault/accounts/${own.id}/wallets/watch-only`, { address: newSignerKey().address });
      expect(res.status).toBe(201);
      return res.json().id as string;
    };
    for (let i = 0; i < 5; i++) created.push(await watch());
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await apiA.get(`/v1/vault/accounts/${own.id}/wallets?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.json().wallets.map((w: { id: string }) => w.id));
      cursor = res.json().page.nextCursor;
      pages += 1;
      await watch();
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());
  });

  it("archives a wallet (returns the record, idempotent); it stays readable and is never a transfer source", async () => {
    const res = await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: newSignerKey().address });
    const archived = await apiA.post(`/v1/wallets/${res.json().id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.json()).toEqual({ ...res.json(), status: "ARCHIVED" });
    expect((await apiA.post(`/v1/wallets/${res.json().id}/archive`)).json()).toEqual(archived.json());
    expect((await apiA.get(`/v1/wallets/${res.json().id}`)).json().status).toBe("ARCHIVED");
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, res.json().id), eq(schema.auditEvents.action, "wallet.archived")));
    expect(audit).toHaveLength(1);
  });

  it("places a wallet in a vault of another network: one vault per network, the vault on that network", async () => {
    await enrollKeys(apiA, a.tenantId, 1);
    const wallet = (await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {})).json();
    const mainnet = await createVault(apiA, { networkCode: "QUANTUM_MAINNET" });
    const otherMainnet = await createVault(apiA, { networkCode: "QUANTUM_MAINNET" });
    const link = (body: Record<string, unknown>, api = apiA, id = wallet.id) => api.post(`/v1/wallets/${id}/network-links`, body);

    expectError(await link({ networkCode: "QUANTUM_SANDBOX", vaultId: mainnet.id }), 400, "NETWORK_MISMATCH", 1106);
    const placed = await link({ networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id });
    expect(placed.status).toBe(201);
    expect(placed.json().networkLinks).toEqual([
      { networkCode: "QUANTUM_SANDBOX", vaultId: vault.id },
      { networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id },
    ]);
    expect(placed.json().vaultId).toBe(vault.id);
    const repeated = await link({ networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id });
    expect(repeated.status).toBe(200);
    expect(repeated.json()).toEqual(placed.json());
    expectError(await link({ networkCode: "QUANTUM_MAINNET", vaultId: otherMainnet.id }), 409, "CONFLICT", 1040);
    expectError(await link({ networkCode: "QUANTUM_SANDBOX", vaultId: (await createVault(apiA)).id }), 409, "CONFLICT", 1040);
    // The wallet is listed in both vaults.
    expect((await apiA.get(`/v1/vault/accounts/${mainnet.id}/wallets`)).json().wallets.map((w: { id: string }) => w.id)).toEqual([
      wallet.id,
    ]);
    // Another tenant's vault is not found, and an archived vault takes no placements.
    const vaultB = await createVault(apiB, { networkCode: "QUANTUM_MAINNET" });
    const fresh = (await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: newSignerKey().address })).json();
    expectError(await link({ networkCode: "QUANTUM_MAINNET", vaultId: vaultB.id }, apiA, fresh.id), 404, "NOT_FOUND", 1030);
    await apiA.post(`/v1/vault/accounts/${otherMainnet.id}/archive`);
    expectError(await link({ networkCode: "QUANTUM_MAINNET", vaultId: otherMainnet.id }, apiA, fresh.id), 409, "VAULT_ARCHIVED", 1101);
  });

  it("an archived vault refuses new wallets of every kind (409 VAULT_ARCHIVED) but still lists its wallets", async () => {
    const own = await createVault(apiA);
    const existing = (await apiA.post(`/v1/vault/accounts/${own.id}/wallets/watch-only`, { address: newSignerKey().address })).json();
    await enrollKeys(apiA, a.tenantId, 1);
    expect((await apiA.post(`/v1/vault/accounts/${own.id}/archive`)).status).toBe(200);
    const key = newSignerKey();
    expectError(await apiA.post(`/v1/vault/accounts/${own.id}/wallets/generate`, {}), 409, "VAULT_ARCHIVED", 1101);
    expectError(
      await register({ address: key.address, publicKey: key.publicKey, signature: proofFor(a.tenantId, key) }, own.id),
      409,
      "VAULT_ARCHIVED",
      1101,
    );
    expectError(await apiA.post(`/v1/vault/accounts/${own.id}/wallets/watch-only`, { address: key.address }), 409, "VAULT_ARCHIVED", 1101);
    expect((await apiA.get(`/v1/vault/accounts/${own.id}/wallets`)).json().wallets.map((w: { id: string }) => w.id)).toEqual([existing.id]);
    expect((await apiA.get("/v1/signer/keys")).json().available).toBeGreaterThanOrEqual(1);
  });

  it("answers 404 for another tenant's wallet on every id-taking route", async () => {
    const wallet = (await apiA.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: newSignerKey().address })).json();
    const vaultB = await createVault(apiB);
    for (const res of [
      await apiB.get(`/v1/wallets/${wallet.id}`),
      await apiB.post(`/v1/wallets/${wallet.id}/archive`),
      await apiB.post(`/v1/wallets/${wallet.id}/network-links`, { networkCode: "QUANTUM_SANDBOX", vaultId: vaultB.id }),
      await apiB.get(`/v1/wallets/${wallet.id}/balance`),
    ]) {
      expectError(res, 404, "NOT_FOUND", 1030);
    }
    expect((await apiA.get(`/v1/wallets/${wallet.id}`)).json().status).toBe("ACTIVE");
    expectError(await apiA.get("/v1/wallets/not-a-uuid"), 400, "VALIDATION_FAILED", 1001);
    expectError(await call(server, `/v1/wallets/${wallet.id}`), 401, "UNAUTHENTICATED", 1010);
  });
});

function flipCase(hex: string): string {
  // Swap the case of the first letter: a valid EIP-55 checksum no longer holds.
  const i = hex.search(/[a-fA-F]/);
  const c = hex[i]!;
  return hex.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + hex.slice(i + 1);
}
