import { and, eq, schema } from "@qc/db";
import { findTransaction, listAggregateEvents, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import {
  createReleasedTransferFixture,
  createSignedTransferFixture,
  createSubmittedTransferFixture,
  createTransferWalletFixture,
  type TransferWalletFixture,
} from "../testing/transfer-fixtures";
import { systemActor } from "../audit/actor";
import { broadcastTransaction } from "./broadcast-transaction";
import { transitionTransaction } from "./transition-transaction";
import { moveMinedTogether, type WatchLook } from "./watch-transaction";
import { getQuantumTransactionStatus } from "@qc/chain";
import { createConfirmationWatcher, type ConfirmationWatcher } from "./watch-confirmations";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

describe("createConfirmationWatcher", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  const watchers: ConfirmationWatcher[] = [];

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 6) });
  });
  afterEach(async () => {
    await Promise.all(watchers.splice(0).map((w) => w.stop()));
  });
  afterAll(() => deps?.close());

  /** A watcher stepped by hand (never started: no loop, the test decides when it looks). */
  const watcher = (holder: string, options: { concurrency?: number } = {}) => {
    const w = createConfirmationWatcher(deps, { networkCode: "QUANTUM_SANDBOX", holder, leaseSeconds: 2, ...options });
    watchers.push(w);
    return w;
  };
  const funded = async () => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    return wallet;
  };
  const signed = (wallet: TransferWalletFixture) =>
    createSignedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: Q });
  const reread = async (row: { id: string }) => (await findTransaction(t.db, tenant.tenantId, row.id))!;
  const statuses = (rows: { id: string }[]) => Promise.all(rows.map(async (row) => (await reread(row)).status));
  const waitingReleaseNext = (wallet: TransferWalletFixture) =>
    deps.jobs.boss.findJobs("transfers.release-next", { data: { sourceWalletId: wallet.walletId }, queued: true });
  /** A transfer of `wallet` waiting in QUEUED for room in its window (moved there as the release moves it). */
  const queued = async (wallet: TransferWalletFixture) => {
    const row = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: Q,
    });
    const moved = await transitionTransaction(deps, {
      tenantId: tenant.tenantId,
      transactionId: row.id,
      from: ["SUBMITTED"],
      to: "QUEUED",
      reason: "waiting for room in the source's nonce window",
      actor: systemActor("test"),
    });
    expect(moved.moved).toBe(true);
    return row;
  };

  /** A transfer broadcast by `by`, which dies between the send and its record (the crash point); the node dropped the send. */
  const broadcastCutOff = async (by: ServiceDeps) => {
    const row = await signed(await funded());
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    const crashed = new Error("crash after the send");
    const afterSend = () => {
      throw crashed;
    };
    await expect(broadcastTransaction(by, { tenantId: tenant.tenantId, transactionId: row.id }, { afterSend })).rejects.toBe(crashed);
    return row;
  };

  it("moves every watched transaction of the network once per block: CONFIRMING, then COMPLETED at the required depth", async () => {
    const [a, b] = [await funded(), await funded()];
    const rows = [await signed(a), await signed(a), await signed(b)];
    for (const row of rows) await broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
    await queued(a); // `a` has a transfer waiting for room in its window; `b` none
    // One at a time: two of a source judged at once may each add a waiting release-next (see `concurrency`).
    const w = watcher("one", { concurrency: 1 });

    // In the pool, not mined: looked at, nothing moves.
    expect(await w.step()).toMatchObject({ held: true, moved: 0 });
    expect(await statuses(rows)).toEqual(["BROADCASTING", "BROADCASTING", "BROADCASTING"]);
    const waitingBefore = [(await waitingReleaseNext(a)).length, (await waitingReleaseNext(b)).length];
    await devnet().mine(1);
    expect(await w.step()).toMatchObject({ held: true, looked: 3, moved: 3 });
    expect(await statuses(rows)).toEqual(["CONFIRMING", "CONFIRMING", "CONFIRMING"]);
    const receipt = await devnet()
      .publicClient()
      .getTransactionReceipt({ hash: (await reread(rows[0]!)).chainTxHash as `0x${string}` });
    expect(await reread(rows[0]!)).toMatchObject({
      confirmations: 1,
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
    });
    // Two slots of one source freed in one block: one waiting release-next for the source, not one per
    // transaction; none for a source with nothing queued (a mined nonce leaves no gap to fill).
    expect([(await waitingReleaseNext(a)).length, (await waitingReleaseNext(b)).length]).toEqual([
      waitingBefore[0]! + 1,
      waitingBefore[1]!,
    ]);

    // A look at the same head again changes nothing (each move is conditional).
    expect(await w.step()).toMatchObject({ moved: 0 });
    await devnet().mine(1);
    expect(await w.step()).toMatchObject({ moved: 3 });
    expect(await statuses(rows)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
    const history = await listStatusHistory(t.db, tenant.tenantId, rows[0]!.id);
    expect(history.map((h) => h.toStatus)).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
    // Terminal rows are no longer read.
    expect(await w.step()).toMatchObject({ looked: 0, moved: 0 });
  });

  it("moves a step's mined rows together, each with its trail and event, and leaves a nonce another transaction took to the row's own judgment", async () => {
    const [a, b] = [await funded(), await funded()];
    const [mine, taken] = [await signed(a), await signed(b)];
    for (const row of [mine, taken]) await broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
    await queued(b);
    const looksAt = async (rows: { id: string }[]): Promise<WatchLook[]> =>
      Promise.all(
        rows.map(async ({ id }) => {
          const row = await reread({ id });
          return { row, onChain: await getQuantumTransactionStatus(devnet().publicClient(), { hash: row.chainTxHash as `0x${string}` }) };
        }),
      );
    const waitingBefore = [(await waitingReleaseNext(a)).length, (await waitingReleaseNext(b)).length];
    await devnet().mine(1);
    const mined = await looksAt([mine, taken]);
    await moveMinedTogether(deps, mined);
    expect(mined.map((look) => look.row.status)).toEqual(["CONFIRMING", "CONFIRMING"]);
    expect(await statuses([mine, taken])).toEqual(["CONFIRMING", "CONFIRMING"]);
    expect([(await waitingReleaseNext(a)).length, (await waitingReleaseNext(b)).length]).toEqual([
      waitingBefore[0]!,
      waitingBefore[1]! + 1,
    ]);

    // The aftermath of a reorg deeper than the required depth (forged here): a speed-up of `taken`,
    // at its nonce, is already COMPLETED. Never two of one nonce COMPLETED: `taken` must end naming
    // it, which only its own judgment does — the moves together leave a nonce with siblings alone.
    const other = await signed(b);
    await t.db
      .update(schema.transactions)
      .set({ type: "REPLACEMENT", nonce: (await reread(taken)).nonce, replacesTransactionId: taken.id, status: "COMPLETED" })
      .where(and(eq(schema.transactions.id, other.id), eq(schema.transactions.tenantId, tenant.tenantId)));
    await devnet().mine(1);
    const final = await looksAt([mine, taken]);
    const stale = final.map((look) => ({ ...look }));
    await moveMinedTogether(deps, final);
    expect(final.map((look) => look.row.status)).toEqual(["COMPLETED", "CONFIRMING"]);
    expect(await reread(mine)).toMatchObject({ status: "COMPLETED", confirmations: 2 });
    expect(await watcher("one").step()).toMatchObject({ moved: 1 });
    expect(await reread(taken)).toMatchObject({ status: "FAILED", subStatus: "REPLACED", replacedByTransactionId: other.id });

    // Each move together has its trail, as a move one by one does: history, audit row, event.
    expect((await listStatusHistory(t.db, tenant.tenantId, mine.id)).slice(-2)).toMatchObject([
      { fromStatus: "BROADCASTING", toStatus: "CONFIRMING", actorId: "transfers.watch" },
      { fromStatus: "CONFIRMING", toStatus: "COMPLETED", actorId: "transfers.watch" },
    ]);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, tenant.tenantId), eq(schema.auditEvents.targetId, mine.id)));
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(["transaction.confirming", "transaction.completed"]));
    const events = await listAggregateEvents(t.db, { tenantId: tenant.tenantId, aggregateType: "transaction", aggregateId: mine.id });
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    const data = events.slice(-2).map((e) => e.data as { previousStatus: string; transaction: { status: string } });
    expect(data.map((d) => [d.previousStatus, d.transaction.status])).toEqual([
      ["BROADCASTING", "CONFIRMING"],
      ["CONFIRMING", "COMPLETED"],
    ]);

    // Moves together are conditional too: the same looks again move nothing and add no event.
    await moveMinedTogether(deps, stale);
    expect(stale.map((look) => look.row.status)).toEqual(["CONFIRMING", "CONFIRMING"]);
    expect(await listAggregateEvents(t.db, { tenantId: tenant.tenantId, aggregateType: "transaction", aggregateId: mine.id })).toHaveLength(
      events.length,
    );
  });

  it("re-sends a transaction the node dropped at its next look, then confirms it", async () => {
    const row = await signed(await funded());
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    await broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 1 });
    const w = watcher("one");
    await w.step();
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 2 });
    await devnet().mine(1);
    await w.step();
    expect(await reread(row)).toMatchObject({ status: "CONFIRMING", sendAttempts: 2 });
  });

  it("resumes a broadcast cut off before its send was recorded, once resumeBroadcastAfterMs has passed: re-sent, then confirmed", async () => {
    // A daemon with block watchers: its move to BROADCASTING schedules no watch job, the watcher resumes.
    let ahead = 0;
    const daemon: ServiceDeps = {
      ...deps,
      now: () => new Date(Date.now() + ahead),
      config: { ...deps.config, transfers: { ...deps.config.transfers, blockWatchers: true } },
    };
    const row = await broadcastCutOff(daemon);
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 0 });
    expect(await deps.jobs.boss.findJobs("transfers.watch", { data: { transactionId: row.id }, queued: true })).toEqual([]);
    const w = createConfirmationWatcher(daemon, { networkCode: "QUANTUM_SANDBOX", holder: "one", leaseSeconds: 2 });
    watchers.push(w);

    // Within resumeBroadcastAfterMs it may be the broadcast job's, between its move and its send: left alone.
    ahead = deps.config.transfers.resumeBroadcastAfterMs - 1_000;
    await w.step();
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 0 });
    // After it, a cut-off broadcast: the stored bytes are sent again and the send counted.
    ahead = deps.config.transfers.resumeBroadcastAfterMs;
    await w.step();
    const resumed = await reread(row);
    expect(resumed).toMatchObject({ status: "BROADCASTING", sendAttempts: 1 });
    expect(await devnet().rpc("eth_getTransactionByHash", [resumed.chainTxHash])).toMatchObject({ hash: resumed.chainTxHash });
    await devnet().mine(1);
    await w.step();
    expect(await reread(row)).toMatchObject({ status: "CONFIRMING", sendAttempts: 1 });
  });

  it("in a process without block watchers, the move to BROADCASTING schedules the watch job that resumes a cut-off broadcast", async () => {
    const row = await broadcastCutOff(deps);
    await watcher("one").step();
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 0 });
    expect(await deps.jobs.boss.findJobs("transfers.watch", { data: { transactionId: row.id }, queued: true })).toHaveLength(1);
  });

  it("expires the network's transactions awaiting a signature past their deadline, once each, and enqueues their source's release-next", async () => {
    const wallet = await funded();
    // Released as a daemon with block watchers releases: no `transfers.expire` job waits for the deadline.
    const daemon: ServiceDeps = { ...deps, config: { ...deps.config, transfers: { ...deps.config.transfers, blockWatchers: true } } };
    const release = (signingDeadline: Date) =>
      createReleasedTransferFixture(daemon, {
        tenantId: tenant.tenantId,
        wallet,
        destinationAddress: DESTINATION,
        amount: Q,
        signingDeadline,
      });
    const overdue = await release(new Date(Date.now() - 1_000));
    const inTime = await release(new Date(Date.now() + 60_000));
    expect(await deps.jobs.boss.findJobs("transfers.expire", { data: { transactionId: overdue.id } })).toEqual([]);
    const releaseNextBefore = (await waitingReleaseNext(wallet)).length;

    const w = watcher("one");
    expect(await w.step()).toMatchObject({ held: true, expired: 1 });
    expect(await reread(overdue)).toMatchObject({ status: "EXPIRED", subStatus: "SIGNING_TIMEOUT" });
    expect(await reread(inTime)).toMatchObject({ status: "PENDING_SIGNATURE" });
    expect((await listStatusHistory(t.db, tenant.tenantId, overdue.id)).at(-1)).toMatchObject({
      toStatus: "EXPIRED",
      actorId: "transfers.expire",
    });
    expect((await waitingReleaseNext(wallet)).length).toBe(releaseNextBefore + 1);
    expect(await w.step()).toMatchObject({ expired: 0 });
  });

  it("is held by one daemon at a time; another takes the network when the holder stops or its lease runs out", async () => {
    const first = watcher("first");
    const second = watcher("second");
    expect(await first.step()).toMatchObject({ held: true });
    expect(await second.step()).toMatchObject({ held: false, looked: 0 });
    expect(await first.step()).toMatchObject({ held: true });

    // The holder stops renewing (a daemon SIGKILLed): its two-second lease runs out, on the database's clock.
    await expect.poll(() => second.step().then((s) => s.held), { timeout: 10_000, interval: 200 }).toBe(true);
    expect(await first.step()).toMatchObject({ held: false });
    expect(await second.step()).toMatchObject({ held: true });

    // A clean stop gives it up at once.
    await second.stop();
    expect(await first.step()).toMatchObject({ held: true });
  });
});
