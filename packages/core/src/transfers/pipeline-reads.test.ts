import { createDatabase, type DatabaseHandle } from "@qc/db";
import { policies } from "@qc/db/schema";
import {
  findCurrentPolicy,
  countNonceWindow,
  findSourceNonces,
  findOldestTransferIn,
  findScreeningDenylistMatches,
  findTransactionForSigning,
  findTransferCheckRows,
  findWalletRow,
  listTransactionsForSigning,
  recordTransactionSend,
  replaceScreeningDenylistEntries,
  sumSourceReservations,
} from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSubmittedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";

const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

// The joined reads of the pipeline's steps (the checks; signature submission, verification and
// broadcast) run for every transfer: prepared once per connection, and still scoped to the tenant.
describe("the pipeline's joined transaction reads", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  /** One pooled connection and no pipelined reads, so every read below runs on it. */
  let single: DatabaseHandle;
  let tenant: TenantFixture;
  let other: TenantFixture;
  let wallet: TransferWalletFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
    single = createDatabase({ url: t.url, poolMax: 1, pipelinedReads: 0, applicationName: "qc-test-single" });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 8) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
  });
  afterAll(async () => {
    await single?.close();
    await deps?.close();
  });

  it("reads each transfer with its wallet and asset through statements parsed once per connection", async () => {
    const rows = [
      await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: 1n }),
      await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: 2n }),
    ];
    for (const row of rows) {
      const checks = await findTransferCheckRows(single.db, { tenantId: tenant.tenantId, transactionId: row.id });
      expect(checks?.transaction).toEqual(row);
      expect(checks?.wallet).toMatchObject({ id: wallet.walletId, address: wallet.address, publicKey: wallet.publicKey });
      expect(checks?.vaultId).toBe(wallet.vaultId);
      expect(checks?.asset).toMatchObject({ id: row.assetId, kind: "NATIVE" });

      const signing = await findTransactionForSigning(single.db, { tenantId: tenant.tenantId, transactionId: row.id });
      expect(signing?.transaction).toEqual(row);
      expect(signing?.wallet).toEqual({
        id: wallet.walletId,
        type: "REGISTERED",
        status: "ACTIVE",
        address: wallet.address,
        publicKey: wallet.publicKey,
      });
      expect(signing?.asset).toEqual({ kind: "NATIVE", contractAddress: null });

      // Another tenant's id for the same transaction finds nothing.
      expect(await findTransferCheckRows(single.db, { tenantId: other.tenantId, transactionId: row.id })).toBeUndefined();
      expect(await findTransactionForSigning(single.db, { tenantId: other.tenantId, transactionId: row.id })).toBeUndefined();
    }
  });

  it("reads a source's queue, nonces and reservations through prepared statements, one per statement text", async () => {
    // Only this test's rows: a second wallet of the same tenant.
    const own = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    const source = { tenantId: tenant.tenantId, sourceWalletId: own.walletId, networkCode: "QUANTUM_SANDBOX" as const };
    const otherSource = { ...source, tenantId: other.tenantId };
    const [broadcast, pending, submitted] = [
      await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet: own, destinationAddress: DESTINATION, amount: 10n }),
      await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet: own, destinationAddress: DESTINATION, amount: 20n }),
      await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet: own, destinationAddress: DESTINATION, amount: 40n }),
    ];
    await t.query(
      "update transactions set status = 'BROADCASTING', nonce = 4, gas_limit = 21000, max_fee_per_gas = 10 where id " + "= $1",
      [broadcast!.id],
    );
    await t.query(
      "update transactions set status = 'PENDING_SIGNATURE', nonce = 5, gas_limit = 21000, max_fee_per_gas = 3 where " + "id = $1",
      [pending!.id],
    );

    for (let round = 0; round < 2; round++) {
      expect(await findOldestTransferIn(single.db, { ...source, statuses: ["SUBMITTED", "QUEUED"] })).toEqual({
        id: submitted!.id,
        status: "SUBMITTED",
      });
      expect(await findOldestTransferIn(single.db, { ...source, statuses: ["QUEUED"] })).toBeUndefined();
      expect(await countNonceWindow(single.db, source)).toBe(2);
      expect(await findSourceNonces(single.db, { ...source, chainFloor: 3 })).toEqual({
        floor: 3,
        holding: 2,
        taken: [4, 5],
        queued: false,
      });
      expect(await findSourceNonces(single.db, { ...source, chainFloor: null })).toEqual({
        floor: 0,
        holding: 2,
        taken: [4, 5],
        queued: false,
      });
      expect(await sumSourceReservations(single.db, { ...source, assetId: broadcast!.assetId!, excludeId: submitted!.id })).toEqual({
        amount: 30n,
        fees: 273_000n,
      });
      expect(await sumSourceReservations(single.db, { ...source, assetId: broadcast!.assetId!, excludeId: pending!.id })).toEqual({
        amount: 10n,
        fees: 210_000n,
      });
      const page = await listTransactionsForSigning(single.db, { tenantId: tenant.tenantId, status: "PENDING_SIGNATURE", limit: 10 });
      expect(page.map((row) => row.transaction.id)).toContain(pending!.id);
      const after = await listTransactionsForSigning(single.db, {
        tenantId: tenant.tenantId,
        status: "PENDING_SIGNATURE",
        beforeId: pending!.id,
        limit: 10,
      });
      expect(after.map((row) => row.transaction.id)).not.toContain(pending!.id);

      // The same source seen by another tenant is empty.
      expect(await findOldestTransferIn(single.db, { ...otherSource, statuses: ["SUBMITTED", "QUEUED"] })).toBeUndefined();
      expect(await countNonceWindow(single.db, otherSource)).toBe(0);
      expect(await findSourceNonces(single.db, { ...otherSource, chainFloor: 3 })).toEqual({
        floor: 3,
        holding: 0,
        taken: [],
        queued: false,
      });
      expect(await sumSourceReservations(single.db, { ...otherSource, assetId: broadcast!.assetId!, excludeId: submitted!.id })).toEqual({
        amount: 0n,
        fees: 0n,
      });
      expect(await listTransactionsForSigning(single.db, { tenantId: other.tenantId, status: "PENDING_SIGNATURE", limit: 10 })).toEqual([]);
    }
  });
  it("locks the source wallet, reads the policy and the denylist and counts a send through prepared statements", async () => {
    const own = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    const key = { tenantId: tenant.tenantId, walletId: own.walletId };
    await t.db.insert(policies).values([
      { tenantId: tenant.tenantId, version: 1, document: { rules: [] } },
      { tenantId: tenant.tenantId, version: 2, document: { rules: [{ id: "r2" }] } },
    ]);
    const listed = "0x1111111111111111111111111111111111111111";
    const alsoListed = "0x2222222222222222222222222222222222222222";
    await replaceScreeningDenylistEntries(t.db, {
      tenantId: tenant.tenantId,
      entries: [
        { address: listed, label: "one" },
        { address: alsoListed, label: "two" },
      ],
    });
    const broadcasting = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet: own,
      destinationAddress: DESTINATION,
      amount: 5n,
    });
    const submitted = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet: own,
      destinationAddress: DESTINATION,
      amount: 6n,
    });
    await t.query("update transactions set status = 'BROADCASTING' where id = $1", [broadcasting!.id]);

    for (let round = 1; round <= 2; round++) {
      for (const lock of [undefined, "update", "no key update"] as const) {
        const row = await single.db.transaction((tx) => findWalletRow(tx, { ...key, lock }));
        expect(row).toMatchObject({ id: own.walletId, tenantId: tenant.tenantId, address: own.address });
        expect(await single.db.transaction((tx) => findWalletRow(tx, { ...key, tenantId: other.tenantId, lock }))).toBeUndefined();
      }
      expect(await findWalletRow(single.db, key)).toMatchObject({ id: own.walletId });
      expect(await findCurrentPolicy(single.db, { tenantId: tenant.tenantId })).toMatchObject({
        version: 2,
        document: { rules: [{ id: "r2" }] },
      });
      expect(await findCurrentPolicy(single.db, { tenantId: other.tenantId })).toBeUndefined();
      // One text for any number of addresses.
      expect(await findScreeningDenylistMatches(single.db, { tenantId: tenant.tenantId, addresses: [listed] })).toEqual([
        { address: listed, label: "one" },
      ]);
      const many = await findScreeningDenylistMatches(single.db, {
        tenantId: tenant.tenantId,
        addresses: [DESTINATION, alsoListed, listed],
      });
      expect(many.sort((a, b) => a.address.localeCompare(b.address))).toEqual([
        { address: listed, label: "one" },
        { address: alsoListed, label: "two" },
      ]);
      expect(await findScreeningDenylistMatches(single.db, { tenantId: other.tenantId, addresses: [listed] })).toEqual([]);

      const at = new Date(Date.UTC(2026, 10, 24, 4, 0, round));
      const sent = await single.db.transaction((tx) =>
        recordTransactionSend(tx, { tenantId: tenant.tenantId, transactionId: broadcasting!.id, at }),
      );
      expect(sent).toMatchObject({ id: broadcasting!.id, sendAttempts: round, updatedAt: at });
      // Counted only while BROADCASTING, and only for its tenant.
      expect(await recordTransactionSend(single.db, { tenantId: tenant.tenantId, transactionId: submitted!.id, at })).toBeUndefined();
      expect(await recordTransactionSend(single.db, { tenantId: other.tenantId, transactionId: broadcasting!.id, at })).toBeUndefined();
    }
    const stored = await t.query<{ send_attempts: number }>("select send_attempts from transactions where id = $1", [broadcasting!.id]);
    expect(stored.rows[0]?.send_attempts).toBe(2);
  });
});
