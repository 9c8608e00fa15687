import { addressFromPublicKey, generateKeyPair, signOwnershipProof } from "@qc/chain";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, deployTestToken, sendToken, useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTokenAsset } from "../assets/add-token-asset";
import { NATIVE_ASSET_IDS } from "../assets/native-assets";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture } from "../testing/fixtures";
import { countingRpcProxy } from "../testing/counting-rpc-proxy";
import { createTestServiceDeps } from "../testing/service-deps";
import { createTransferWalletFixture } from "../testing/transfer-fixtures";
import { createVault } from "../vaults/create-vault";
import { registerWallet } from "../wallets/register-wallet";
import { readWalletBalance } from "./read-wallet-balance";
import { summarizeBalances } from "./summarize-balances";

const Q = 10n ** 18n;
const SANDBOX = NATIVE_ASSET_IDS.QUANTUM_SANDBOX;
const MAINNET = NATIVE_ASSET_IDS.QUANTUM_MAINNET;

/**
 * The overview's balances against real PostgreSQL and a real devnet; the mainnet's RPC is a port
 * nobody listens on, as a network that is down.
 */
describe("summarizeBalances", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({
      database: t,
      config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url], QUANTUM_MAINNET: ["http://127.0.0.1:9"] } },
    });
  });
  afterAll(() => deps?.close());
  const actor = systemActor("summarize-balances-test");
  const newTenant = async () => (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) })).tenantId;

  it("sums live balances per asset and per vault, equal to each wallet's own balance, the tenant's wallets only", async () => {
    const tenantId = await newTenant();
    const a = await createTransferWalletFixture(deps, { tenantId });
    const b = await createTransferWalletFixture(deps, { tenantId });
    // A third wallet in the first vault, tracking a token it holds.
    const owner = await createFundedAccount(devnet(), 10n * Q);
    const token = await deployTestToken(devnet(), owner, { symbol: "OVW", decimals: 6 });
    const { asset } = await addTokenAsset(deps, { tenantId, networkCode: "QUANTUM_SANDBOX", contractAddress: token, actor });
    const keys = generateKeyPair();
    const publicKey = `0x${Buffer.from(keys.publicKey).toString("hex")}` as const;
    const address = addressFromPublicKey(publicKey);
    const c = await registerWallet(deps, {
      tenantId,
      vaultId: a.vaultId,
      address,
      publicKey,
      signature: signOwnershipProof({ tenantId, address, secretKey: keys.secretKey }),
      assetIds: [SANDBOX, asset.id],
      actor,
    });
    await devnet().fund(a.address, 3n * Q);
    await devnet().fund(b.address, 2n * Q + 1n);
    await devnet().fund(address, 5n);
    await sendToken(devnet(), owner, token, address, 1_234_567n);
    await devnet().mine(1);
    // Someone else's wallet is not counted.
    const stranger = await createTransferWalletFixture(deps, { tenantId: await newTenant() });
    await devnet().fund(stranger.address, 100n * Q);

    const summary = await summarizeBalances(deps, { tenantId });
    const head = Number(await devnet().publicClient().getBlockNumber());
    expect(summary.networks).toEqual([{ networkCode: "QUANTUM_SANDBOX", status: "AVAILABLE", blockNumber: head, message: null }]);
    expect(summary.truncated).toBe(false);
    const native = { networkCode: "QUANTUM_SANDBOX", symbol: "Q", decimals: 18 };
    const tokenTotal = {
      assetId: asset.id,
      networkCode: "QUANTUM_SANDBOX",
      symbol: "OVW",
      decimals: 6,
      balance: "1234567",
      walletCount: 1,
    };
    expect(summary.totals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ...native, assetId: SANDBOX, balance: (5n * Q + 6n).toString(), walletCount: 3 }),
        expect.objectContaining(tokenTotal),
      ]),
    );
    expect(summary.totals).toHaveLength(2);
    const byVault = Object.fromEntries(summary.vaults.map((v) => [v.vaultId, v.assets.map((x) => [x.assetId, x.balance, x.walletCount])]));
    expect(byVault).toEqual({
      [a.vaultId]: expect.arrayContaining([
        [SANDBOX, (3n * Q + 5n).toString(), 2],
        [asset.id, "1234567", 1],
      ]),
      [b.vaultId]: [[SANDBOX, (2n * Q + 1n).toString(), 1]],
    });
    // Over the wire: the head and the first balance, then every other read in one JSON-RPC batch.
    const proxy = await countingRpcProxy(devnet().url);
    const counted = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [proxy.url] } } });
    try {
      expect((await summarizeBalances(counted, { tenantId })).totals).toEqual(summary.totals);
      expect(proxy.requests).toEqual([1, 1, 3]);
    } finally {
      await counted.close();
      await proxy.close();
    }
    // The same figures as GET /v1/wallets/{id}/balance, wallet by wallet.
    let sum = 0n;
    for (const walletId of [a.walletId, b.walletId, c.id]) sum += BigInt((await readWalletBalance(deps, { tenantId, walletId })).balance);
    expect(summary.totals.find((x) => x.assetId === SANDBOX)!.balance).toBe(sum.toString());
  });

  it("reports a network that cannot be read as UNAVAILABLE with null sums, never zero, and still reads the others", async () => {
    const tenantId = await newTenant();
    const sandbox = await createTransferWalletFixture(deps, { tenantId });
    await devnet().fund(sandbox.address, Q);
    const vault = await createVault(deps, { tenantId, name: "cold", networkCode: "QUANTUM_MAINNET", actor });
    const keys = generateKeyPair();
    const publicKey = `0x${Buffer.from(keys.publicKey).toString("hex")}` as const;
    const address = addressFromPublicKey(publicKey);
    await registerWallet(deps, {
      tenantId,
      vaultId: vault.id,
      address,
      publicKey,
      signature: signOwnershipProof({ tenantId, address, secretKey: keys.secretKey }),
      actor,
    });

    const summary = await summarizeBalances(deps, { tenantId });
    const mainnet = summary.networks.find((n) => n.networkCode === "QUANTUM_MAINNET")!;
    expect(mainnet).toMatchObject({ status: "UNAVAILABLE", blockNumber: null });
    expect(mainnet.message).toMatch(/QUANTUM_MAINNET network cannot be reached/);
    expect(summary.networks.find((n) => n.networkCode === "QUANTUM_SANDBOX")).toMatchObject({ status: "AVAILABLE" });
    expect(summary.totals.find((x) => x.assetId === MAINNET)).toMatchObject({ balance: null, walletCount: 1 });
    expect(summary.totals.find((x) => x.assetId === SANDBOX)).toMatchObject({ balance: Q.toString(), walletCount: 1 });
    expect(summary.vaults.find((v) => v.vaultId === vault.id)!.assets).toEqual([
      expect.objectContaining({ assetId: MAINNET, balance: null }),
    ]);
  });
});
