import { asc, eq, schema, sql } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decisions/decide-approval";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { cancelTransaction } from "../transfers/cancel-transaction";
import { listTransactions } from "../transfers/list-transactions";
import { rejectTransaction } from "../transfers/reject-transaction";
import { submitSignature } from "../transfers/submit-signature";
import { toTransactionRecord } from "../transfers/transaction-record";
import { watchTransaction } from "../transfers/watch-transaction";
import { insertDepositFixture } from "./deposit-fixtures";
import { createTenantFixture, type TenantFixture } from "./fixtures";
import { createTestServiceDeps } from "./service-deps";
import { createSubmittedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "./transfer-fixtures";

const TOKEN = "0x1111111111111111111111111111111111111111";
const SENDER = "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2";

/** The AppError code a call failed with. */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (error: unknown) => (error instanceof AppError ? error.error : String(error)),
  );

/**
 * A deposit as the chain follower stores it (CONTRACT §21), and the outbound services meeting one:
 * never cancelled, rejected, signed or approved; listed by type and by wallet on either side.
 */
describe("insertDepositFixture and the services that act on outbound transactions", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let wallet: TransferWalletFixture;
  const actor: Actor = { type: "user", id: "00000000-0000-7000-8000-000000000001" };

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
  });
  afterAll(() => deps?.close());

  const trail = async (transactionId: string) => ({
    history: await t.db
      .select()
      .from(schema.transactionStatusHistory)
      .where(eq(schema.transactionStatusHistory.transactionId, transactionId))
      .orderBy(asc(schema.transactionStatusHistory.createdAt)),
    events: await t.db
      .select()
      .from(schema.eventOutbox)
      .where(eq(schema.eventOutbox.aggregateId, transactionId))
      .orderBy(asc(schema.eventOutbox.sequence)),
  });

  it("a native deposit: INBOUND, no source wallet, CONFIRMING with one history entry and transaction.created, no usage", async () => {
    const deposit = await insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId, sourceAddress: SENDER });
    expect(deposit).toMatchObject({
      type: "DEPOSIT",
      direction: "INBOUND",
      sourceWalletId: null,
      sourceAddress: SENDER,
      destinationWalletId: wallet.walletId,
      destinationAddress: wallet.address.toLowerCase(),
      tokenAddress: null,
      logIndex: null,
      status: "CONFIRMING",
      confirmations: 1,
      requiredConfirmations: 2,
      blockNumber: 1,
      screening: null,
    });
    expect(deposit.chainTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    const { history, events } = await trail(deposit.id);
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.actorType, h.actorId])).toEqual([
      [null, "CONFIRMING", "system", "deposits.follow"],
    ]);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([["transaction.created", 1]]);
    expect(events[0]!.data).toEqual({ transaction: deposit });
    // Only what the service sends counts against velocity limits and quotas.
    const usage = await t.db.select().from(schema.usageBuckets).where(eq(schema.usageBuckets.tenantId, tenant.tenantId));
    expect(usage).toEqual([]);
  });

  it("a COMPLETED token deposit of a token without an asset: moved there by a transition, with transaction.status_changed", async () => {
    const deposit = await insertDepositFixture(deps, {
      tenantId: tenant.tenantId,
      walletId: wallet.walletId,
      status: "COMPLETED",
      token: { address: TOKEN, logIndex: 3 },
      amount: 5n,
      screening: { provider: "denylist", decision: "CLEAR", riskScore: null, reasons: [] },
    });
    expect(deposit).toMatchObject({
      status: "COMPLETED",
      assetId: null,
      tokenAddress: TOKEN,
      logIndex: 3,
      amount: "5",
      confirmations: 2,
      screening: { provider: "denylist", decision: "CLEAR" },
    });
    expect(deposit.completedAt).not.toBeNull();
    const { history, events } = await trail(deposit.id);
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "CONFIRMING"],
      ["CONFIRMING", "COMPLETED"],
    ]);
    expect(events.map((e) => e.type)).toEqual(["transaction.created", "transaction.status_changed"]);
    expect(events[1]!.data).toEqual({ transaction: deposit, previousStatus: "CONFIRMING" });
  });

  it("one deposit per (chainTxHash, logIndex, wallet): the same one again adds nothing (the follower's insert), another log of it is another", async () => {
    const first = await insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId });
    const again = insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId, chainTxHash: first.chainTxHash! });
    await expect(again).rejects.toThrow(/already recorded/);
    const stored = await t.db.select().from(schema.transactions).where(eq(schema.transactions.chainTxHash, first.chainTxHash!));
    expect(stored.map((row) => row.id)).toEqual([first.id]);
    // Another log of the same transaction is another deposit.
    const otherLog = await insertDepositFixture(deps, {
      tenantId: tenant.tenantId,
      walletId: wallet.walletId,
      chainTxHash: first.chainTxHash!,
      token: { address: TOKEN, logIndex: 0 },
    });
    expect(otherLog.chainTxHash).toBe(first.chainTxHash);
  });

  it("never cancelled (409 INVALID_TRANSACTION_STATE naming the deposit), rejected, signed or approved; the row is unchanged", async () => {
    for (const status of ["CONFIRMING", "COMPLETED"] as const) {
      const deposit = await insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId, status });
      const key = { tenantId: tenant.tenantId, transactionId: deposit.id };
      const cancel = cancelTransaction(deps, { ...key, actor });
      await expect(cancel).rejects.toMatchObject({ error: "INVALID_TRANSACTION_STATE", details: { status, type: "DEPOSIT" } });
      await expect(cancel).rejects.toThrow(/a deposit cannot be cancelled/);
      expect(await failure(rejectTransaction(deps, { ...key, reason: "no", actor }))).toBe("INVALID_TRANSACTION_STATE");
      expect(await failure(submitSignature(deps, { ...key, signature: "0x00", actor }))).toBe("INVALID_TRANSACTION_STATE");
      expect(await failure(decideApproval(deps, { ...key, actor, decision: "REJECTED", reason: "no" }))).toBe("INVALID_TRANSACTION_STATE");
      const row = (await findTransaction(t.db, tenant.tenantId, deposit.id))!;
      expect(row.status).toBe(status);
      expect((await trail(deposit.id)).history).toHaveLength(status === "COMPLETED" ? 2 : 1);
    }
    // Another tenant's deposit is not found, for cancel as for reading.
    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    const deposit = await insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId });
    expect(await failure(cancelTransaction(deps, { tenantId: other.tenantId, transactionId: deposit.id, actor }))).toBe("NOT_FOUND");
  });

  it("the send watcher leaves a deposit alone: no look at the chain, no status change, no watch scheduled", async () => {
    const deposit = await insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId });
    const key = { tenantId: tenant.tenantId, transactionId: deposit.id };
    // An unreachable RPC: a watched transfer would be looked at, fail, and have its next look scheduled.
    const unreachable = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: ["http://127.0.0.1:9"] } } });
    try {
      expect(await watchTransaction(unreachable, key)).toEqual({ status: "CONFIRMING" });
    } finally {
      await unreachable.close();
    }
    expect(toTransactionRecord((await findTransaction(t.db, tenant.tenantId, deposit.id))!)).toEqual(deposit);
    const jobs = await t.db.execute(
      sql`select 1 from pgboss.job where name = 'transfers.watch' and data->>'transactionId' = ${deposit.id}`,
    );
    expect(jobs.rows).toEqual([]);
  });

  it("listed by type and by wallet on either side (an outbound transfer from it and a deposit to it)", async () => {
    const other = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    const outbound = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet: other,
      destinationAddress: wallet.address,
      amount: 1n,
    });
    const deposit = await insertDepositFixture(deps, { tenantId: tenant.tenantId, walletId: other.walletId });
    const ids = async (filters: Parameters<typeof listTransactions>[1]) =>
      (await listTransactions(deps, filters)).transactions.map((tx) => tx.id);
    expect(await ids({ tenantId: tenant.tenantId, walletId: other.walletId, limit: 50 })).toEqual([deposit.id, outbound.id]);
    expect(await ids({ tenantId: tenant.tenantId, walletId: other.walletId, type: "DEPOSIT", limit: 50 })).toEqual([deposit.id]);
    expect(await ids({ tenantId: tenant.tenantId, sourceWalletId: other.walletId, limit: 50 })).toEqual([outbound.id]);
    const deposits = await ids({ tenantId: tenant.tenantId, type: "DEPOSIT", limit: 200 });
    expect(deposits).toContain(deposit.id);
    expect(deposits).not.toContain(outbound.id);
  });
});
