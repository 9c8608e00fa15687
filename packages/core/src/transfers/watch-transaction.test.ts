import { and, asc, eq, schema } from "@qc/db";
import { findTransaction, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultTransferConfig } from "../deps/service-config";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSignedTransferFixture, createTransferWalletFixture } from "../testing/transfer-fixtures";
import { broadcastTransaction } from "./broadcast-transaction";
import { watchTransaction } from "./watch-transaction";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const MAX_SENDS = 3;

describe("watchTransaction", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({
      database: t,
      config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] }, transfers: { ...defaultTransferConfig(), maxSendAttempts: MAX_SENDS } },
    });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) });
  });
  afterAll(() => deps?.close());

  /** A transfer signed and broadcast (BROADCASTING, in the devnet's pool). */
  const broadcastOne = async (amount = Q) => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    const row = await createSignedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount });
    await broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
    return { wallet, row: (await findTransaction(t.db, tenant.tenantId, row.id))! };
  };
  const watch = (row: { id: string }) => watchTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
  const reread = async (row: { id: string }) => (await findTransaction(t.db, tenant.tenantId, row.id))!;
  const history = async (row: { id: string }) => (await listStatusHistory(t.db, tenant.tenantId, row.id)).map((h) => h.toStatus);
  const waitingWatches = (row: { id: string }) =>
    deps.jobs.boss.findJobs("transfers.watch", { data: { transactionId: row.id }, queued: true });
  /** The one waiting watch's start (no worker runs here: the job a look scheduled stays queued). */
  const nextWatch = async (row: { id: string }) => {
    const waiting = await waitingWatches(row);
    expect(waiting).toHaveLength(1);
    return waiting[0]!.startAfter.getTime();
  };
  const minedFrom = (address: `0x${string}`) => devnet().publicClient().getTransactionCount({ address, blockTag: "latest" });

  it("follows it to COMPLETED at the required depth: exact block, confirmations, balances, events in order", async () => {
    const { wallet, row } = await broadcastOne(3n * Q);
    const before = await devnet().publicClient().getBalance({ address: wallet.address });
    const destinationBefore = await devnet().publicClient().getBalance({ address: DESTINATION });

    expect(await watch(row)).toMatchObject({ status: "BROADCASTING", nextCheckAt: expect.any(String) });
    await devnet().mine(1);
    expect(await watch(row)).toMatchObject({ status: "CONFIRMING" });
    const receipt = await devnet()
      .publicClient()
      .getTransactionReceipt({ hash: row.chainTxHash as `0x${string}` });
    expect(await reread(row)).toMatchObject({
      confirmations: 1,
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      completedAt: null,
    });
    await nextWatch(row);

    await devnet().mine(1);
    const scheduled = await nextWatch(row);
    expect(await watch(row)).toEqual({ status: "COMPLETED" });
    const done = await reread(row);
    expect(done).toMatchObject({
      status: "COMPLETED",
      confirmations: 2,
      blockNumber: Number(receipt.blockNumber),
      chainTxHash: receipt.transactionHash,
      completedAt: expect.any(Date),
    });
    // The terminal look scheduled nothing further.
    expect(await nextWatch(row)).toBe(scheduled);

    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await devnet().publicClient().getBalance({ address: wallet.address })).toBe(before - 3n * Q - fee);
    expect(await devnet().publicClient().getBalance({ address: DESTINATION })).toBe(destinationBefore + 3n * Q);

    expect(await history(row)).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
    const events = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.aggregateId, row.id), eq(schema.eventOutbox.type, "transaction.status_changed")))
      .orderBy(asc(schema.eventOutbox.seq));
    expect(events.map((e) => e.sequence)).toEqual([2, 3, 4, 5, 6]);
    expect(
      events.map((e) => [
        (e.data as { previousStatus: string }).previousStatus,
        (e.data as { transaction: { status: string } }).transaction.status,
      ]),
    ).toEqual([
      ["SUBMITTED", "PENDING_SIGNATURE"],
      ["PENDING_SIGNATURE", "SIGNED"],
      ["SIGNED", "BROADCASTING"],
      ["BROADCASTING", "CONFIRMING"],
      ["CONFIRMING", "COMPLETED"],
    ]);
    // A late duplicate does nothing.
    expect(await watch(row)).toEqual({ status: "COMPLETED" });
  });

  it("goes from BROADCASTING to COMPLETED in one look when the block is already deep enough", async () => {
    const { row } = await broadcastOne();
    await devnet().mine(3);
    expect(await watch(row)).toEqual({ status: "COMPLETED" });
    expect((await reread(row)).confirmations).toBe(3);
    expect(await history(row)).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
  });

  it("sends a reorged transaction back to BROADCASTING, then confirms it again in its new block: COMPLETED once", async () => {
    const { wallet, row } = await broadcastOne();
    await devnet().mine(1);
    expect(await watch(row)).toMatchObject({ status: "CONFIRMING" });

    await devnet().rpc("devnet_reorg", ["0x1"]);
    expect(await watch(row)).toMatchObject({ status: "BROADCASTING" });
    expect(await reread(row)).toMatchObject({
      blockHash: null,
      blockNumber: null,
      confirmations: 0,
      statusReason: expect.stringContaining("reorg"),
    });

    await devnet().mine(2);
    expect(await watch(row)).toEqual({ status: "COMPLETED" });
    const receipt = await devnet()
      .publicClient()
      .getTransactionReceipt({ hash: row.chainTxHash as `0x${string}` });
    expect(await reread(row)).toMatchObject({ blockHash: receipt.blockHash, blockNumber: Number(receipt.blockNumber), confirmations: 2 });
    expect(await history(row)).toEqual([
      "SUBMITTED",
      "PENDING_SIGNATURE",
      "SIGNED",
      "BROADCASTING",
      "CONFIRMING",
      "BROADCASTING",
      "CONFIRMING",
      "COMPLETED",
    ]);
    expect(await minedFrom(wallet.address)).toBe(row.nonce! + 1);
  });

  it("re-sends a transaction the node dropped, and completes it once", async () => {
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    const { wallet, row } = await broadcastOne();
    expect(await devnet().rpc("eth_getTransactionByHash", [row.chainTxHash])).toBeNull();
    expect(await watch(row)).toMatchObject({ status: "BROADCASTING" });
    expect(await reread(row)).toMatchObject({ sendAttempts: 2 });
    expect(await devnet().rpc("eth_getTransactionByHash", [row.chainTxHash])).toMatchObject({ hash: row.chainTxHash });
    await devnet().mine(2);
    expect(await watch(row)).toEqual({ status: "COMPLETED" });
    expect(await minedFrom(wallet.address)).toBe(row.nonce! + 1);
  });

  it("gives up after maxSendAttempts sends: FAILED/DROPPED_BY_CHAIN", async () => {
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx", count: 50 }]);
    try {
      const { row } = await broadcastOne();
      for (let look = 1; look < MAX_SENDS; look++) expect(await watch(row)).toMatchObject({ status: "BROADCASTING" });
      expect((await reread(row)).sendAttempts).toBe(MAX_SENDS);
      const scheduled = await nextWatch(row);
      expect(await watch(row)).toEqual({ status: "FAILED" });
      expect(await reread(row)).toMatchObject({
        subStatus: "DROPPED_BY_CHAIN",
        statusReason: expect.stringContaining(`${MAX_SENDS} sends`),
      });
      expect(await nextWatch(row)).toBe(scheduled);
    } finally {
      await devnet().rpc("devnet_clearFaults");
    }
  });

  it("keeps watching, without throwing, while the node cannot be reached", async () => {
    const { row } = await broadcastOne();
    await devnet().rpc("devnet_setFault", [{ kind: "rpcError" }]);
    let look;
    const askedAt = Date.now();
    try {
      look = await watch(row);
    } finally {
      await devnet().rpc("devnet_clearFaults");
    }
    expect(look.status).toBe("BROADCASTING");
    expect(Date.parse(look.nextCheckAt!)).toBeGreaterThanOrEqual(askedAt + deps.config.transfers.watchRetryMs);
    await nextWatch(row);
    await devnet().mine(2);
    expect(await watch(row)).toEqual({ status: "COMPLETED" });
  });
});
