import { findTransaction, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSignedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";
import { broadcastTransaction } from "./broadcast-transaction";
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

  it("moves every watched transaction of the network once per block: CONFIRMING, then COMPLETED at the required depth", async () => {
    const [a, b] = [await funded(), await funded()];
    const rows = [await signed(a), await signed(a), await signed(b)];
    for (const row of rows) await broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
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
    // Two slots of one source freed in one block: one waiting release-next for the source, not one per transaction.
    expect([(await waitingReleaseNext(a)).length, (await waitingReleaseNext(b)).length]).toEqual([
      waitingBefore[0]! + 1,
      waitingBefore[1]! + 1,
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

  it("leaves a transaction whose first send is not recorded to its broadcast's backstop: no re-send, no attempt counted", async () => {
    const row = await signed(await funded());
    await devnet().rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    // The daemon dies between the send and its record (the crash point), and the node dropped the send.
    const crashed = new Error("crash after the send");
    await expect(
      broadcastTransaction(
        deps,
        { tenantId: tenant.tenantId, transactionId: row.id },
        {
          afterSend: () => {
            throw crashed;
          },
        },
      ),
    ).rejects.toBe(crashed);
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 0 });
    await watcher("one").step();
    expect(await reread(row)).toMatchObject({ status: "BROADCASTING", sendAttempts: 0 });
    // The watch scheduled with the move to BROADCASTING resumes it.
    expect(await deps.jobs.boss.findJobs("transfers.watch", { data: { transactionId: row.id }, queued: true })).toHaveLength(1);
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
