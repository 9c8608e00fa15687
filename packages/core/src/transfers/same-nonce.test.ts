import { and, eq, schema } from "@qc/db";
import { findTransaction, findSameNonceTransactions, sumUsage } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import { defaultTransferConfig } from "../deps/service-config";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSignedTransferFixture, createTransferWalletFixture, signTransferFixture } from "../testing/transfer-fixtures";
import { broadcastTransaction } from "./broadcast-transaction";
import { cancelTransactionOrOnChain } from "./cancel-on-chain";
import { rejectTransaction } from "./reject-transaction";
import { speedUpTransaction } from "./speed-up-transaction";
import { submitSignature } from "./submit-signature";
import { watchTransaction } from "./watch-transaction";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const STUCK_AFTER_SECONDS = 60;

/**
 * The watcher over every hash of a nonce (CONTRACT §17), one look at a time against a devnet that
 * mines only when told: an original, its speed-up and its cancellation; reorgs; drops.
 */
describe("the transactions of one nonce", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  /** Added to the wall clock: the stuck test moves time forward. */
  let skewMs = 0;

  beforeAll(async () => {
    deps = await createTestServiceDeps({
      database: t,
      now: () => new Date(Date.now() + skewMs),
      config: {
        rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
        transfers: {
          ...defaultTransferConfig(),
          maxSendAttempts: 1,
          stuckAfterSeconds: STUCK_AFTER_SECONDS,
          requiredConfirmations: { QUANTUM_SANDBOX: 2, QUANTUM_MAINNET: 12 },
        },
      },
    });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
  });
  afterAll(() => deps?.close());

  const actor = systemActor("test");
  const ids = { tenantId: () => tenant.tenantId };
  const reread = async (row: { id: string }) => (await findTransaction(t.db, tenant.tenantId, row.id))!;
  const watch = (row: { id: string }) => watchTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
  const broadcast = (row: { id: string }) => broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
  const sign = async (row: { id: string; signingHash: string | null }, secretKey: Uint8Array) => {
    await submitSignature(deps, {
      tenantId: tenant.tenantId,
      transactionId: row.id,
      signature: signTransferFixture(row.signingHash!, secretKey),
      actor,
    });
  };
  /** A transfer signed and broadcast: BROADCASTING, in the devnet's pool (nothing mined yet). */
  const sentOne = async () => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: ids.tenantId() });
    await devnet().fund(wallet.address, 10n * Q);
    const signed = await createSignedTransferFixture(deps, {
      tenantId: ids.tenantId(),
      wallet,
      destinationAddress: DESTINATION,
      amount: Q,
    });
    await broadcast(signed);
    return { wallet, original: await reread(signed) };
  };
  /** A speed-up of `original`, signed and broadcast. */
  const spedUp = async (original: { id: string }, secretKey: Uint8Array) => {
    const created = await speedUpTransaction(deps, { tenantId: tenant.tenantId, transactionId: original.id, actor });
    await sign(created, secretKey);
    await broadcast(created);
    return reread(created);
  };
  /** What the source wallet's usage buckets count for the last hour and the next (velocity, quotas). */
  const walletUsage = (row: { sourceWalletId: string | null; assetId: string | null }) =>
    sumUsage(t.db, {
      tenantId: tenant.tenantId,
      scope: "WALLET",
      scopeId: row.sourceWalletId!,
      assetId: row.assetId!,
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 3_600_000),
    });
  const completedOfNonce = async (row: { id: string }) => {
    const mine = await reread(row);
    const others = await findSameNonceTransactions(t.db, {
      tenantId: tenant.tenantId,
      sourceWalletId: mine.sourceWalletId!,
      networkCode: mine.networkCode,
      nonce: mine.nonce!,
      excludeId: mine.id,
    });
    return [mine, ...others].filter((r) => r.status === "COMPLETED").map((r) => r.id);
  };

  it("waits while a speed-up holds the nonce, is never re-sent or dropped, and ends REPLACED when the speed-up completes", async () => {
    const { wallet, original } = await sentOne();
    const replacement = await spedUp(original, wallet.secretKey);
    expect(replacement).toMatchObject({ status: "BROADCASTING", nonce: original.nonce, replacesTransactionId: original.id });
    // The node replaced the original in its pool: its hash is unknown now, and its one send is spent.
    expect(await devnet().rpc("eth_getTransactionByHash", [original.chainTxHash])).toBeNull();
    expect(await watch(original)).toMatchObject({ status: "BROADCASTING" });
    expect(await reread(original)).toMatchObject({ status: "BROADCASTING", sendAttempts: original.sendAttempts });

    await devnet().mine(1);
    expect(await watch(replacement)).toMatchObject({ status: "CONFIRMING" });
    // Mined but not final: the original waits (a reorg may still change which hash holds the nonce).
    expect(await watch(original)).toMatchObject({ status: "BROADCASTING" });
    await devnet().mine(1);
    expect(await watch(replacement)).toEqual({ status: "COMPLETED" });
    expect(await reread(original)).toMatchObject({
      status: "FAILED",
      subStatus: "REPLACED",
      replacedByTransactionId: replacement.id,
    });
    expect(await watch(original)).toEqual({ status: "FAILED" });
    expect(await completedOfNonce(original)).toEqual([replacement.id]);
    // The value moved once, by the speed-up: the original still counts, once; the speed-up adds nothing.
    expect(await walletUsage(original)).toMatchObject({ count: 1, amount: Q });
  });

  it("a speed-up the node lost while its original is back in the pool is re-sent, never dropped, and replaces it", async () => {
    const { wallet, original } = await sentOne();
    const created = await speedUpTransaction(deps, { tenantId: tenant.tenantId, transactionId: original.id, actor });
    await sign(created, wallet.secretKey);
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    await broadcast(created);
    const lost = await reread(created);
    expect(lost).toMatchObject({ status: "BROADCASTING", sendAttempts: 1 });
    expect(await devnet().rpc("eth_getTransactionByHash", [lost.chainTxHash])).toBeNull();
    // Its one send is spent (maxSendAttempts 1), but the nonce's other hash is pending: not dropped.
    expect(await watch(lost)).toMatchObject({ status: "BROADCASTING" });
    expect(await devnet().rpc("eth_getTransactionByHash", [lost.chainTxHash])).toMatchObject({ hash: lost.chainTxHash });
    expect(await devnet().rpc("eth_getTransactionByHash", [original.chainTxHash])).toBeNull();
    // The original, out of the pool now, waits behind its speed-up.
    expect(await watch(original)).toMatchObject({ status: "BROADCASTING" });
    await devnet().mine(2);
    expect(await watch(lost)).toEqual({ status: "COMPLETED" });
    expect(await reread(original)).toMatchObject({ status: "FAILED", subStatus: "REPLACED", replacedByTransactionId: lost.id });
  });

  it("a reorg that swaps the mined hash of a nonce leaves exactly one COMPLETED", async () => {
    const { wallet, original } = await sentOne();
    const replacement = await spedUp(original, wallet.secretKey);
    await devnet().mine(1);
    expect(await watch(replacement)).toMatchObject({ status: "CONFIRMING" });
    // The block is dropped with its transactions, and the original (same nonce) is mined instead.
    await devnet().rpc("devnet_reorg", ["0x1", { dropTransactions: true }]);
    expect(await devnet().rpc("eth_sendRawTransaction", [original.rawTransaction])).toBe(original.chainTxHash);
    await devnet().mine(3);
    // The speed-up's block is gone: back to BROADCASTING, and it waits (the nonce's other hash is mined).
    expect(await watch(replacement)).toMatchObject({ status: "BROADCASTING" });
    expect(await watch(original)).toEqual({ status: "COMPLETED" });
    expect(await reread(replacement)).toMatchObject({ status: "FAILED", subStatus: "REPLACED", replacedByTransactionId: original.id });
    expect(await watch(replacement)).toEqual({ status: "FAILED" });
    expect(await reread(original)).toMatchObject({ status: "COMPLETED", replacedByTransactionId: null });
    expect(await completedOfNonce(original)).toEqual([original.id]);
    expect(await devnet().publicClient().getBalance({ address: DESTINATION })).toBeGreaterThanOrEqual(Q);
  });

  it("a cancellation mined cancels the original and its unsigned speed-up on chain; a rejected one changes nothing", async () => {
    const { wallet, original } = await sentOne();
    // A speed-up the signer refuses: the original is as it was, and nothing else takes the nonce.
    const refused = await speedUpTransaction(deps, { tenantId: tenant.tenantId, transactionId: original.id, actor });
    await rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: refused.id, reason: "not now", actor });
    expect(await reread(original)).toMatchObject({ status: "BROADCASTING", replacedByTransactionId: null });
    const pendingSpeedUp = await speedUpTransaction(deps, { tenantId: tenant.tenantId, transactionId: original.id, actor });
    const { transaction: cancellation, onChain } = await cancelTransactionOrOnChain(deps, {
      tenantId: tenant.tenantId,
      transactionId: original.id,
      actor,
    });
    expect(onChain).toBe(true);
    // 12.5 % above every live transaction of the nonce, the unsigned speed-up included.
    expect(BigInt(cancellation.fee!.maxFeePerGas) * 8n).toBeGreaterThanOrEqual(BigInt(pendingSpeedUp.fee!.maxFeePerGas) * 9n);
    await sign(cancellation, wallet.secretKey);
    await broadcast(cancellation);
    await devnet().mine(2);
    expect(await watch(cancellation)).toEqual({ status: "COMPLETED" });
    expect(await reread(original)).toMatchObject({
      status: "CANCELLED",
      subStatus: "CANCELLED_ON_CHAIN",
      replacedByTransactionId: cancellation.id,
    });
    expect(await reread(pendingSpeedUp)).toMatchObject({
      status: "CANCELLED",
      subStatus: "CANCELLED_ON_CHAIN",
      replacedByTransactionId: cancellation.id,
    });
    expect(await reread(refused)).toMatchObject({ status: "REJECTED", replacedByTransactionId: null });
    // Cancelled on chain, the transfer moved nothing: it no longer counts (nor did its records).
    expect(await walletUsage(original)).toMatchObject({ count: 0, amount: 0n });
    expect(await devnet().publicClient().getTransactionCount({ address: wallet.address })).toBe(original.nonce! + 1);
  });

  it("marks a transaction stuck once, with one transaction.stuck event, after STUCK_AFTER_SECONDS", async () => {
    const { original } = await sentOne();
    expect(await watch(original)).toMatchObject({ status: "BROADCASTING" });
    expect((await reread(original)).stuck).toBe(false);
    skewMs = (STUCK_AFTER_SECONDS + 1) * 1000;
    try {
      await Promise.all([watch(original), watch(original)]);
      await watch(original);
    } finally {
      skewMs = 0;
    }
    expect(await reread(original)).toMatchObject({ status: "BROADCASTING", stuck: true });
    const events = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.aggregateId, original.id), eq(schema.eventOutbox.type, "transaction.stuck")));
    expect(events).toHaveLength(1);
    await devnet().mine(2);
    expect(await watch(original)).toEqual({ status: "COMPLETED" });
    expect(await reread(original)).toMatchObject({ status: "COMPLETED", stuck: true });
  });
});
