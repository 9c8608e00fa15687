import { createWalletClient, http } from "viem";
import { generateKeyPair, getQuantumTransactionHash, quantumSandbox, signQuantumSigningHash, toQuantumAccount } from "@qc/chain";
import { eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSignedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";
import { archiveWallet } from "../wallets/archive-wallet";
import { broadcastTransaction } from "./broadcast-transaction";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

describe("broadcastTransaction", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 9) });
  });
  afterAll(() => deps?.close());

  const fundedWallet = async (amount = 10n * Q, tenantId = tenant.tenantId) => {
    const wallet = await createTransferWalletFixture(deps, { tenantId });
    if (amount > 0n) await devnet().fund(wallet.address, amount);
    return wallet;
  };
  const signed = (
    wallet: TransferWalletFixture,
    overrides: { amount?: bigint; gasLimit?: bigint; nonce?: number; tenantId?: string } = {},
  ) =>
    createSignedTransferFixture(deps, {
      tenantId: overrides.tenantId ?? tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: overrides.amount ?? Q,
      ...overrides,
    });
  const broadcast = (row: { tenantId: string; id: string }) =>
    broadcastTransaction(deps, { tenantId: row.tenantId, transactionId: row.id });
  const reread = async (row: { tenantId: string; id: string }) => (await findTransaction(t.db, row.tenantId, row.id))!;
  const chainNonce = (address: `0x${string}`) => devnet().publicClient().getTransactionCount({ address, blockTag: "pending" });
  const onChain = (hash: string) => devnet().rpc<unknown>("eth_getTransactionByHash", [hash]);
  const jobs = (name: "transfers.watch" | "transfers.release-next", data: object) => deps.jobs.boss.findJobs(name, { data, queued: true });

  it(
    "stores the raw transaction and its hash, moves to BROADCASTING, sends it once and schedules the watch; no release-next " +
      "(its window slot stays held)",
    async () => {
      const wallet = await fundedWallet();
      const row = await signed(wallet);
      expect(row.status).toBe("SIGNED");
      const result = await broadcast(row);
      expect(result).toEqual({ status: "BROADCASTING", send: "sent" });
      const after = await reread(row);
      expect(after).toMatchObject({ status: "BROADCASTING", sendAttempts: 1, broadcastAt: expect.any(Date) });
      expect(after.chainTxHash).toBe(getQuantumTransactionHash(after.rawTransaction as `0x${string}`));
      expect(await onChain(after.chainTxHash!)).toMatchObject({
        hash: after.chainTxHash,
        from: wallet.address,
        nonce: `0x${after.nonce!.toString(16)}`,
      });
      expect(await chainNonce(wallet.address)).toBe(after.nonce! + 1);
      expect(await jobs("transfers.watch", { transactionId: row.id })).toHaveLength(1);
      expect(await jobs("transfers.release-next", { sourceWalletId: wallet.walletId })).toEqual([]);
    },
  );

  it(
    "re-sends the same bytes when retried: already in the pool, then already mined, both count as sent, one " + "transaction on chain",
    async () => {
      const wallet = await fundedWallet();
      const row = await signed(wallet);
      await broadcast(row);
      expect(await broadcast(row)).toEqual({ status: "BROADCASTING", send: "sent" });
      await devnet().mine(1);
      expect(await broadcast(row)).toEqual({ status: "BROADCASTING", send: "sent" });
      expect((await reread(row)).sendAttempts).toBe(3);
      expect(await devnet().publicClient().getTransactionCount({ address: wallet.address, blockTag: "latest" })).toBe(row.nonce! + 1);
      // Only ever one watch waiting for it.
      expect(await jobs("transfers.watch", { transactionId: row.id })).toHaveLength(1);
    },
  );

  it("fails closed on a row changed after signing (amount, destination): FAILED/SIGNATURE_MISMATCH, nothing sent", async () => {
    for (const change of [{ amount: (2n * Q).toString() }, { destinationAddress: "0x000000000000000000000000000000000000dead" }]) {
      const wallet = await fundedWallet();
      const row = await signed(wallet);
      await t.db.update(schema.transactions).set(change).where(eq(schema.transactions.id, row.id));
      expect(await broadcast(row)).toEqual({ status: "FAILED" });
      expect(await reread(row)).toMatchObject({
        status: "FAILED",
        subStatus: "SIGNATURE_MISMATCH",
        rawTransaction: null,
        chainTxHash: null,
        sendAttempts: 0,
      });
      expect(await chainNonce(wallet.address)).toBe(row.nonce);
      expect(await jobs("transfers.release-next", { sourceWalletId: wallet.walletId })).toHaveLength(1);
    }
  });

  it("fails closed when the stored signature is not the wallet key's over the intent (swapped in the database)", async () => {
    const wallet = await fundedWallet();
    const row = await signed(wallet);
    const forged = signQuantumSigningHash({ signingHash: row.signingHash as `0x${string}`, secretKey: generateKeyPair().secretKey });
    await t.db.update(schema.transactions).set({ signature: forged }).where(eq(schema.transactions.id, row.id));
    expect(await broadcast(row)).toEqual({ status: "FAILED" });
    expect(await reread(row)).toMatchObject({ subStatus: "SIGNATURE_MISMATCH", rawTransaction: null });
    expect(await chainNonce(wallet.address)).toBe(row.nonce);
  });

  it("does not broadcast for an archived wallet or a tenant no longer verified: FAILED/INTERNAL_ERROR with the reason", async () => {
    const wallet = await fundedWallet();
    const row = await signed(wallet);
    await archiveWallet(deps, { tenantId: tenant.tenantId, walletId: wallet.walletId, actor: systemActor("test") });
    expect(await broadcast(row)).toEqual({ status: "FAILED" });
    expect(await reread(row)).toMatchObject({
      subStatus: "INTERNAL_ERROR",
      statusReason: expect.stringContaining("archived"),
      rawTransaction: null,
    });

    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 9) });
    const otherWallet = await fundedWallet(10n * Q, other.tenantId);
    const otherRow = await signed(otherWallet, { tenantId: other.tenantId });
    await t.db.update(schema.tenants).set({ status: "REJECTED" }).where(eq(schema.tenants.id, other.tenantId));
    expect(await broadcast(otherRow)).toEqual({ status: "FAILED" });
    expect(await reread(otherRow)).toMatchObject({
      subStatus: "INTERNAL_ERROR",
      statusReason: expect.stringContaining("no longer verified"),
    });
    expect(await chainNonce(wallet.address)).toBe(row.nonce);
    expect(await chainNonce(otherWallet.address)).toBe(otherRow.nonce);
  });

  it("answers 503 UNAVAILABLE while the node cannot be reached, the raw transaction already stored; the retry sends it", async () => {
    const wallet = await fundedWallet();
    const row = await signed(wallet);
    await devnet().rpc("devnet_setFault", [{ kind: "rpcError" }]);
    try {
      await expect(broadcast(row)).rejects.toMatchObject({ error: "UNAVAILABLE" });
    } finally {
      await devnet().rpc("devnet_clearFaults");
    }
    const stored = await reread(row);
    expect(stored).toMatchObject({ status: "BROADCASTING", sendAttempts: 0, rawTransaction: expect.stringMatching(/^0x51/) });
    expect(await broadcast(row)).toEqual({ status: "BROADCASTING", send: "sent" });
    expect(await onChain(stored.chainTxHash!)).toMatchObject({ hash: stored.chainTxHash });
  });

  it("fails for good what the chain refuses for good: insufficient funds, nonce taken by another transaction", async () => {
    const poor = await fundedWallet(Q);
    const unpayable = await signed(poor, { amount: Q, gasLimit: 21_000n });
    expect(await broadcast(unpayable)).toEqual({ status: "FAILED", send: "final" });
    expect(await reread(unpayable)).toMatchObject({ status: "FAILED", subStatus: "INSUFFICIENT_FUNDS" });

    const wallet = await fundedWallet();
    const row = await signed(wallet);
    // The same key spends that nonce elsewhere first (the customer's key used outside the service).
    const account = toQuantumAccount({ secretKey: wallet.secretKey });
    const client = createWalletClient({ account, chain: quantumSandbox, transport: http(devnet().url) });
    await client.sendTransaction({ to: "0x000000000000000000000000000000000000beef", value: 1n, nonce: row.nonce! });
    await devnet().mine(1);
    expect(await broadcast(row)).toEqual({ status: "FAILED", send: "final" });
    expect(await reread(row)).toMatchObject({
      status: "FAILED",
      subStatus: "DROPPED_BY_CHAIN",
      statusReason: expect.stringContaining(`nonce ${row.nonce}`),
    });
  });

  it("does nothing for a transaction that moved on (a duplicate job after completion or failure)", async () => {
    const wallet = await fundedWallet();
    const row = await signed(wallet);
    await t.db.update(schema.transactions).set({ amount: "1" }).where(eq(schema.transactions.id, row.id));
    await broadcast(row);
    expect(await broadcast(row)).toEqual({ status: "FAILED" });
    await expect(
      broadcastTransaction(deps, { tenantId: tenant.tenantId, transactionId: "0194f2c4-0000-7000-8000-00000000abcd" }),
    ).rejects.toMatchObject({ error: "NOT_FOUND" });
  });
});
