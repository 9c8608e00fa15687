import { eq, schema } from "@qc/db";
import { countNonceWindow, findTransaction, type TransactionRow } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { rpcCall, useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor, type Actor } from "../audit/actor";
import { defaultTransferConfig } from "../deps/service-config";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import {
  createSubmittedTransferFixture,
  createTransferWalletFixture,
  signTransferFixture,
  type TransferWalletFixture,
} from "../testing/transfer-fixtures";
import { broadcastTransaction } from "./broadcast-transaction";
import { expireTransaction } from "./expire-transaction";
import { insertReleasedTransaction } from "./insert-released-transaction";
import { rejectTransaction } from "./reject-transaction";
import { releaseNextQueued } from "./release-next-queued";
import { runTransferChecks } from "./run-transfer-checks";
import { submitSignature } from "./submit-signature";
import { watchTransaction } from "./watch-transaction";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const WINDOW = 4;
const signer: Actor = systemActor("test-signer");

/**
 * The nonce window and gap repair of CONTRACT §17 (docs/transfers.md): up to NONCE_WINDOW
 * transfers of one source hold consecutive nonces between release and mining, and a nonce left
 * unused below a taken one goes to the next queued transfer or to a NONCE_FILL, signed and mined
 * like any other. Real PostgreSQL, pg-boss and devnet (blocks on demand); the checks, release-next,
 * the signer, the broadcast and the watcher are called in the order each test needs.
 */
