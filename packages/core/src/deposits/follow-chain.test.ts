import { addressFromPublicKey, erc20TransferCalldata, generateKeyPair, signOwnershipProof, type NetworkCode } from "@qc/chain";
import { and, asc, eq, schema, sql } from "@qc/db";
import { findFollower, insertDeposits, insertDepositTrail, insertTokenAsset, listStatusHistory, type TransactionRow } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, deployTestToken, sendNative, sendToken, useDevnet, type TestAccount } from "@qc/devnet/testing";
import { bytesToHex } from "@noble/hashes/utils.js";
import { randomBytes } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_ASSET_IDS } from "../assets/native-assets";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { enrollSignerKeys } from "../signer-keys/enroll-signer-keys";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createVault } from "../vaults/create-vault";
import { createWatchOnlyWallet } from "../wallets/create-watch-only-wallet";
import { generateWallet } from "../wallets/generate-wallet";
import { registerWallet } from "../wallets/register-wallet";
import { createChainFollower, type ChainFollower } from "./follow-chain";
import type { DepositMatcher } from "./read-block-deposits";
import { readDepositFollowers } from "./read-deposit-followers";
import { screenDeposit } from "./screen-deposit";

const Q = 10n ** 18n;
const NETWORK: NetworkCode = "QUANTUM_SANDBOX";
const actor = systemActor("follow-chain-test");
const randomAddress = () => `0x${randomBytes(20).toString("hex")}` as Address;

/**
 * The chain follower against real PostgreSQL and a real devnet (blocks mined on demand): every
 * deposit is sent by an outside key, the follower is stepped by the test. The matcher reads the
 * placements from the database at each step (what the wallet directory holds, kept simple here).
 */
