import { quantumSandbox } from "@qc/chain";
import { QUANTUM_TEST_TOKEN } from "@qc/chain/contracts";
import { and, asc, eq, schema } from "@qc/db";
import { findTransaction, type TransactionRow } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, useDevnet } from "@qc/devnet/testing";
import { createWalletClient, http, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTokenAsset } from "../assets/add-token-asset";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTransfer } from "../transfers/create-transfer";
import { transferCall } from "../transfers/quote-transfer-fees";
import { releaseForSigning } from "../transfers/release-for-signing";
import { createTenantFixture, type TenantFixture } from "./fixtures";
import { createTestServiceDeps } from "./service-deps";
import {
  createReleasedTransferFixture,
  createSubmittedTransferFixture,
  createTransferWalletFixture,
  type TransferWalletFixture,
} from "./transfer-fixtures";

const Q = 10n ** 18n;

/**
 * The fixtures are only worth their tests if they store what production stores: each is compared
 * here with the same transfer made through createTransfer and releaseForSigning.
 */
describe("transfer fixtures store what the services store", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 4) });
  });
  afterAll(() => deps?.close());

  const fundedWallet = async (): Promise<TransferWalletFixture> => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    return wallet;
  };
  /** The devnet mines on demand: one block, then the transaction's receipt. */
  const mined = async (hash: `0x${string}`) => {
    await devnet().mine(1);
    return devnet().publicClient().getTransactionReceipt({ hash });
  };
  const fresh = () => createFundedAccount(devnet(), 0n).then((a) => a.address);
  /** What a transaction left behind besides its row: history, audit actions, events, jobs. */
  const trail = async (row: TransactionRow) => ({
    history: (
      await t.db
        .select()
        .from(schema.transactionStatusHistory)
        .where(eq(schema.transactionStatusHistory.transactionId, row.id))
        .orderBy(asc(schema.transactionStatusHistory.createdAt))
    ).map((h) => [h.fromStatus, h.toStatus]),
    audit: (
      await t.db
        .select()
        .from(schema.auditEvents)
        .where(and(eq(schema.auditEvents.targetType, "transaction"), eq(schema.auditEvents.targetId, row.id)))
    )
      .map((a) => a.action)
      .sort(),
    events: (await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, row.id))).map((e) => e.type).sort(),
    checkJobs: (await deps.jobs.boss.findJobs("transfers.check", { data: { transactionId: row.id } })).length,
    expireJobs: (await deps.jobs.boss.findJobs("transfers.expire", { data: { transactionId: row.id } })).length,
  });

  it("a submitted fixture is createTransfer's row and trail (audit row included), without the checks' job", async () => {
    const wallet = await fundedWallet();
    const destinationAddress = await fresh();
    const fixture = await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress, amount: Q });
    const created = await createTransfer(deps, {
      tenantId: tenant.tenantId,
      networkCode: "QUANTUM_SANDBOX",
      sourceWalletId: wallet.walletId,
      destinationAddress,
      assetId: fixture.assetId!,
      amount: Q.toString(),
      actor: systemActor("test"),
    });
    const service = (await findTransaction(t.db, tenant.tenantId, created.id))!;
    const same = (row: TransactionRow) => {
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = row;
      return rest;
    };
    expect(same(fixture)).toEqual(same(service));
    expect(await trail(fixture)).toEqual({ ...(await trail(service)), checkJobs: 0 });
    expect(await trail(fixture)).toEqual({
      history: [[null, "SUBMITTED"]],
      audit: ["transaction.created"],
      events: ["transaction.created"],
      checkJobs: 0,
      expireJobs: 0,
    });
  });

  it("a released fixture has release's gas (the estimate × margin, rounded up), nonce, deadline and trail", async () => {
    // An ERC-20 transfer: its estimate is no multiple of 100, so the margin's rounding shows.
    const owner = await createFundedAccount(devnet(), 10n * Q);
    const client = createWalletClient({ account: owner.account, chain: quantumSandbox, transport: http(devnet().url) });
    const deployed = await client.deployContract({
      abi: QUANTUM_TEST_TOKEN.abi,
      bytecode: QUANTUM_TEST_TOKEN.bytecode,
      args: ["Fixture USD", "FUSD", 6, 10n ** 12n],
    });
    const token = (await mined(deployed)).contractAddress!.toLowerCase() as Address;
    const { asset } = await addTokenAsset(deps, {
      tenantId: tenant.tenantId,
      networkCode: "QUANTUM_SANDBOX",
      contractAddress: token,
      actor: systemActor("test"),
    });
    const [byFixture, byService] = [await fundedWallet(), await fundedWallet()];
    for (const wallet of [byFixture, byService]) {
      const sent = await client.writeContract({
        address: token,
        abi: QUANTUM_TEST_TOKEN.abi,
        functionName: "transfer",
        args: [wallet.address, 10n ** 9n],
      });
      expect((await mined(sent)).status).toBe("success");
    }
    const amount = 1_234n;
    // One destination for both: the calldata carries it, and a zero byte costs 4 gas where another costs 16, so two
    // different addresses can estimate differently (68,444 against 68,460 once) whatever the release does.
    const toFixture = await fresh();
    const toService = toFixture;
    const call = transferCall({ chainId: quantumSandbox.id, destinationAddress: toFixture, amount, token });
    const estimate = await deps.chain.client("QUANTUM_SANDBOX").estimateGas({ account: byFixture.address, ...call });
    const margin = [133n, 121n, 117n].find((m) => (estimate * m) % 100n !== 0n)!;
    const at = new Date();
    const config = { ...deps.config, transfers: { ...deps.config.transfers, gasMarginPercent: Number(margin) } };
    const released = { ...deps, config, now: () => at };

    const fixture = await createReleasedTransferFixture(released, {
      tenantId: tenant.tenantId,
      wallet: byFixture,
      destinationAddress: toFixture,
      amount,
      asset: { id: asset.id },
    });
    const created = await createTransfer(released, {
      tenantId: tenant.tenantId,
      networkCode: "QUANTUM_SANDBOX",
      sourceWalletId: byService.walletId,
      destinationAddress: toService,
      assetId: asset.id,
      amount: amount.toString(),
      actor: systemActor("test"),
    });
    const outcome = await releaseForSigning(released, { tenantId: tenant.tenantId, transactionId: created.id, from: "SUBMITTED" });
    expect(outcome.status).toBe("PENDING_SIGNATURE");
    const service = (await findTransaction(t.db, tenant.tenantId, created.id))!;

    expect(BigInt(fixture.gasLimit!)).toBe((estimate * margin + 99n) / 100n);
    expect(fixture.gasLimit).toBe(service.gasLimit);
    expect(fixture).toMatchObject({
      status: "PENDING_SIGNATURE",
      nonce: service.nonce,
      signingDeadline: service.signingDeadline,
      data: expect.stringMatching(/^0xa9059cbb/),
    });
    expect(fixture.maxFeePerGas).not.toBeNull();
    expect(await trail(fixture)).toEqual({ ...(await trail(service)), checkJobs: 0 });
    expect(await trail(fixture)).toMatchObject({
      history: [
        [null, "SUBMITTED"],
        ["SUBMITTED", "PENDING_SIGNATURE"],
      ],
      audit: ["transaction.created", "transaction.pending_signature"],
      expireJobs: 1,
    });
  });
});
