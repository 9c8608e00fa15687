import { ERC20_ABI } from "@qc/chain";
import { defaultTransferConfig, type ServiceConfig } from "@qc/core";
import { createReleasedTransferFixture, createTenantFixture, createTransferWalletFixture, type TenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import { eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, deployTestToken, newSignerKey, Q, type Client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { eventually, startTestDaemon } from "./identity-helpers";
import { minedFrom, signPending, statusChanges, statusPath, waitForRecord } from "./transfers-back-helpers";
import { fundedSource, nativeTransfer, type FundedSource } from "./transfers-front-helpers";

/** Three confirmations at 300 ms blocks: CONFIRMING lasts long enough for the reorg test to act in it. */
const CONFIRMATIONS = 3;

describe("signature → broadcast → confirmations → COMPLETED (real HTTPS, daemon, devnet)", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 300 });
  let config: Partial<ServiceConfig>;
  let server: TestServer;
  let daemon: Daemon | undefined;
  let tenant: TenantFixture;
  let api: Client;

  beforeAll(async () => {
    config = {
      rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
      transfers: { ...defaultTransferConfig(), requiredConfirmations: { QUANTUM_SANDBOX: CONFIRMATIONS, QUANTUM_MAINNET: 12 } },
    };
    server = await startTestServer({ database: t, config });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    api = client(() => server, tenant.authorization);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  const ensureDaemon = async () => {
    daemon ??= await startTestDaemon(t.url, { config });
  };
  const balance = (address: `0x${string}`) => devnet().publicClient().getBalance({ address });
  const tokenBalance = (token: `0x${string}`, owner: string) =>
    devnet()
      .publicClient()
      .readContract({ address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [owner as `0x${string}`] });
  const receiptOf = (hash: string) =>
    devnet()
      .publicClient()
      .getTransactionReceipt({ hash: hash as `0x${string}` });
  /** Through the real create: POST /v1/transactions, the daemon's checks, release for signing. */
  const createAndRelease = async (source: FundedSource, body: Record<string, unknown>) => {
    const res = await source.api.createTransfer(body);
    expect(res.status, res.text).toBe(201);
    return waitForRecord(source.api, res.json().id, ["PENDING_SIGNATURE"]);
  };

  it("fails closed a transaction changed in the database after signing: FAILED/SIGNATURE_MISMATCH, nothing on chain", async () => {
    expect(daemon, "runs before any daemon: nothing may broadcast before the row is changed").toBeUndefined();
    const wallet = await createTransferWalletFixture(server.deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    const changes = [{ amount: (9n * Q).toString() }, { destinationAddress: newSignerKey().address }];
    const rows = [];
    for (const change of changes) {
      const row = await createReleasedTransferFixture(server.deps, {
        tenantId: tenant.tenantId,
        wallet,
        destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
        amount: Q,
      });
      await signPending(api, row.id, wallet.secretKey);
      await t.db.update(schema.transactions).set(change).where(eq(schema.transactions.id, row.id));
      rows.push(row);
    }
    await ensureDaemon();
    for (const row of rows) {
      const failed = await waitForRecord(api, row.id, ["FAILED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
      expect(failed).toMatchObject({ status: "FAILED", subStatus: "SIGNATURE_MISMATCH", chainTxHash: null, broadcastAt: null });
      expect((await findTransaction(t.db, tenant.tenantId, row.id))!.rawTransaction).toBeNull();
    }
    // Nothing from that address reached the chain, mined or pending, blocks later.
    const head = await devnet().publicClient().getBlockNumber();
    await eventually(async () => (await devnet().publicClient().getBlockNumber()) >= head + 3n);
    expect(await devnet().publicClient().getTransactionCount({ address: wallet.address, blockTag: "pending" })).toBe(rows[0]!.nonce);
    expect(await balance(wallet.address)).toBe(10n * Q);
  });

  it("completes a native transfer: SIGNED → BROADCASTING → CONFIRMING → COMPLETED, exact balances, events in sequence", async () => {
    await ensureDaemon();
    const source = await fundedSource(() => server, t.db, devnet(), 50n * Q);
    const destination = newSignerKey().address;
    const released = await createAndRelease(source, nativeTransfer(source, 7n * Q + 123n, { destinationAddress: destination }));
    const before = await balance(source.wallet.address);

    await signPending(source.api, released.id, source.key.secretKey);
    const done = await waitForRecord(source.api, released.id, ["COMPLETED", "FAILED"]);
    expect(done).toMatchObject({
      status: "COMPLETED",
      subStatus: null,
      confirmations: expect.any(Number),
      completedAt: expect.any(String),
      signedAt: expect.any(String),
      broadcastAt: expect.any(String),
    });
    expect(done.confirmations).toBeGreaterThanOrEqual(CONFIRMATIONS);
    const receipt = await receiptOf(done.chainTxHash);
    expect(receipt).toMatchObject({ status: "success", blockNumber: BigInt(done.blockNumber) });
    expect(receipt.from).toBe(source.wallet.address);

    expect(await balance(destination)).toBe(7n * Q + 123n);
    expect(await balance(source.wallet.address)).toBe(before - (7n * Q + 123n) - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await minedFrom(devnet(), source.wallet.address)).toBe(released.nonce + 1);

    expect(await statusPath(source.api, released.id)).toEqual([
      "SUBMITTED",
      "PENDING_SIGNATURE",
      "SIGNED",
      "BROADCASTING",
      "CONFIRMING",
      "COMPLETED",
    ]);
    expect(await statusChanges(t.db, released.id)).toEqual([
      { sequence: 2, from: "SUBMITTED", to: "PENDING_SIGNATURE" },
      { sequence: 3, from: "PENDING_SIGNATURE", to: "SIGNED" },
      { sequence: 4, from: "SIGNED", to: "BROADCASTING" },
      { sequence: 5, from: "BROADCASTING", to: "CONFIRMING" },
      { sequence: 6, from: "CONFIRMING", to: "COMPLETED" },
    ]);
  });

  it("completes an ERC-20 transfer: token balances exact, the fee paid in the native asset", async () => {
    await ensureDaemon();
    const source = await fundedSource(() => server, t.db, devnet(), 5n * Q);
    const { token, transfer } = await deployTestToken(devnet());
    const asset = await source.api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token });
    expect(asset.status, asset.text).toBe(201);
    await transfer(source.wallet.address, 5_000_000n);
    const destination = newSignerKey().address;
    const released = await createAndRelease(
      source,
      nativeTransfer(source, 1_234_567n, { destinationAddress: destination, assetId: asset.json().id }),
    );
    const nativeBefore = await balance(source.wallet.address);

    await signPending(source.api, released.id, source.key.secretKey, token);
    const done = await waitForRecord(source.api, released.id, ["COMPLETED", "FAILED"]);
    expect(done.status, JSON.stringify(done)).toBe("COMPLETED");
    const receipt = await receiptOf(done.chainTxHash);
    expect(receipt.to).toBe(token);
    expect(await tokenBalance(token, destination)).toBe(1_234_567n);
    expect(await tokenBalance(token, source.wallet.address)).toBe(5_000_000n - 1_234_567n);
    expect(await balance(source.wallet.address)).toBe(nativeBefore - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await statusPath(source.api, released.id)).toEqual([
      "SUBMITTED",
      "PENDING_SIGNATURE",
      "SIGNED",
      "BROADCASTING",
      "CONFIRMING",
      "COMPLETED",
    ]);
  });

  it("survives a reorg during confirmations: back to BROADCASTING, confirmed again, COMPLETED once, one transaction on chain", async () => {
    await ensureDaemon();
    const source = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const released = await createAndRelease(source, nativeTransfer(source, Q));
    // Held in CONFIRMING (the depth is not part of the signed intent) until the reorg is done.
    const holdConfirming = (depth: number) =>
      t.db.update(schema.transactions).set({ requiredConfirmations: depth }).where(eq(schema.transactions.id, released.id));
    await holdConfirming(1_000);
    await signPending(source.api, released.id, source.key.secretKey);
    const confirming = await waitForRecord(source.api, released.id, ["CONFIRMING", "COMPLETED", "FAILED"]);
    expect(confirming.status).toBe("CONFIRMING");
    const firstBlockHash = (await findTransaction(t.db, source.tenant.tenantId, released.id))!.blockHash;

    // Block production and the daemon's RPC calls wait while the chain is rewound past the block.
    await devnet().rpc("devnet_setFault", [{ kind: "stall" }]);
    try {
      // eth_* calls are held during the stall; devnet_* ones answer.
      const status = await devnet().rpc<{ head: string }>("devnet_status");
      const depth = Number(BigInt(status.head)) - confirming.blockNumber + 1;
      const reorg = await devnet().rpc<{ returnedTransactions: string[] }>("devnet_reorg", [`0x${depth.toString(16)}`]);
      expect(reorg.returnedTransactions).toContain(confirming.chainTxHash);
      // Rebuilt blocks then carry a later timestamp: the transaction lands in a block with another hash.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    } finally {
      await devnet().rpc("devnet_clearFaults");
    }

    const reconfirmed = await eventually(async () => {
      const path = await statusPath(source.api, released.id);
      return path.lastIndexOf("CONFIRMING") > path.indexOf("CONFIRMING") ? path : undefined;
    });
    expect(reconfirmed).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "BROADCASTING", "CONFIRMING"]);
    await holdConfirming(CONFIRMATIONS);
    const done = await waitForRecord(source.api, released.id, ["COMPLETED", "FAILED"]);
    expect(done).toMatchObject({ status: "COMPLETED", chainTxHash: confirming.chainTxHash });
    expect((await receiptOf(done.chainTxHash)).blockHash).not.toBe(firstBlockHash);
    expect(await statusPath(source.api, released.id)).toEqual([...reconfirmed, "COMPLETED"]);
    expect(await minedFrom(devnet(), source.wallet.address)).toBe(released.nonce + 1);
  });

  it("re-sends a transaction the node dropped (dropNextTx): COMPLETED once, one transaction on chain", async () => {
    await ensureDaemon();
    const source = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const released = await createAndRelease(source, nativeTransfer(source, 2n * Q));
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    await signPending(source.api, released.id, source.key.secretKey);
    const done = await waitForRecord(source.api, released.id, ["COMPLETED", "FAILED"]);
    expect(done.status, JSON.stringify(done)).toBe("COMPLETED");
    const row = (await findTransaction(t.db, source.tenant.tenantId, released.id))!;
    expect(row.sendAttempts).toBeGreaterThanOrEqual(2);
    expect(await minedFrom(devnet(), source.wallet.address)).toBe(released.nonce + 1);
    expect((await statusPath(source.api, released.id)).filter((s) => s === "COMPLETED")).toHaveLength(1);
  });

  it("ends FAILED/REVERTED_ON_CHAIN for a transfer mined with status 0, at the required depth", async () => {
    await ensureDaemon();
    const wallet = await createTransferWalletFixture(server.deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    const { token } = await deployTestToken(devnet());
    const added = await api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token });
    expect(added.status, added.text).toBe(201);
    // The source holds none of the token: transfer() reverts. Gas given, as estimation would refuse it.
    const row = await createReleasedTransferFixture(server.deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
      amount: 1_000n,
      asset: { id: added.json().id, kind: "TOKEN", contractAddress: token },
      gasLimit: 100_000n,
    });
    await signPending(api, row.id, wallet.secretKey, token);
    const failed = await waitForRecord(api, row.id, ["COMPLETED", "FAILED"]);
    expect(failed).toMatchObject({ status: "FAILED", subStatus: "REVERTED_ON_CHAIN" });
    expect(failed.confirmations).toBeGreaterThanOrEqual(CONFIRMATIONS);
    expect((await receiptOf(failed.chainTxHash)).status).toBe("reverted");
    expect(await statusPath(api, row.id)).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "FAILED"]);
  });
});
