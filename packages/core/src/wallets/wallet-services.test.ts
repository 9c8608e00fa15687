import { listAggregateEvents } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_ASSET_IDS } from "../assets/native-assets";
import { systemActor } from "../audit/actor";
import { listAuditEvents } from "../audit/list-audit-events";
import type { ServiceDeps } from "../deps/service-deps";
import { countSignerKeys } from "../signer-keys/count-signer-keys";
import { enrollSignerKeys } from "../signer-keys/enroll-signer-keys";
import { createTenantFixture, createWalletKeyFixture as newKey } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { archiveVault } from "../vaults/archive-vault";
import { createVault } from "../vaults/create-vault";
import { addNetworkLink } from "./add-network-link";
import { archiveWallet } from "./archive-wallet";
import { createWatchOnlyWallet } from "./create-watch-only-wallet";
import { generateWallet } from "./generate-wallet";
import { getWallet } from "./get-wallet";
import { listVaultWallets } from "./list-vault-wallets";
import { registerWallet } from "./register-wallet";

describe("wallet services", () => {
  const t = useTestDatabase();
  const clock = { at: Date.parse("2026-04-01T12:00:00.000Z"), now: () => new Date(clock.at) };
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: clock.now });
  });
  afterAll(() => deps.close());

  const actor = systemActor("wallet-services-test");
  const newTenant = async () => (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 6) })).tenantId;
  const newVault = (tenantId: string, networkCode: "QUANTUM_SANDBOX" | "QUANTUM_MAINNET" = "QUANTUM_SANDBOX") =>
    createVault(deps, { tenantId, name: `vault ${networkCode}`, networkCode, actor });
  const walletAudit = async (tenantId: string, action: string) => (await listAuditEvents(t.db, { tenantId, limit: 200, action })).events;

  it("generates on the oldest enrolled key no wallet uses, and answers 409 NO_SIGNER_KEY_AVAILABLE when none is left", async () => {
    const tenantId = await newTenant();
    const vault = await newVault(tenantId);
    const [oldest, middle, newest] = [newKey(), newKey(), newKey()];
    for (const key of [oldest, middle, newest]) {
      await enrollSignerKeys(deps, { tenantId, keys: [{ publicKey: key.publicKey, proof: key.proofFor(tenantId) }], actor });
    }
    // Registering the middle key's address takes that key out of the pool.
    await registerWallet(deps, {
      tenantId,
      vaultId: vault.id,
      address: middle.address,
      publicKey: middle.publicKey,
      signature: middle.proofFor(tenantId),
      actor,
    });
    expect(await countSignerKeys(deps, { tenantId })).toEqual({ available: 2, assigned: 1 });

    clock.at = Date.parse("2026-04-01T12:05:00.000Z");
    const first = await generateWallet(deps, { tenantId, vaultId: vault.id, label: "hot", actor });
    expect(first).toEqual({
      id: expect.any(String),
      vaultId: vault.id,
      tenantId,
      assetIds: [NATIVE_ASSET_IDS.QUANTUM_SANDBOX],
      networkLinks: [{ networkCode: "QUANTUM_SANDBOX", vaultId: vault.id }],
      address: oldest.address,
      publicKey: oldest.publicKey,
      label: "hot",
      status: "ACTIVE",
      type: "SIGNER_MANAGED",
      createdAt: "2026-04-01T12:05:00.000Z",
    });
    const second = await generateWallet(deps, { tenantId, vaultId: vault.id, actor });
    expect(second.address).toBe(newest.address);
    await expect(generateWallet(deps, { tenantId, vaultId: vault.id, actor })).rejects.toMatchObject({
      error: "NO_SIGNER_KEY_AVAILABLE",
      code: 1104,
      status: 409,
    });
    expect(await countSignerKeys(deps, { tenantId })).toEqual({ available: 0, assigned: 3 });

    const events = await listAggregateEvents(t.db, { tenantId, aggregateType: "wallet", aggregateId: first.id });
    expect(events.map((e) => [e.type, e.sequence, e.data])).toEqual([["wallet.created", 1, { wallet: first }]]);
    expect((await walletAudit(tenantId, "wallet.generated")).map((e) => e.targetId)).toEqual([second.id, first.id]);
  });

  it("refuses every bad ownership proof with 400 INVALID_OWNERSHIP_PROOF (1105) and its reason, writing nothing", async () => {
    const tenantId = await newTenant();
    const otherTenantId = await newTenant();
    const vault = await newVault(tenantId);
    const key = newKey();
    const stranger = newKey();
    const good = { tenantId, vaultId: vault.id, address: key.address, publicKey: key.publicKey, signature: key.proofFor(tenantId), actor };
    const cases: [string, Partial<typeof good>][] = [
      ["ADDRESS_FORMAT", { address: "0x1234" }],
      ["ADDRESS_FORMAT", { address: `${key.address}00` }],
      ["PUBLIC_KEY_FORMAT", { publicKey: key.publicKey.slice(0, -2) }],
      ["SIGNATURE_FORMAT", { signature: "0xdeadbeef" }],
      ["ADDRESS_MISMATCH", { publicKey: stranger.publicKey }],
      ["PROOF_INVALID", { signature: key.proofFor(otherTenantId) }],
    ];
    for (const [reason, change] of cases) {
      await expect(registerWallet(deps, { ...good, ...change })).rejects.toMatchObject({
        error: "INVALID_OWNERSHIP_PROOF",
        code: 1105,
        status: 400,
        details: { reason },
      });
    }
    expect((await listVaultWallets(deps, { tenantId, vaultId: vault.id, limit: 10 })).wallets).toEqual([]);

    // Upper-case hex without 0x is accepted and stored canonical.
    const registered = await registerWallet(deps, { ...good, publicKey: key.publicKey.slice(2).toUpperCase() });
    expect(registered).toMatchObject({ type: "REGISTERED", address: key.address, publicKey: key.publicKey });
    await expect(registerWallet(deps, good)).rejects.toMatchObject({
      error: "ADDRESS_ALREADY_REGISTERED",
      code: 1103,
      status: 409,
      details: { address: key.address },
    });
    expect((await walletAudit(tenantId, "wallet.registered")).map((e) => e.targetId)).toEqual([registered.id]);
  });

  it("adds a watch-only wallet without a key, validating its address and assets", async () => {
    const tenantId = await newTenant();
    const vault = await newVault(tenantId, "QUANTUM_MAINNET");
    const address = `0x${"ab".repeat(20)}`;
    const watched = await createWatchOnlyWallet(deps, { tenantId, vaultId: vault.id, address, label: "exchange", actor });
    expect(watched).toMatchObject({
      type: "WATCH_ONLY",
      publicKey: null,
      address,
      label: "exchange",
      assetIds: [NATIVE_ASSET_IDS.QUANTUM_MAINNET],
    });
    await expect(createWatchOnlyWallet(deps, { tenantId, vaultId: vault.id, address: "0xnot-an-address", actor })).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "address" }] },
    });
    await expect(
      createWatchOnlyWallet(deps, {
        tenantId,
        vaultId: vault.id,
        address: `0x${"cd".repeat(20)}`,
        assetIds: [NATIVE_ASSET_IDS.QUANTUM_MAINNET, NATIVE_ASSET_IDS.QUANTUM_SANDBOX],
        actor,
      }),
    ).rejects.toMatchObject({
      error: "UNKNOWN_ASSET",
      code: 1107,
      details: { assetId: NATIVE_ASSET_IDS.QUANTUM_SANDBOX, index: 1, networkCode: "QUANTUM_MAINNET" },
    });
    await expect(createWatchOnlyWallet(deps, { tenantId, vaultId: vault.id, address, actor })).rejects.toMatchObject({
      error: "ADDRESS_ALREADY_REGISTERED",
      code: 1103,
    });
    expect((await listVaultWallets(deps, { tenantId, vaultId: vault.id, limit: 10 })).wallets.map((w) => w.id)).toEqual([watched.id]);
  });

  it(
    "places a wallet on another network: the vault must be on it (NETWORK_MISMATCH), one vault per network, active " + "vaults only",
    async () => {
      const tenantId = await newTenant();
      const home = await newVault(tenantId, "QUANTUM_SANDBOX");
      const mainnet = await newVault(tenantId, "QUANTUM_MAINNET");
      const otherMainnet = await newVault(tenantId, "QUANTUM_MAINNET");
      const wallet = await createWatchOnlyWallet(deps, { tenantId, vaultId: home.id, address: `0x${"12".repeat(20)}`, actor });

      await expect(
        addNetworkLink(deps, { tenantId, walletId: wallet.id, networkCode: "QUANTUM_MAINNET", vaultId: home.id, actor }),
      ).rejects.toMatchObject({
        error: "NETWORK_MISMATCH",
        code: 1106,
        status: 400,
        details: { vaultId: home.id, vaultNetworkCode: "QUANTUM_SANDBOX", networkCode: "QUANTUM_MAINNET" },
      });
      const placed = await addNetworkLink(deps, {
        tenantId,
        walletId: wallet.id,
        networkCode: "QUANTUM_MAINNET",
        vaultId: mainnet.id,
        actor,
      });
      expect(placed.created).toBe(true);
      expect(placed.wallet.networkLinks).toEqual([
        { networkCode: "QUANTUM_SANDBOX", vaultId: home.id },
        { networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id },
      ]);
      expect(
        await addNetworkLink(deps, { tenantId, walletId: wallet.id, networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id, actor }),
      ).toEqual({ wallet: placed.wallet, created: false });
      await expect(
        addNetworkLink(deps, { tenantId, walletId: wallet.id, networkCode: "QUANTUM_MAINNET", vaultId: otherMainnet.id, actor }),
      ).rejects.toMatchObject({
        error: "CONFLICT",
        code: 1040,
        details: { networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id },
      });
      expect((await listVaultWallets(deps, { tenantId, vaultId: mainnet.id, limit: 10 })).wallets).toEqual([placed.wallet]);
      expect((await walletAudit(tenantId, "wallet.network_linked")).map((e) => e.details)).toEqual([
        { networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id },
      ]);

      const second = await createWatchOnlyWallet(deps, { tenantId, vaultId: home.id, address: `0x${"34".repeat(20)}`, actor });
      await archiveVault(deps, { tenantId, vaultId: otherMainnet.id, actor });
      await expect(
        addNetworkLink(deps, { tenantId, walletId: second.id, networkCode: "QUANTUM_MAINNET", vaultId: otherMainnet.id, actor }),
      ).rejects.toMatchObject({
        error: "VAULT_ARCHIVED",
        code: 1101,
      });
      await archiveWallet(deps, { tenantId, walletId: second.id, actor });
      await expect(
        addNetworkLink(deps, { tenantId, walletId: second.id, networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id, actor }),
      ).rejects.toMatchObject({
        error: "WALLET_ARCHIVED",
        code: 1102,
      });
    },
  );

  it("archives a wallet once (idempotent, one audit row); another tenant's wallet is 404", async () => {
    const tenantId = await newTenant();
    const otherTenantId = await newTenant();
    const vault = await newVault(tenantId);
    const wallet = await createWatchOnlyWallet(deps, { tenantId, vaultId: vault.id, address: `0x${"56".repeat(20)}`, actor });
    const notFound = { error: "NOT_FOUND", code: 1030, status: 404 };
    await expect(archiveWallet(deps, { tenantId: otherTenantId, walletId: wallet.id, actor })).rejects.toMatchObject(notFound);
    await expect(getWallet(deps, { tenantId: otherTenantId, walletId: wallet.id })).rejects.toMatchObject(notFound);

    const archived = await archiveWallet(deps, { tenantId, walletId: wallet.id, actor });
    expect(archived).toEqual({ ...wallet, status: "ARCHIVED" });
    expect(await archiveWallet(deps, { tenantId, walletId: wallet.id, actor })).toEqual(archived);
    expect(await getWallet(deps, { tenantId, walletId: wallet.id })).toEqual(archived);
    expect((await walletAudit(tenantId, "wallet.archived")).map((e) => e.targetId)).toEqual([wallet.id]);

    // An archived vault takes no new wallets of any kind, but still lists the ones it has.
    await archiveVault(deps, { tenantId, vaultId: vault.id, actor });
    await expect(
      createWatchOnlyWallet(deps, { tenantId, vaultId: vault.id, address: `0x${"78".repeat(20)}`, actor }),
    ).rejects.toMatchObject({ error: "VAULT_ARCHIVED" });
    await expect(generateWallet(deps, { tenantId, vaultId: vault.id, actor })).rejects.toMatchObject({ error: "VAULT_ARCHIVED" });
    expect((await listVaultWallets(deps, { tenantId, vaultId: vault.id, limit: 10 })).wallets).toEqual([archived]);
  });
});
