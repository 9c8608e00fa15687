import { createDatabase } from "@qc/db";
import { findTransaction, lockTransactionStatus } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSubmittedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";
import { nativeAssetId } from "../assets/native-assets";
import { createTransfer } from "./create-transfer";
import { failUncheckedTransfer } from "./fail-unchecked-transfer";
import { releaseNextQueued } from "./release-next-queued";
import { runTransferChecks } from "./run-transfer-checks";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const DENIED = "0x4b20993bc481177ec7e8f571cecae8a9e22c02db";
const user: Actor = { type: "api_key", id: "qc_orderkey" };

/**
 * Transfers of one source are released in creation order, whatever order their checks finish in
 * (the daemon runs several checks at once). Real PostgreSQL, pg-boss and devnet; the checks and
 * release-next are called in the order each test needs, the way the daemon's workers may run them.
 */
describe("release for signing in creation order", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({
      database: t,
      config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] }, screening: { denylist: [DENIED], maxAttempts: 5 } },
    });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
  });
  afterAll(() => deps?.close());

  const fundedWallet = async () => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    return wallet;
  };
  const submitted = (wallet: TransferWalletFixture, destinationAddress = DESTINATION) =>
    createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress, amount: Q });
  const check = (transactionId: string) => runTransferChecks(deps, { tenantId: tenant.tenantId, transactionId });
  const source = (wallet: TransferWalletFixture) => ({
    tenantId: tenant.tenantId,
    sourceWalletId: wallet.walletId,
    networkCode: "QUANTUM_SANDBOX" as const,
  });
  const releaseNext = (wallet: TransferWalletFixture) => releaseNextQueued(deps, source(wallet));
  const releaseNextJobs = async (wallet: TransferWalletFixture) =>
    (await deps.jobs.boss.findJobs("transfers.release-next", { data: source(wallet) })).length;
  const statusOf = async (id: string) => (await findTransaction(t.db, tenant.tenantId, id))!.status;

  it("queues a younger transfer cleared while an older one is in its checks, and releases the older first", async () => {
    const wallet = await fundedWallet();
    const older = await submitted(wallet);
    const younger = await submitted(wallet);

    expect(await check(younger.id)).toMatchObject({ status: "RELEASE", release: { status: "QUEUED", transaction: { id: younger.id } } });
    // Its move to QUEUED enqueued release-next; that leaves it waiting for the older one's checks.
    expect(await releaseNextJobs(wallet)).toBe(1);
    expect(await releaseNext(wallet)).toEqual({
      outcomes: [{ status: "UNCHANGED", reason: "an older transfer of the source is still in its checks", retry: false }],
      fills: [],
    });
    expect(await statusOf(younger.id)).toBe("QUEUED");

    // The older one's checks release it (nonce first); the younger one, next in the window, after it.
    expect(await check(older.id)).toMatchObject({
      status: "RELEASE",
      release: { status: "PENDING_SIGNATURE", transaction: { id: older.id, nonce: 0 } },
    });
    // Released ahead of a queued younger one, its release enqueues release-next for it.
    expect(await releaseNextJobs(wallet)).toBe(2);
    expect(await releaseNext(wallet)).toMatchObject({
      outcomes: [{ status: "PENDING_SIGNATURE", transaction: { id: younger.id, nonce: 1 } }],
      fills: [],
    });
  });

  it("an older transfer its checks refuse enqueues release-next for the one queued behind it", async () => {
    const wallet = await fundedWallet();
    const older = await submitted(wallet, DENIED);
    const younger = await submitted(wallet);
    expect(await check(younger.id)).toMatchObject({ release: { status: "QUEUED" } });
    expect(await releaseNextJobs(wallet)).toBe(1);

    expect(await check(older.id)).toMatchObject({ status: "BLOCKED", decision: { subStatus: "REJECTED_AML_SCREENING" } });
    expect(await releaseNextJobs(wallet)).toBe(2);
    expect(await releaseNext(wallet)).toMatchObject({ outcomes: [{ status: "PENDING_SIGNATURE", transaction: { id: younger.id } }] });
  });

  it("an older transfer whose checks could not complete (dead letter) enqueues release-next too", async () => {
    const wallet = await fundedWallet();
    const older = await submitted(wallet);
    const younger = await submitted(wallet);
    expect(await check(younger.id)).toMatchObject({ release: { status: "QUEUED" } });
    expect(await releaseNextJobs(wallet)).toBe(1);

    const failed = await failUncheckedTransfer(deps, {
      tenantId: tenant.tenantId,
      transactionId: older.id,
      lastError: "rpc down",
      actor: systemActor("transfers.check"),
    });
    expect(failed.moved).toBe(true);
    expect(await releaseNextJobs(wallet)).toBe(2);
    expect(await releaseNext(wallet)).toMatchObject({ outcomes: [{ status: "PENDING_SIGNATURE", transaction: { id: younger.id } }] });
  });

  it(
    "does not hold up a create of the source while it releases: the wallet's lock lets the create's foreign-key " + "check through",
    async () => {
      const wallet = await fundedWallet();
      const first = await submitted(wallet);
      // Another session holds the transfer's row, so the release, once it has the source wallet's
      // lock, waits on it (at its status change).
      const holder = createDatabase({ url: t.url, poolMax: 1, applicationName: "qc-test-row-holder" });
      let unblock!: () => void;
      const blocked = new Promise<void>((resolve) => (unblock = resolve));
      let holding!: Promise<void>;
      await new Promise<void>((locked) => {
        holding = holder.db.transaction(async (tx) => {
          await lockTransactionStatus(tx, tenant.tenantId, first.id);
          locked();
          await blocked;
        });
      });
      try {
        const releasing = check(first.id);
        // Wait until the release waits on that row: by then it holds the wallet's lock.
        for (let i = 0; ; i++) {
          const { rows } = await t.query("select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
          if (rows.length > 0) break;
          if (i === 200) throw new Error("the release never waited on the transfer's row");
          await new Promise((r) => setTimeout(r, 50));
        }
        let timer: NodeJS.Timeout | undefined;
        const created = await Promise.race([
          createTransfer(deps, {
            tenantId: tenant.tenantId,
            networkCode: "QUANTUM_SANDBOX",
            sourceWalletId: wallet.walletId,
            destinationAddress: DESTINATION,
            assetId: nativeAssetId("QUANTUM_SANDBOX"),
            amount: Q.toString(),
            actor: user,
          }),
          new Promise<never>(
            (_, reject) => (timer = setTimeout(() => reject(new Error("the create waited for the release's wallet lock")), 10_000)),
          ),
        ]).finally(() => clearTimeout(timer));
        expect(created).toMatchObject({ status: "SUBMITTED", sourceWalletId: wallet.walletId });
        expect(await statusOf(first.id)).toBe("SUBMITTED");
        unblock();
        await holding;
        expect(await releasing).toMatchObject({
          status: "RELEASE",
          release: { status: "PENDING_SIGNATURE", transaction: { id: first.id } },
        });
      } finally {
        unblock();
        await holding.catch(() => undefined);
        await holder.close();
      }
    },
  );
});