describe("the nonce window and its gaps", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let clock = 0;

  beforeAll(async () => {
    deps = await createTestServiceDeps({
      database: t,
      // One send before a transaction the node forgot is DROPPED_BY_CHAIN (the dropped-transaction test).
      config: {
        rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
        transfers: {
          ...defaultTransferConfig(),
          nonceWindow: WINDOW,
          maxSendAttempts: 1,
          requiredConfirmations: { QUANTUM_SANDBOX: 1, QUANTUM_MAINNET: 12 },
        },
      },
      now: () => new Date(Date.now() + clock),
    });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 9) });
  });
  afterAll(() => deps?.close());

  const fundedWallet = async () => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 100n * Q);
    return wallet;
  };
  const reread = async (id: string) => (await findTransaction(t.db, tenant.tenantId, id))!;
  /** `count` transfers of the wallet, created and checked in order, as the daemon's checks would: released or queued. */
  const checked = async (wallet: TransferWalletFixture, count: number) => {
    const rows: TransactionRow[] = [];
    for (let i = 0; i < count; i++) {
      const row = await createSubmittedTransferFixture(deps, {
        tenantId: tenant.tenantId,
        wallet,
        destinationAddress: DESTINATION,
        amount: Q,
      });
      expect(await runTransferChecks(deps, { tenantId: tenant.tenantId, transactionId: row.id })).toMatchObject({ status: "RELEASE" });
      rows.push(await reread(row.id));
    }
    return rows;
  };
  const sign = async (row: { id: string }, wallet: TransferWalletFixture) => {
    const current = await reread(row.id);
    await submitSignature(deps, {
      tenantId: tenant.tenantId,
      transactionId: row.id,
      signature: signTransferFixture(current.signingHash!, wallet.secretKey),
      actor: signer,
    });
  };
  const broadcast = (row: { id: string }) => broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
  const signAndSend = async (row: { id: string }, wallet: TransferWalletFixture) => {
    await sign(row, wallet);
    expect(await broadcast(row)).toEqual({ status: "BROADCASTING", send: "sent" });
  };
  const watch = (row: { id: string }) => watchTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
  const source = (wallet: TransferWalletFixture) => ({
    tenantId: tenant.tenantId,
    sourceWalletId: wallet.walletId,
    networkCode: "QUANTUM_SANDBOX" as const,
  });
  const releaseNext = (wallet: TransferWalletFixture) => releaseNextQueued(deps, source(wallet));
  const minedNonce = (wallet: TransferWalletFixture) =>
    devnet().publicClient().getTransactionCount({ address: wallet.address, blockTag: "latest" });
  const fillsOf = (wallet: TransferWalletFixture) =>
    t.db
      .select()
      .from(schema.transactions)
      .where(eq(schema.transactions.sourceWalletId, wallet.walletId))
      .then((rows) => rows.filter((row) => row.type === "NONCE_FILL"));
  /** The intent columns a nonce record of `row`'s source copies. */
  const nonceRecordOf = (row: TransactionRow) => ({
    tenantId: row.tenantId,
    networkCode: row.networkCode,
    chainId: row.chainId,
    sourceWalletId: row.sourceWalletId,
    sourceAddress: row.sourceAddress,
    assetId: null,
    amount: "0",
    requiredConfirmations: row.requiredConfirmations,
  });
  /** Every row of the wallet mined: CONFIRMING or COMPLETED after a look by the watcher. */
  const expectAllMined = async (rows: { id: string }[]) => {
    await devnet().mine(1);
    for (const row of rows) expect((await watch(row)).status).toMatch(/^(CONFIRMING|COMPLETED)$/);
  };

  it("releases a window's worth at once on consecutive nonces, queues the rest and releases them as mining frees room", async () => {
    const wallet = await fundedWallet();
    const rows = await checked(wallet, WINDOW + 2);
    expect(rows.map((row) => [row.status, row.nonce])).toEqual([
      ["PENDING_SIGNATURE", 0],
      ["PENDING_SIGNATURE", 1],
      ["PENDING_SIGNATURE", 2],
      ["PENDING_SIGNATURE", 3],
      ["QUEUED", null],
      ["QUEUED", null],
    ]);
    const window = rows.slice(0, WINDOW);
    // Signed and sent, they still hold the window (between release and mining): nothing more is released.
    for (const row of window) await signAndSend(row, wallet);
    expect(await releaseNext(wallet)).toEqual({
      outcomes: [{ status: "UNCHANGED", reason: "the source's nonce window is full", retry: false }],
      fills: [],
    });
    // A full window with transfers waiting looks again at the watcher's pace.
    expect(await deps.jobs.boss.findJobs("transfers.release-next", { data: source(wallet), queued: true })).not.toHaveLength(0);

    await expectAllMined(window);
    expect(await minedNonce(wallet)).toBe(WINDOW);
    const next = await releaseNext(wallet);
    expect(next).toMatchObject({
      outcomes: [
        { status: "PENDING_SIGNATURE", transaction: { id: rows[4]!.id, nonce: 4 } },
        { status: "PENDING_SIGNATURE", transaction: { id: rows[5]!.id, nonce: 5 } },
      ],
      fills: [],
    });
    for (const row of rows.slice(WINDOW)) await signAndSend(row, wallet);
    await expectAllMined(rows.slice(WINDOW));
    expect(await minedNonce(wallet)).toBe(WINDOW + 2);
  });

  it.each(["rejected", "expired"] as const)(
    "fills a middle nonce whose transfer was %s: NONCE_FILL at exactly that nonce, signed and mined",
    async (end) => {
      const wallet = await fundedWallet();
      const [first, middle, last] = await checked(wallet, 3);
      if (end === "rejected") {
        await rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: middle!.id, reason: "not this one", actor: signer });
      } else {
        clock = deps.config.transfers.signingTimeoutSeconds * 1000 + 1;
        try {
          expect(await expireTransaction(deps, { tenantId: tenant.tenantId, transactionId: middle!.id })).toMatchObject({
            outcome: "expired",
          });
        } finally {
          clock = 0;
        }
      }
      await signAndSend(first!, wallet);
      await signAndSend(last!, wallet);

      const { outcomes, fills } = await releaseNext(wallet);
      expect(outcomes).toEqual([]);
      expect(fills).toHaveLength(1);
      const fill = fills[0]!;
      expect(fill).toMatchObject({
        type: "NONCE_FILL",
        status: "PENDING_SIGNATURE",
        nonce: middle!.nonce,
        sourceAddress: wallet.address,
        destinationAddress: wallet.address,
        assetId: null,
        amount: "0",
      });
      // Nothing is filled twice: the nonce is the fill's now.
      expect((await releaseNext(wallet)).fills).toEqual([]);

      // The later transaction waits in the pool behind the gap until the fill, signed like any other, is mined.
      await devnet().mine(1);
      expect(await minedNonce(wallet)).toBe(1);
      await signAndSend(fill, wallet);
      await expectAllMined([first!, fill, last!]);
      expect(await minedNonce(wallet)).toBe(3);
      expect(await reread(fill.id)).toMatchObject({ type: "NONCE_FILL", status: "COMPLETED", nonce: 1 });
    },
  );

  it("gives a nonce left unused to the next queued transfer instead of a fill", async () => {
    const wallet = await fundedWallet();
    const rows = await checked(wallet, WINDOW + 1);
    expect(rows.map((row) => row.status)).toEqual([...Array(WINDOW).fill("PENDING_SIGNATURE"), "QUEUED"]);
    const rejected = rows[1]!;
    await rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: rejected.id, reason: "no", actor: signer });
    expect(await releaseNext(wallet)).toMatchObject({
      outcomes: [{ status: "PENDING_SIGNATURE", transaction: { id: rows[WINDOW]!.id, nonce: rejected.nonce } }],
      fills: [],
    });
    const live = [rows[0]!, ...rows.slice(2)];
    for (const row of live) await signAndSend(row, wallet);
    await expectAllMined(live);
    expect(await minedNonce(wallet)).toBe(WINDOW);
    expect(await fillsOf(wallet)).toEqual([]);
  });

  it("a CANCELLATION takes its original's nonce and no slot of its own", async () => {
    const wallet = await fundedWallet();
    const rows = await checked(wallet, WINDOW + 1);
    const original = rows[0]!;
    const fees = { gasLimit: 21_000n, maxFeePerGas: BigInt(original.maxFeePerGas!) * 2n, maxPriorityFeePerGas: 2n };
    const cancellation = await t.db.transaction((tx) =>
      insertReleasedTransaction(tx, deps, {
        values: {
          ...nonceRecordOf(original),
          type: "CANCELLATION",
          destinationAddress: wallet.address,
          replacesTransactionId: original.id,
        },
        asset: null,
        release: { nonce: original.nonce!, fees },
        actor: signer,
      }),
    );
    expect(cancellation).toMatchObject({ status: "PENDING_SIGNATURE", nonce: 0 });
    expect(await countNonceWindow(t.db, source(wallet))).toBe(WINDOW);
    expect((await releaseNext(wallet)).fills).toEqual([]);

    // The last of the window rejected: one slot frees, and the queued transfer takes it (and its nonce).
    await rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: rows[WINDOW - 1]!.id, reason: "no", actor: signer });
    expect(await releaseNext(wallet)).toMatchObject({
      outcomes: [{ status: "PENDING_SIGNATURE", transaction: { id: rows[WINDOW]!.id, nonce: WINDOW - 1 } }],
      fills: [],
    });
  });

  it("two release-next runs at once create one fill for one nonce", async () => {
    const wallet = await fundedWallet();
    const [first, middle, last] = await checked(wallet, 3);
    await rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: first!.id, reason: "no", actor: signer });
    await rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: middle!.id, reason: "no", actor: signer });
    const runs = await Promise.all([releaseNext(wallet), releaseNext(wallet), releaseNext(wallet)]);
    expect(runs.flatMap((run) => run.fills.map((fill) => fill.nonce)).sort()).toEqual([0, 1]);
    const fills = await fillsOf(wallet);
    expect(fills.map((fill) => fill.nonce).sort()).toEqual([0, 1]);
    for (const fill of fills.sort((a, b) => a.nonce! - b.nonce!)) await signAndSend(fill, wallet);
    await signAndSend(last!, wallet);
    await expectAllMined([...fills, last!]);
    expect(await minedNonce(wallet)).toBe(3);
  });

  it("fills the nonce of a transaction the chain dropped for good; the one after it is mined", async () => {
    const wallet = await fundedWallet();
    const [dropped, after] = await checked(wallet, 2);
    await sign(dropped!, wallet);
    await sign(after!, wallet);
    await rpcCall(devnet().url, "devnet_setFault", [{ kind: "dropNextTx" }]);
    expect(await broadcast(dropped!)).toEqual({ status: "BROADCASTING", send: "sent" });
    expect(await broadcast(after!)).toEqual({ status: "BROADCASTING", send: "sent" });
    // Neither pending nor mined, its one send used (maxSendAttempts 1 here): FAILED/DROPPED_BY_CHAIN,
    // and its end enqueues release-next (it held a nonce of the window).
    expect(await watch(dropped!)).toMatchObject({ status: "FAILED" });
    expect(await reread(dropped!.id)).toMatchObject({ status: "FAILED", subStatus: "DROPPED_BY_CHAIN" });
    await devnet().mine(1);
    expect(await minedNonce(wallet)).toBe(0);

    const { fills } = await releaseNext(wallet);
    expect(fills).toMatchObject([{ type: "NONCE_FILL", nonce: dropped!.nonce }]);
    await signAndSend(fills[0]!, wallet);
    await expectAllMined([fills[0]!, after!]);
    expect(await minedNonce(wallet)).toBe(2);
  });
});
