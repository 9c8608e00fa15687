import { randomBytes } from "node:crypto";
import { notifyChannel, WALLET_LINKS_CHANNEL } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { sql } from "@qc/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createLogger } from "../logger";
import { enrollSignerKeys } from "../signer-keys/enroll-signer-keys";
import { createTenantFixture, createWalletKeyFixture as newKey } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createVault } from "../vaults/create-vault";
import { addNetworkLink } from "../wallets/add-network-link";
import { archiveWallet } from "../wallets/archive-wallet";
import { createWatchOnlyWallet } from "../wallets/create-watch-only-wallet";
import { generateWallet } from "../wallets/generate-wallet";
import { registerWallet } from "../wallets/register-wallet";
import { createWalletDirectory, type WalletDirectory } from "./wallet-directory";

const randomAddress = () => `0x${randomBytes(20).toString("hex")}`;

/**
 * The deposits' wallet directory against real PostgreSQL: wallets made through the services (every
 * type, every placement) are found by (network, address) once started, and after start through the
 * NOTIFY their placement sends on commit; a cut LISTEN connection makes it load everything again.
 * The listener logs in as a role of its own, so the test can keep it out (NOLOGIN) while a wallet is
 * made, which proves the reload, not the notification, brought that wallet in.
 */
describe("createWalletDirectory", () => {
  const t = useTestDatabase();
  const suffix = randomBytes(4).toString("hex");
  const role = `qc_directory_${suffix}`;
  const clock = { at: Date.parse("2026-04-01T12:00:00.000Z"), now: () => new Date(clock.at) };
  const actor = systemActor("wallet-directory-test");
  const log = createLogger("wallet-directory-test", "silent");
  let deps: ServiceDeps & { close(): Promise<void> };
  let directory: WalletDirectory;
  let listenerUrl: string;
  const started: WalletDirectory[] = [];

  const newTenant = async () => (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 6) })).tenantId;
  const newVault = (tenantId: string, networkCode: "QUANTUM_SANDBOX" | "QUANTUM_MAINNET" = "QUANTUM_SANDBOX") =>
    createVault(deps, { tenantId, name: `vault ${networkCode}`, networkCode, actor });
  const watch = async (tenantId: string, address = randomAddress()) => {
    const vault = await newVault(tenantId);
    return createWatchOnlyWallet(deps, { tenantId, vaultId: vault.id, address, actor });
  };
  const start = async (options: { pageSize?: number } = {}) => {
    const made = createWalletDirectory({ db: t.db, databaseUrl: listenerUrl, log, backoff: { minMs: 50, maxMs: 200 }, ...options });
    started.push(made);
    await made.start();
    return made;
  };
  const listenerPids = async () =>
    (await t.db.execute(sql`select pid from pg_stat_activity where application_name = 'qc-wallet-directory' and usename = ${role}`)).rows;

  // Made before the directory starts: found by its first load.
  const early = {} as Record<"tenantA" | "tenantB" | "shared" | "managed" | "registered" | "watched", string>;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: clock.now });
    await t.db.execute(sql.raw(`create role ${role} login password '${suffix}'`));
    const url = new URL(t.url);
    url.username = role;
    url.password = suffix;
    listenerUrl = url.toString();

    early.tenantA = await newTenant();
    early.tenantB = await newTenant();
    const vaultA = await newVault(early.tenantA);
    const enrolled = newKey();
    await enrollSignerKeys(deps, {
      tenantId: early.tenantA,
      keys: [{ publicKey: enrolled.publicKey, proof: enrolled.proofFor(early.tenantA) }],
      actor,
    });
    early.managed = (await generateWallet(deps, { tenantId: early.tenantA, vaultId: vaultA.id, actor })).id;
    const registered = newKey();
    early.registered = (
      await registerWallet(deps, {
        tenantId: early.tenantA,
        vaultId: vaultA.id,
        address: registered.address,
        publicKey: registered.publicKey,
        signature: registered.proofFor(early.tenantA),
        actor,
      })
    ).id;
    // The registered wallet's address, watched by another tenant too.
    early.shared = registered.address;
    early.watched = (await watch(early.tenantB, registered.address)).id;

    directory = await start();
  });
  afterAll(async () => {
    for (const made of started) await made.stop();
    await deps?.close();
    await t.db.execute(sql.raw(`drop role if exists ${role}`));
  });

  it("finds every wallet type by network and address after start, each tenant's wallet at a shared address", async () => {
    expect(directory.current).toBe(true);
    expect(directory.size()).toBe(3);
    const shared = directory.lookup("QUANTUM_SANDBOX", early.shared);
    expect(
      shared
        .map((wallet) => ({ tenantId: wallet.tenantId, walletId: wallet.walletId }))
        .sort((a, b) => a.tenantId.localeCompare(b.tenantId)),
    ).toEqual(
      [
        { tenantId: early.tenantA, walletId: early.registered },
        { tenantId: early.tenantB, walletId: early.watched },
      ].sort((a, b) => a.tenantId.localeCompare(b.tenantId)),
    );
    for (const wallet of shared)
      expect(wallet).toEqual({ tenantId: wallet.tenantId, walletId: wallet.walletId, address: early.shared, placedAt: new Date(clock.at) });
    const [managedRow] = (await t.db.execute(sql`select address from wallets where id = ${early.managed}`)).rows;
    expect(directory.lookup("QUANTUM_SANDBOX", String(managedRow!.address))).toEqual([
      { tenantId: early.tenantA, walletId: early.managed, address: managedRow!.address, placedAt: new Date(clock.at) },
    ]);
    // Not placed on mainnet; an address nobody holds; the same address not in canonical form.
    expect(directory.lookup("QUANTUM_MAINNET", early.shared)).toEqual([]);
    expect(directory.lookup("QUANTUM_SANDBOX", randomAddress())).toEqual([]);
    expect(directory.lookup("QUANTUM_SANDBOX", early.shared.toUpperCase().replace("0X", "0x"))).toEqual([]);
  });

  it("loads a wallet made after start once its transaction commits, and a new placement on another network from its link's createdAt", async () => {
    const tenantId = await newTenant();
    clock.at = Date.parse("2026-04-01T12:10:00.000Z");
    const wallet = await watch(tenantId);
    await vi.waitFor(() => expect(directory.lookup("QUANTUM_SANDBOX", wallet.address)).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(directory.lookup("QUANTUM_SANDBOX", wallet.address)[0]).toEqual({
      tenantId,
      walletId: wallet.id,
      address: wallet.address,
      placedAt: new Date("2026-04-01T12:10:00.000Z"),
    });
    expect(directory.lookup("QUANTUM_MAINNET", wallet.address)).toEqual([]);

    clock.at = Date.parse("2026-04-01T12:20:00.000Z");
    const mainnet = await newVault(tenantId, "QUANTUM_MAINNET");
    await addNetworkLink(deps, { tenantId, walletId: wallet.id, networkCode: "QUANTUM_MAINNET", vaultId: mainnet.id, actor });
    await vi.waitFor(() => expect(directory.lookup("QUANTUM_MAINNET", wallet.address)).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(directory.lookup("QUANTUM_MAINNET", wallet.address)[0]!.placedAt).toEqual(new Date("2026-04-01T12:20:00.000Z"));
    // Its sandbox placement keeps its own time.
    expect(directory.lookup("QUANTUM_SANDBOX", wallet.address)[0]!.placedAt).toEqual(new Date("2026-04-01T12:10:00.000Z"));
  });

  it("has a wallet committed before sync() resolves, without polling", async () => {
    const wallet = await watch(await newTenant());
    await directory.sync();
    expect(directory.lookup("QUANTUM_SANDBOX", wallet.address).map((held) => held.walletId)).toEqual([wallet.id]);
  });

  it("keeps an archived wallet (a deposit to it is still recorded) and ignores a notification that names no link", async () => {
    const tenantId = await newTenant();
    const wallet = await watch(tenantId);
    await archiveWallet(deps, { tenantId, walletId: wallet.id, actor });
    await notifyChannel(t.db, { channel: WALLET_LINKS_CHANNEL, payload: "not a link id" });
    await directory.sync();
    expect(directory.lookup("QUANTUM_SANDBOX", wallet.address).map((held) => held.walletId)).toEqual([wallet.id]);
    expect(directory.current).toBe(true);
  });

  it("loads every placement again after its LISTEN connection is cut: a wallet made meanwhile is found", async () => {
    const [before] = await listenerPids();
    expect(before).toBeDefined();
    // Reconnects are refused until the wallet is made, so its notification is surely lost.
    await t.db.execute(sql.raw(`alter role ${role} nologin`));
    await t.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'qc-wallet-directory' and usename = ${role}`,
    );
    await vi.waitFor(() => expect(directory.current).toBe(false), { timeout: 5_000, interval: 20 });
    const missed = await watch(await newTenant());
    const sizeBefore = directory.size();
    expect(directory.lookup("QUANTUM_SANDBOX", missed.address)).toEqual([]);

    await t.db.execute(sql.raw(`alter role ${role} login`));
    await vi.waitFor(() => expect(directory.current).toBe(true), { timeout: 10_000, interval: 20 });
    expect(directory.lookup("QUANTUM_SANDBOX", missed.address).map((held) => held.walletId)).toEqual([missed.id]);
    expect(directory.size()).toBe(sizeBefore + 1);
    const after = await listenerPids();
    expect(after).toHaveLength(1);
    expect(after[0]!.pid).not.toBe(before!.pid);
  });

  it("loads every placement however many pages the full load takes", async () => {
    const paged = await start({ pageSize: 2 });
    const [row] = (await t.db.execute(sql`select count(*)::int as links from wallet_network_links`)).rows;
    expect(directory.size()).toBe(Number(row!.links));
    expect(paged.size()).toBe(Number(row!.links));
    expect(paged.lookup("QUANTUM_SANDBOX", early.shared)).toHaveLength(2);
    // A burst of placements is loaded a page at a time too.
    const tenantId = await newTenant();
    const burst = await Promise.all([watch(tenantId), watch(tenantId), watch(tenantId), watch(tenantId), watch(tenantId)]);
    await paged.sync();
    for (const wallet of burst) expect(paged.lookup("QUANTUM_SANDBOX", wallet.address).map((held) => held.walletId)).toEqual([wallet.id]);
    expect(paged.size()).toBe(Number(row!.links) + burst.length);
    await paged.stop();
  });
});