describe("chain follower", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let sender: TestAccount;
  const followers: ChainFollower[] = [];

  const matcher: DepositMatcher & { links: Map<string, { tenantId: string; walletId: string; address: string; placedAt: Date }[]> } = {
    links: new Map(),
    lookup(networkCode, address) {
      return this.links.get(`${networkCode}:${address}`) ?? [];
    },
    async sync() {
      const rows = await t.db
        .select({
          networkCode: schema.walletNetworkLinks.networkCode,
          tenantId: schema.walletNetworkLinks.tenantId,
          walletId: schema.walletNetworkLinks.walletId,
          address: schema.wallets.address,
          placedAt: schema.walletNetworkLinks.createdAt,
        })
        .from(schema.walletNetworkLinks)
        .innerJoin(schema.wallets, eq(schema.wallets.id, schema.walletNetworkLinks.walletId));
      const links = new Map<string, { tenantId: string; walletId: string; address: string; placedAt: Date }[]>();
      for (const row of rows) {
        const key = `${row.networkCode}:${row.address}`;
        links.set(key, [...(links.get(key) ?? []), row]);
      }
      this.links = links;
    },
  };

  const follower = (holder = "instance-a", options: { leaseSeconds?: number; batchSize?: number } = {}) => {
    const made = createChainFollower(deps, { networkCode: NETWORK, holder, matcher, intervalMs: 50, ...options });
    followers.push(made);
    return made;
  };

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    sender = await createFundedAccount(devnet(), 1000n * Q);
  });
  afterAll(async () => {
    for (const f of followers) await f.stop();
    await deps?.close();
  });

  const newTenant = async () => (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) })).tenantId;
  const newVault = (tenantId: string) => createVault(deps, { tenantId, name: "deposits", networkCode: NETWORK, actor });
  const watchOnly = async (tenantId: string, address: string = randomAddress()) =>
    createWatchOnlyWallet(deps, { tenantId, vaultId: (await newVault(tenantId)).id, address, actor });
  const registered = async (tenantId: string) => {
    const { publicKey, secretKey } = generateKeyPair();
    const address = addressFromPublicKey(publicKey);
    return registerWallet(deps, {
      tenantId,
      vaultId: (await newVault(tenantId)).id,
      address,
      publicKey: `0x${bytesToHex(publicKey)}`,
      signature: signOwnershipProof({ tenantId, address, secretKey }),
      actor,
    });
  };
  const signerManaged = async (tenantId: string) => {
    const { publicKey, secretKey } = generateKeyPair();
    const address = addressFromPublicKey(publicKey);
    const proof = signOwnershipProof({ tenantId, address, secretKey });
    await enrollSignerKeys(deps, { tenantId, keys: [{ publicKey: `0x${bytesToHex(publicKey)}`, proof }], actor });
    return generateWallet(deps, { tenantId, vaultId: (await newVault(tenantId)).id, actor });
  };

  const deposits = (where: { walletId?: string; chainTxHash?: string }) =>
    t.db
      .select()
      .from(schema.transactions)
      .where(
        and(
          eq(schema.transactions.direction, "INBOUND"),
          where.walletId ? eq(schema.transactions.destinationWalletId, where.walletId) : undefined,
          where.chainTxHash ? eq(schema.transactions.chainTxHash, where.chainTxHash) : undefined,
        ),
      )
      .orderBy(asc(schema.transactions.createdAt));
  const one = async (where: { walletId?: string; chainTxHash?: string }): Promise<TransactionRow> => {
    const rows = await deposits(where);
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };
  const eventsOf = (row: { id: string }) =>
    t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, row.id)).orderBy(asc(schema.eventOutbox.sequence));
  const history = async (row: TransactionRow) =>
    (await listStatusHistory(t.db, row.tenantId, row.id)).map((h) => [h.toStatus, h.subStatus]);
  /** Mines `count` blocks and lets `f` follow them. */
  const mineAndFollow = async (f: ChainFollower, count = 1) => {
    await devnet().mine(count);
    const result = await f.step();
    expect(result).toMatchObject({ held: true });
    return result;
  };
  const receiptOf = (hash: `0x${string}`) => devnet().publicClient().getTransactionReceipt({ hash });

  /** One follower for the file's sequential cases; the lease cases start others. */
  let main: ChainFollower;

  it("starts at the head without a history scan, then records native deposits to signer-managed, registered and watch-only wallets of two tenants in one block", async () => {
    const early = await watchOnly(await newTenant());
    await sendNative(devnet(), sender, early.address as Address, Q);
    await devnet().mine(1);

    main = follower();
    const head = Number(await devnet().publicClient().getBlockNumber());
    expect(await main.step()).toMatchObject({ held: true, blocks: 0, cursor: head, head });
    expect(await findFollower(t.db, NETWORK)).toMatchObject({ holder: "instance-a", blockNumber: head });
    // The block before the start is not scanned.
    expect(await deposits({ walletId: early.id })).toEqual([]);

    const tenantA = await newTenant();
    const tenantB = await newTenant();
    const wallets = [await signerManaged(tenantA), await registered(tenantA), await watchOnly(tenantA), await watchOnly(tenantB)];
    const hashes: `0x${string}`[] = [];
    for (const [i, w] of wallets.entries()) hashes.push(await sendNative(devnet(), sender, w.address as Address, BigInt(i + 1) * Q));
    expect(await mineAndFollow(main)).toMatchObject({ blocks: 1, cursor: head + 1 });

    const receipt = await receiptOf(hashes[0]!);
    for (const [i, w] of wallets.entries()) {
      const row = await one({ walletId: w.id });
      expect(row).toMatchObject({
        tenantId: w.tenantId,
        type: "DEPOSIT",
        direction: "INBOUND",
        status: "CONFIRMING",
        networkCode: NETWORK,
        chainId: 20804,
        sourceWalletId: null,
        sourceAddress: sender.address,
        destinationWalletId: w.id,
        destinationAddress: w.address,
        assetId: NATIVE_ASSET_IDS[NETWORK],
        tokenAddress: null,
        logIndex: null,
        amount: (BigInt(i + 1) * Q).toString(),
        chainTxHash: hashes[i],
        blockNumber: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        confirmations: 1,
        requiredConfirmations: 2,
        screening: null,
      });
      const events = await eventsOf(row);
      expect(events.map((e) => [e.type, e.sequence, e.tenantId])).toEqual([["transaction.created", 1, w.tenantId]]);
      expect((events[0]!.data as { transaction: { direction: string; status: string } }).transaction).toMatchObject({
        direction: "INBOUND",
        type: "DEPOSIT",
        status: "CONFIRMING",
        destinationWalletId: w.id,
      });
      expect(await history(row)).toEqual([["CONFIRMING", null]]);
      // The sender's screening is queued with the deposit.
      expect(await deps.jobs.boss.findJobs("deposits.screen", { data: { transactionId: row.id }, queued: true })).toHaveLength(1);
    }

    // The next block gives the second confirmation: COMPLETED, with its event.
    await mineAndFollow(main);
    for (const w of wallets) {
      const row = await one({ walletId: w.id });
      expect(row).toMatchObject({ status: "COMPLETED", confirmations: 2, completedAt: expect.any(Date) });
      expect((await eventsOf(row)).map((e) => e.type)).toEqual(["transaction.created", "transaction.status_changed"]);
      expect(await history(row)).toEqual([
        ["CONFIRMING", null],
        ["COMPLETED", null],
      ]);
      const audit = await t.db
        .select()
        .from(schema.auditEvents)
        .where(eq(schema.auditEvents.targetId, row.id))
        .orderBy(asc(schema.auditEvents.createdAt));
      expect(audit.map((a) => [a.action, a.actorId, a.tenantId])).toEqual([
        ["transaction.created", "deposits.follow", w.tenantId],
        ["transaction.completed", "deposits.follow", w.tenantId],
      ]);
    }
  });

  it("credits every tenant holding an address, and a wallet only from the block at which it was placed", async () => {
    const shared = randomAddress();
    const [a, b] = [await watchOnly(await newTenant(), shared), await watchOnly(await newTenant(), shared)];
    const hash = await sendNative(devnet(), sender, shared, 5n * Q);
    await mineAndFollow(main);
    expect((await one({ walletId: a.id })).chainTxHash).toBe(hash);
    expect((await one({ walletId: b.id })).chainTxHash).toBe(hash);
    expect(await deposits({ chainTxHash: hash })).toHaveLength(2);

    // A block mined before the wallet exists (a second earlier at least) credits nothing to it,
    // even when the follower reads that block after the wallet was placed.
    const late = randomAddress();
    const before = await sendNative(devnet(), sender, late, Q);
    await devnet().mine(1);
    const { timestamp } = await devnet().publicClient().getBlock();
    while (Math.floor(Date.now() / 1000) <= Number(timestamp)) await new Promise((r) => setTimeout(r, 50));
    const wallet = await watchOnly(await newTenant(), late);
    const after = await sendNative(devnet(), sender, late, 2n * Q);
    await mineAndFollow(main);
    expect(await deposits({ chainTxHash: before })).toEqual([]);
    expect(await one({ walletId: wallet.id })).toMatchObject({ chainTxHash: after, amount: (2n * Q).toString() });
  });

  it("records ERC-20 deposits: the tenant's asset when it has one for the contract, assetId null and the token's address otherwise", async () => {
    const token = await deployTestToken(devnet(), sender, { symbol: "DEP" });
    await main.step();
    const withAsset = await newTenant();
    const asset = await insertTokenAsset(t.db, {
      tenantId: withAsset,
      networkCode: NETWORK,
      symbol: "DEP",
      name: "Deposit token",
      decimals: 6,
      contractAddress: token,
      createdAt: new Date(),
    });
    const [known, unknown] = [await registered(withAsset), await watchOnly(await newTenant())];
    const first = await sendToken(devnet(), sender, token, known.address as Address, 1_500_000n);
    const second = await sendToken(devnet(), sender, token, unknown.address as Address, 700n);
    await mineAndFollow(main);
    const [r1, r2] = [await receiptOf(first), await receiptOf(second)];
    expect(await one({ walletId: known.id })).toMatchObject({
      type: "DEPOSIT",
      status: "CONFIRMING",
      assetId: asset.id,
      tokenAddress: token,
      logIndex: r1.logs[0]!.logIndex,
      amount: "1500000",
      sourceAddress: sender.address,
      destinationAddress: known.address,
      chainTxHash: first,
      blockNumber: Number(r1.blockNumber),
    });
    expect(await one({ walletId: unknown.id })).toMatchObject({
      assetId: null,
      tokenAddress: token,
      logIndex: r2.logs[0]!.logIndex,
      amount: "700",
      chainTxHash: second,
    });
    // The token transfers carry no native value: no native deposit beside them.
    expect(await deposits({ chainTxHash: first })).toHaveLength(1);

    // Value sent with a call to a watch-only address that is a contract refusing it: reverted, nothing moved, nothing recorded.
    const contract = await watchOnly(await newTenant(), token);
    const refused = await sendNative(devnet(), sender, token, Q, { data: erc20TransferCalldata({ to: randomAddress(), amount: 1n }) });
    const accepted = await sendToken(devnet(), sender, token, contract.address as Address, 5n);
    await mineAndFollow(main);
    expect((await receiptOf(refused)).status).toBe("reverted");
    expect(await deposits({ chainTxHash: refused })).toEqual([]);
    expect(await one({ walletId: contract.id })).toMatchObject({ chainTxHash: accepted, tokenAddress: token, amount: "5" });
  });

  it("records the sender's screening after the deposit: a denylisted sender is BLOCKED and the deposit stays; a provider down leaves it unscreened and retries", async () => {
    const wallet = await watchOnly(await newTenant());
    await sendNative(devnet(), sender, wallet.address as Address, Q);
    await mineAndFollow(main);
    const row = await one({ walletId: wallet.id });
    expect(row.screening).toBeNull();

    const down = {
      ...deps,
      config: {
        ...deps.config,
        screening: { denylist: [], maxAttempts: 5, providerUrl: "http://127.0.0.1:9/screen", providerTimeoutMs: 500 },
      },
    };
    await expect(screenDeposit(down, { tenantId: row.tenantId, transactionId: row.id })).rejects.toMatchObject({ error: "UNAVAILABLE" });
    expect((await one({ walletId: wallet.id })).screening).toBeNull();

    const listed = {
      ...deps,
      config: { ...deps.config, screening: { denylist: [sender.address.toUpperCase().replace("0X", "0x")], maxAttempts: 5 } },
    };
    const { screening } = await screenDeposit(listed, { tenantId: row.tenantId, transactionId: row.id });
    expect(screening).toMatchObject({ provider: "denylist", decision: "BLOCKED", reasons: [expect.stringContaining(sender.address)] });
    expect(await one({ walletId: wallet.id })).toMatchObject({ status: "CONFIRMING", screening });
    // Written once: a later run (a retried job) keeps the first verdict.
    expect((await screenDeposit(deps, { tenantId: row.tenantId, transactionId: row.id })).screening).toEqual(screening);
    await mineAndFollow(main);
    expect(await one({ walletId: wallet.id })).toMatchObject({ status: "COMPLETED", screening });
  });

  /** The row's status history as [toStatus, subStatus, reason mentions a reorg]. */
  const trail = async (row: TransactionRow) =>
    (await listStatusHistory(t.db, row.tenantId, row.id)).map((h) => [h.toStatus, h.subStatus, (h.reason ?? "").startsWith("reorg: ")]);

  it("a reorg of depth 1 under a confirming deposit: back to CONFIRMING without a block, anchored again in the new block, COMPLETED once", async () => {
    const wallet = await watchOnly(await newTenant());
    const hash = await sendNative(devnet(), sender, wallet.address as Address, 3n * Q);
    await mineAndFollow(main);
    const first = await one({ walletId: wallet.id });
    expect(first).toMatchObject({ status: "CONFIRMING", confirmations: 1, blockNumber: expect.any(Number) });

    await devnet().rpc("devnet_reorg", ["0x1"]);
    await sendNative(devnet(), sender, randomAddress(), 1n); // the new block differs from the old one
    const seen = await mineAndFollow(main);
    expect(seen).toMatchObject({ rewoundTo: first.blockNumber! - 1 });
    expect(await one({ walletId: wallet.id })).toMatchObject({
      status: "CONFIRMING",
      blockNumber: null,
      blockHash: null,
      confirmations: 0,
      statusReason: expect.stringContaining(`reorg: block ${first.blockNumber}`),
    });

    await main.step();
    const receipt = await receiptOf(hash);
    expect(receipt.blockHash).not.toBe(first.blockHash);
    expect(await one({ walletId: wallet.id })).toMatchObject({
      status: "CONFIRMING",
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      confirmations: 1,
    });
    await mineAndFollow(main);
    const done = await one({ walletId: wallet.id });
    expect(done).toMatchObject({ id: first.id, status: "COMPLETED", blockHash: receipt.blockHash, confirmations: 2 });
    expect(await trail(done)).toEqual([
      ["CONFIRMING", null, false],
      ["CONFIRMING", null, true],
      ["COMPLETED", null, false],
    ]);
    expect((await eventsOf(done)).map((e) => [e.type, e.sequence])).toEqual([
      ["transaction.created", 1],
      ["transaction.status_changed", 2],
      ["transaction.status_changed", 3],
    ]);
  });

  it("a reorg of depth 2 under a confirming token deposit: anchored again with the new block's log index, COMPLETED once", async () => {
    const token = await deployTestToken(devnet(), sender, { symbol: "RG2" });
    await main.step();
    const wallet = await registered(await newTenant());
    await sendNative(devnet(), sender, randomAddress(), 1n);
    await mineAndFollow(main);
    const hash = await sendToken(devnet(), sender, token, wallet.address as Address, 42n);
    await mineAndFollow(main);
    const first = await one({ walletId: wallet.id });
    expect(first).toMatchObject({ status: "CONFIRMING", tokenAddress: token, confirmations: 1 });

    await devnet().rpc("devnet_reorg", ["0x2"]);
    // Both blocks' transactions come back in one new block with a transfer more: the record follows the new log.
    const other = await createFundedAccount(devnet(), 10n * Q);
    await sendToken(devnet(), sender, token, other.address, 1n);
    await devnet().mine(1);
    expect(await main.step()).toMatchObject({ rewoundTo: first.blockNumber! - 2 });
    expect(await one({ walletId: wallet.id })).toMatchObject({ status: "CONFIRMING", blockNumber: null, confirmations: 0 });

    await main.step();
    const receipt = await receiptOf(hash);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === token)!;
    expect(await one({ walletId: wallet.id })).toMatchObject({
      id: first.id,
      status: "CONFIRMING",
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      logIndex: log.logIndex,
      confirmations: 1,
    });
    await mineAndFollow(main);
    const done = await one({ walletId: wallet.id });
    expect(done).toMatchObject({ status: "COMPLETED", confirmations: 2 });
    expect(await trail(done)).toEqual([
      ["CONFIRMING", null, false],
      ["CONFIRMING", null, true],
      ["COMPLETED", null, false],
    ]);
  });

  it("a deposit whose transaction left the chain with its block ends FAILED/DROPPED_BY_CHAIN", async () => {
    const wallet = await watchOnly(await newTenant());
    await sendNative(devnet(), sender, wallet.address as Address, 2n * Q);
    await mineAndFollow(main);
    expect(await one({ walletId: wallet.id })).toMatchObject({ status: "CONFIRMING" });

    await devnet().rpc("devnet_reorg", ["0x1", { dropTransactions: true }]);
    await sendNative(devnet(), sender, randomAddress(), 1n);
    await mineAndFollow(main);
    const dropped = await one({ walletId: wallet.id });
    expect(dropped).toMatchObject({ status: "FAILED", subStatus: "DROPPED_BY_CHAIN", blockNumber: null, confirmations: 0 });
    expect(await trail(dropped)).toEqual([
      ["CONFIRMING", null, false],
      ["CONFIRMING", null, true],
      ["FAILED", "DROPPED_BY_CHAIN", false],
    ]);
    // Final: the next blocks change nothing.
    await mineAndFollow(main, 2);
    expect(await one({ walletId: wallet.id })).toMatchObject({ status: "FAILED", updatedAt: dropped.updatedAt });
  });

  it("a replayed block records nothing twice", async () => {
    const wallet = await watchOnly(await newTenant());
    await sendNative(devnet(), sender, wallet.address as Address, Q);
    await mineAndFollow(main);
    const row = await one({ walletId: wallet.id });
    const before = await findFollower(t.db, NETWORK);
    // The cursor back one block (what a follower killed after its commit but before it knew would
    // find, or an operator's rewind): the block is read and recorded again.
    const below = await devnet()
      .publicClient()
      .getBlock({ blockNumber: BigInt(before!.blockNumber! - 1) });
    await t.db
      .update(schema.chainFollowers)
      .set({ blockNumber: Number(below.number), blockHash: below.hash })
      .where(eq(schema.chainFollowers.networkCode, NETWORK));
    expect(await main.step()).toMatchObject({ held: true, blocks: 1, cursor: before!.blockNumber });
    expect(await deposits({ walletId: wallet.id })).toEqual([row]);
    expect(await eventsOf(row)).toHaveLength(1);
    expect(await deps.jobs.boss.findJobs("deposits.screen", { data: { transactionId: row.id } })).toHaveLength(1);
  });

  it("one follower per network: a second instance waits while the lease is held, takes over once it runs out, and nothing is missed or doubled", async () => {
    // The file's follower stops cleanly: it gives the lease up.
    await main.stop();
    const [c, d] = [follower("instance-c", { leaseSeconds: 1 }), follower("instance-d", { leaseSeconds: 1 })];
    const wallet = await watchOnly(await newTenant());
    const firstHash = await sendNative(devnet(), sender, wallet.address as Address, Q);
    await devnet().mine(1);
    const raced = await Promise.all([c.step(), d.step()]);
    expect(raced.filter((r) => r.held)).toHaveLength(1);
    const [holder, other] = raced[0]!.held ? [c, d] : [d, c];
    expect(await one({ chainTxHash: firstHash })).toMatchObject({ destinationWalletId: wallet.id });

    // The holder dies without a word (its lease is not given up); deposits keep coming.
    const secondHash = await sendNative(devnet(), sender, wallet.address as Address, 2n * Q);
    await devnet().mine(1);
    expect(await other.step()).toEqual({ held: false, blocks: 0 });
    const lease = await findFollower(t.db, NETWORK);
    while ((await t.db.execute<{ expired: boolean }>(sql`select now() > ${lease!.leaseExpiresAt} as expired`)).rows[0]!.expired !== true)
      await new Promise((r) => setTimeout(r, 100));
    expect(await other.step()).toMatchObject({ held: true, blocks: 1 });
    expect(await findFollower(t.db, NETWORK)).toMatchObject({ holder: lease!.holder === "instance-c" ? "instance-d" : "instance-c" });
    // The one that died comes back: the other holds the lease now.
    expect(await holder.step()).toEqual({ held: false, blocks: 0 });
    await mineAndFollow(other);
    expect(await deposits({ walletId: wallet.id })).toMatchObject([
      { chainTxHash: firstHash, status: "COMPLETED" },
      { chainTxHash: secondHash, status: "COMPLETED" },
    ]);
  });

  it("a chain shorter than the cursor (a node reset under the follower): follows again from the head, its deposits dropped", async () => {
    const wallet = await watchOnly(await newTenant());
    const e = follower("instance-e");
    await t.db
      .update(schema.chainFollowers)
      .set({ holder: null, leaseExpiresAt: null })
      .where(eq(schema.chainFollowers.networkCode, NETWORK));
    expect(await e.step()).toMatchObject({ held: true });
    // The follower's state as a longer chain left it: the cursor 1,000 blocks above the head, a
    // deposit of a block the node no longer has.
    const head = Number(await devnet().publicClient().getBlockNumber());
    const fake = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
    await t.db
      .update(schema.chainFollowers)
      .set({ blockNumber: head + 1000, blockHash: fake(head + 1000) })
      .where(eq(schema.chainFollowers.networkCode, NETWORK));
    await t.db
      .insert(schema.chainFollowerBlocks)
      .values(
        [head + 999, head + 1000].map((n) => ({ networkCode: NETWORK, blockNumber: n, blockHash: fake(n), parentHash: fake(n - 1) })),
      );
    const [lost] = await t.db.transaction((tx) =>
      insertDeposits(tx, {
        networkCode: NETWORK,
        blockNumber: head + 1000,
        blockHash: fake(head + 1000),
        at: new Date(),
        deposits: [
          {
            tenantId: wallet.tenantId,
            walletId: wallet.id,
            chainId: 20804,
            sourceAddress: sender.address,
            destinationAddress: wallet.address,
            tokenAddress: null,
            logIndex: null,
            amount: "1",
            chainTxHash: `0x${randomBytes(32).toString("hex")}`,
            requiredConfirmations: 2,
          },
        ],
      }),
    );

    expect(await e.step()).toMatchObject({ held: true, rewoundTo: head });
    expect(await findFollower(t.db, NETWORK)).toMatchObject({ blockNumber: head });
    expect(await one({ walletId: wallet.id })).toMatchObject({ id: lost!.id, status: "FAILED", subStatus: "DROPPED_BY_CHAIN" });
    // And it follows the chain there is.
    const hash = await sendNative(devnet(), sender, wallet.address as Address, Q);
    await mineAndFollow(e);
    expect(await deposits({ chainTxHash: hash })).toMatchObject([{ destinationWalletId: wallet.id, status: "CONFIRMING" }]);
  });

  it("reports each network's cursor, head and blocks behind (the /metrics figure)", async () => {
    const head = Number(await devnet().mine(3));
    const [status] = await readDepositFollowers(deps);
    const row = (await findFollower(t.db, NETWORK))!;
    expect(status).toEqual({
      networkCode: NETWORK,
      holder: row.holder,
      leaseExpiresAt: row.leaseExpiresAt,
      cursor: row.blockNumber,
      head,
      blocksBehind: head - row.blockNumber!,
    });
    expect(status!.blocksBehind).toBeGreaterThanOrEqual(3);
  });

  it("writes a block of more deposits than one statement takes (3,000) in several statements, each once", async () => {
    const wallet = await watchOnly(await newTenant());
    const at = new Date();
    const candidates = Array.from({ length: 3000 }, () => ({
      tenantId: wallet.tenantId,
      walletId: wallet.id,
      chainId: 20804,
      sourceAddress: sender.address,
      destinationAddress: wallet.address,
      tokenAddress: null,
      logIndex: null,
      amount: "1",
      chainTxHash: `0x${randomBytes(32).toString("hex")}`,
      requiredConfirmations: 2,
    }));
    const position = { networkCode: NETWORK, blockNumber: 1, blockHash: `0x${"ab".repeat(32)}`, at };
    const written = await t.db.transaction(async (tx) => {
      const rows = await insertDeposits(tx, { ...position, deposits: candidates });
      await insertDepositTrail(tx, { rows, actorType: "system", actorId: "deposits.follow", data: () => ({}) });
      return rows;
    });
    expect(written).toHaveLength(3000);
    // Again: the unique index lets nothing in twice.
    expect(await t.db.transaction((tx) => insertDeposits(tx, { ...position, deposits: candidates }))).toEqual([]);
    expect(await deposits({ walletId: wallet.id })).toHaveLength(3000);
    const events = await t.db
      .select({ sequence: schema.eventOutbox.sequence })
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.tenantId, wallet.tenantId), eq(schema.eventOutbox.type, "transaction.created")));
    expect(events).toHaveLength(3000);
    expect(new Set(events.map((e) => e.sequence))).toEqual(new Set([1]));
  });
});
