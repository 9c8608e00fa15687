import { defaultWebhookConfig } from "@qc/core";
import { createTenantFixture, insertDepositFixture, type TenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, deployTestToken, sendNative, sendToken, useDevnet } from "@qc/devnet/testing";
import { verifyWebhook } from "@qc/webhooks";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, NATIVE, newSignerKey, Q } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import {
  devnetConfig,
  fundedSource,
  nativeTransfer,
  RECORD_KEYS,
  startTransfersDaemon,
  transfersClient,
  type FundedSource,
  type TransfersClient,
} from "./transfers-front-helpers";
import { startReceiver, type TestReceiver } from "./webhooks-receiver";

const SENDER = "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2";
/** A token contract the tenant has no asset for: its deposits carry the address and `assetId: null`. */
const UNKNOWN_TOKEN = "0x1111111111111111111111111111111111111111";

const ids = (body: { transactions: { id: string }[] }) => body.transactions.map((tx) => tx.id);

/**
 * Deposits (CONTRACT §21) as an integrator sees them over HTTPS: fixture deposits stored as the
 * chain follower stores them, listed by `type` and by `walletId` on either side, read by id,
 * never cancellable, invisible to other tenants, announced by webhooks like any transaction.
 */
describe("deposits over HTTPS: list, read, cancel refused, isolation, webhooks", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 0 });
  let receiver: TestReceiver;
  let server: TestServer;
  let daemon: Daemon;
  let source: FundedSource;
  let outboundId: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    const config = devnetConfig(devnet(), {
      webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true, trustedCertificates: receiver.certificate, sweepIntervalMs: 200 },
    });
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
    source = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    // A transfer from the wallet: the other side of `walletId`.
    const created = await source.api.createTransfer(nativeTransfer(source, 1n * Q));
    expect(created.status, created.text).toBe(201);
    outboundId = created.json().id;
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await receiver?.close();
  });

  const deposit = (
    tenant: Pick<TenantFixture, "tenantId">,
    walletId: string,
    input: Partial<Parameters<typeof insertDepositFixture>[1]> = {},
  ) => insertDepositFixture({ db: t.db }, { tenantId: tenant.tenantId, walletId, ...input });

  it("lists deposits with type=DEPOSIT&walletId=, and walletId matches either side (a transfer from the wallet, deposits to it)", async () => {
    const native = await deposit(source.tenant, source.wallet.id, { sourceAddress: SENDER, amount: 3n * Q });
    const token = await deposit(source.tenant, source.wallet.id, {
      status: "COMPLETED",
      token: { address: UNKNOWN_TOKEN, logIndex: 2 },
      amount: 750n,
    });
    const api = source.api;
    const wallet = source.wallet.id;

    const both = await api.get(`/v1/transactions?walletId=${wallet}`);
    expect(both.status, both.text).toBe(200);
    expect(ids(both.json())).toEqual([token.id, native.id, outboundId]);
    const deposits = await api.get(`/v1/transactions?type=DEPOSIT&walletId=${wallet}`);
    expect(ids(deposits.json())).toEqual([token.id, native.id]);
    expect(deposits.json().transactions).toEqual([token, native]);
    expect(ids((await api.get(`/v1/transactions?type=TRANSFER&walletId=${wallet}`)).json())).toEqual([outboundId]);
    // sourceWalletId is the sending side only.
    expect(ids((await api.get(`/v1/transactions?sourceWalletId=${wallet}`)).json())).toEqual([outboundId]);
    expect(ids((await api.get(`/v1/transactions?type=DEPOSIT&status=COMPLETED`)).json())).toEqual([token.id]);
    // Pages walk the same list.
    const first = (await api.get(`/v1/transactions?walletId=${wallet}&limit=2`)).json();
    expect(ids(first)).toEqual([token.id, native.id]);
    expect(first.page.hasMore).toBe(true);
    const second = (await api.get(`/v1/transactions?walletId=${wallet}&limit=2&cursor=${first.page.nextCursor}`)).json();
    expect(ids(second)).toEqual([outboundId]);

    const badType = await api.get(`/v1/transactions?type=INCOMING`);
    expectError(badType, 400, "VALIDATION_FAILED", 1001);
    expect(badType.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["type"]);
    const badWallet = await api.get(`/v1/transactions?walletId=not-a-wallet`);
    expectError(badWallet, 400, "VALIDATION_FAILED", 1001);
    expect(badWallet.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["walletId"]);
  });

  it("a deposit's record: INBOUND, no source wallet, the receiving wallet, the block and its confirmations, the sender's screening", async () => {
    const screening = { provider: "denylist", decision: "BLOCKED" as const, riskScore: null, reasons: ["sender on the denylist"] };
    const stored = await deposit(source.tenant, source.wallet.id, { sourceAddress: SENDER, blockNumber: 41, screening });
    const res = await source.api.get(`/v1/transactions/${stored.id}`);
    expect(res.status, res.text).toBe(200);
    const record = res.json();
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    expect(record).toEqual(stored);
    expect(record).toMatchObject({
      tenantId: source.tenant.tenantId,
      externalId: null,
      type: "DEPOSIT",
      direction: "INBOUND",
      networkCode: "QUANTUM_SANDBOX",
      chainId: 20804,
      sourceWalletId: null,
      sourceAddress: SENDER,
      destinationWalletId: source.wallet.id,
      destinationAddress: source.wallet.address,
      assetId: NATIVE.QUANTUM_SANDBOX,
      tokenAddress: null,
      logIndex: null,
      amount: Q.toString(),
      status: "CONFIRMING",
      subStatus: null,
      nonce: null,
      fee: null,
      signingHash: null,
      blockNumber: 41,
      confirmations: 1,
      requiredConfirmations: 2,
      // A match is recorded; the deposit is not refused.
      screening,
      policy: null,
      initiatedBy: null,
      approvals: null,
      completedAt: null,
    });
    expect(record.chainTxHash).toMatch(/^0x[0-9a-f]{64}$/);

    const token = await deposit(source.tenant, source.wallet.id, {
      status: "COMPLETED",
      token: { address: UNKNOWN_TOKEN, logIndex: 7 },
    });
    const tokenRecord = (await source.api.get(`/v1/transactions/${token.id}`)).json();
    expect(tokenRecord).toMatchObject({ assetId: null, tokenAddress: UNKNOWN_TOKEN, logIndex: 7, status: "COMPLETED", confirmations: 2 });
    expect(tokenRecord.completedAt).not.toBeNull();
    // The timeline: seen in a block, then completed at its confirmations.
    const timeline = (await source.api.get(`/v1/transactions/${token.id}/events`)).json().events as { from: string | null; to: string }[];
    expect(timeline.map((entry) => [entry.from, entry.to])).toEqual([
      [null, "CONFIRMING"],
      ["CONFIRMING", "COMPLETED"],
    ]);
  });

  it("a deposit is never cancelled (409 INVALID_TRANSACTION_STATE), approved, nor rejected or signed as a signer's; it stays as it was", async () => {
    for (const status of ["CONFIRMING", "COMPLETED"] as const) {
      const stored = await deposit(source.tenant, source.wallet.id, { status });
      const cancel = await source.api.post(`/v1/transactions/${stored.id}/cancel`, { reason: "not mine" });
      expectError(cancel, 409, "INVALID_TRANSACTION_STATE", 1203);
      expect(cancel.json()).toMatchObject({
        message: expect.stringMatching(/deposit cannot be cancelled/),
        details: { status, type: "DEPOSIT" },
      });
      expectError(
        await source.api.post(`/v1/signer/transactions/${stored.id}/reject`, { reason: "no" }),
        409,
        "INVALID_TRANSACTION_STATE",
        1203,
      );
      expectError(
        await source.api.post(`/v1/signer/transactions/${stored.id}/signature`, { signature: `0x${"00".repeat(4627)}` }),
        409,
        "INVALID_TRANSACTION_STATE",
        1203,
      );
      // Never approvable: no approval is required of it, and a decision on it is refused.
      expectError(
        await source.api.post(`/v1/transactions/${stored.id}/approvals`, { decision: "REJECTED", reason: "not ours" }),
        409,
        "INVALID_TRANSACTION_STATE",
        1203,
      );
      const approvals = await source.api.get(`/v1/transactions/${stored.id}/approvals`);
      expect(approvals.status, approvals.text).toBe(200);
      expect(approvals.json()).toMatchObject({ required: [], decisions: [], deadline: null });
      expect((await source.api.get(`/v1/transactions/${stored.id}`)).json()).toEqual(stored);
    }
  });

  it("another tenant's deposit is 404 and never listed, whatever the filters", async () => {
    const stored = await deposit(source.tenant, source.wallet.id);
    const other: TenantFixture = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const otherApi: TransfersClient = transfersClient(() => server, other.authorization);
    expectError(await otherApi.get(`/v1/transactions/${stored.id}`), 404, "NOT_FOUND", 1030);
    expectError(await otherApi.get(`/v1/transactions/${stored.id}/events`), 404, "NOT_FOUND", 1030);
    expectError(await otherApi.post(`/v1/transactions/${stored.id}/cancel`, {}), 404, "NOT_FOUND", 1030);
    for (const query of ["type=DEPOSIT", `walletId=${source.wallet.id}`, `type=DEPOSIT&walletId=${source.wallet.id}`, ""]) {
      const list = await otherApi.get(`/v1/transactions?${query}`);
      expect(list.status, list.text).toBe(200);
      expect(ids(list.json()), query).toEqual([]);
    }
    // The owner still sees it.
    expect(ids((await source.api.get(`/v1/transactions?type=DEPOSIT&walletId=${source.wallet.id}`)).json())).toContain(stored.id);
  });

  it(
    "announces a deposit like any transaction: transaction.created in CONFIRMING, transaction.status_changed to COMPLETED, signed",
    { timeout: 60_000 },
    async () => {
      const subscribed = await source.api.post("/v1/webhooks", {
        url: receiver.url("/deposits"),
        events: ["transaction.created", "transaction.status_changed"],
      });
      expect(subscribed.status, subscribed.text).toBe(201);
      const secret = subscribed.json().secret as string;

      const stored = await deposit(source.tenant, source.wallet.id, { status: "COMPLETED", sourceAddress: SENDER });
      const got = await eventually(async () => {
        const mine = receiver.received.filter(
          (r) => r.path === "/deposits" && (r.json.data.transaction as { id: string }).id === stored.id,
        );
        return new Set(mine.map((r) => r.json.id)).size === 2 ? mine : undefined;
      }, 30_000);
      const unique = [...new Map(got.map((r) => [r.json.id, r])).values()].sort((x, y) => x.json.sequence - y.json.sequence);
      expect(unique.map((r) => [r.json.type, r.json.sequence])).toEqual([
        ["transaction.created", 1],
        ["transaction.status_changed", 2],
      ]);
      expect(unique[0]!.json.data.transaction).toMatchObject({
        id: stored.id,
        type: "DEPOSIT",
        direction: "INBOUND",
        status: "CONFIRMING",
        sourceWalletId: null,
        sourceAddress: SENDER,
        destinationWalletId: source.wallet.id,
      });
      expect(unique[1]!.json.data).toEqual({ transaction: stored, previousStatus: "CONFIRMING" });
      for (const request of got) expect(verifyWebhook(secret, request.headers, request.body).id).toBe(request.json.id);
    },
  );

  it(
    "a real deposit over the devnet: the daemon's follower records native value and a token Transfer to a watch-only wallet, " +
      "completes them at 2 confirmations, screens the sender, and announces them",
    { timeout: 120_000 },
    async () => {
      const subscribed = await source.api.post("/v1/webhooks", {
        url: receiver.url("/real-deposits"),
        events: ["transaction.created", "transaction.status_changed"],
      });
      expect(subscribed.status, subscribed.text).toBe(201);
      const secret = subscribed.json().secret as string;
      const address = newSignerKey().address.toLowerCase() as Address;
      const watched = await source.api.post(`/v1/vault/accounts/${source.vault.id}/wallets/watch-only`, { address, label: "customer 42" });
      expect(watched.status, watched.text).toBe(201);
      const walletId = watched.json().id as string;

      // Outside keys: one sends Q, the other an ERC-20 the tenant has no asset for; both in one block.
      const sender = await createFundedAccount(devnet(), 10n * Q);
      const tokenOwner = await createFundedAccount(devnet(), 10n * Q);
      const token = await deployTestToken(devnet(), tokenOwner);
      const nativeHash = await sendNative(devnet(), sender, address, 3n * Q);
      const tokenHash = await sendToken(devnet(), tokenOwner, token, address, 1_250_000n);
      await devnet().mine(1);
      const block = (await devnet().publicClient().getTransactionReceipt({ hash: nativeHash })).blockNumber;

      const listed = await eventually(async () => {
        const body = (await source.api.get(`/v1/transactions?type=DEPOSIT&walletId=${walletId}`)).json();
        return body.transactions.length === 2 ? (body.transactions as Record<string, unknown>[]) : undefined;
      }, 30_000);
      const byHash = new Map(listed.map((record) => [record.chainTxHash, record]));
      expect(byHash.get(nativeHash)).toMatchObject({
        type: "DEPOSIT",
        direction: "INBOUND",
        sourceWalletId: null,
        sourceAddress: sender.address.toLowerCase(),
        destinationWalletId: walletId,
        destinationAddress: address,
        assetId: NATIVE.QUANTUM_SANDBOX,
        tokenAddress: null,
        logIndex: null,
        amount: (3n * Q).toString(),
        blockNumber: Number(block),
        requiredConfirmations: 2,
      });
      expect(byHash.get(tokenHash)).toMatchObject({
        sourceAddress: tokenOwner.address.toLowerCase(),
        destinationWalletId: walletId,
        assetId: null,
        tokenAddress: token,
        logIndex: expect.any(Number),
        amount: "1250000",
        blockNumber: Number(block),
      });

      // One more block: both COMPLETED at their confirmations; the senders screened (and clear).
      const completed = await eventually(
        async () => {
          await devnet().mine(1);
          const body = (await source.api.get(`/v1/transactions?type=DEPOSIT&walletId=${walletId}&status=COMPLETED`)).json();
          const records = body.transactions as { screening: unknown; completedAt: string | null }[];
          return records.length === 2 && records.every((record) => record.screening !== null) ? records : undefined;
        },
        60_000,
        250,
      );
      for (const record of completed) {
        expect(record).toMatchObject({ status: "COMPLETED", confirmations: 2, screening: { provider: "denylist", decision: "CLEAR" } });
        expect(record.completedAt).not.toBeNull();
      }
      // The wallet's list is both kinds of the wallet; another tenant sees neither.
      expect(ids((await source.api.get(`/v1/transactions?walletId=${walletId}`)).json()).sort()).toEqual(
        listed.map((record) => record.id as string).sort(),
      );

      const ours = new Set(listed.map((record) => record.id));
      const got = await eventually(async () => {
        const mine = receiver.received.filter(
          (r) => r.path === "/real-deposits" && ours.has((r.json.data.transaction as { id: string }).id),
        );
        return new Set(mine.map((r) => r.json.id)).size === 4 ? mine : undefined;
      }, 30_000);
      for (const id of ours) {
        const events = [
          ...new Map(got.filter((r) => (r.json.data.transaction as { id: string }).id === id).map((r) => [r.json.id, r])).values(),
        ];
        expect(
          events
            .sort((x, y) => x.json.sequence - y.json.sequence)
            .map((r) => [r.json.type, (r.json.data.transaction as { status: string }).status]),
        ).toEqual([
          ["transaction.created", "CONFIRMING"],
          ["transaction.status_changed", "COMPLETED"],
        ]);
      }
      for (const request of got) expect(verifyWebhook(secret, request.headers, request.body).id).toBe(request.json.id);
    },
  );
});
