import { quantumSandbox } from "@qc/chain";
import { defaultTransferConfig, rebuildUnsignedTransaction } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import { and, asc, eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { createWalletClient, http, checksumAddress } from "viem";
import { waitForTransactionReceipt } from "viem/actions";
import { toQuantumAccount } from "@qc/chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createVault, expectError, NATIVE, newSignerKey, Q } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { trpcMutation } from "./identity-helpers";
import {
  devnetConfig,
  fundedSource,
  idempotencyKey,
  nativeTransfer,
  RECORD_KEYS,
  startTransfersDaemon,
  transfersClient,
  waitForStatus,
  type FundedSource,
} from "./transfers-front-helpers";

describe("POST /v1/transactions: create, release for signing, read and cancel (real HTTPS, daemon, devnet)", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 0 });
  let server: TestServer;
  let daemon: Daemon;
  let source: FundedSource;

  beforeAll(async () => {
    // A window of one (NONCE_WINDOW=1): a source's later transfers wait QUEUED, as the queue tests here need
    // (transfers-e2e.test.ts and nonce-window.test.ts show the window).
    const config = devnetConfig(devnet(), { transfers: { ...defaultTransferConfig(), nonceWindow: 1 } });
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
    source = await fundedSource(() => server, t.db, devnet(), 100n * Q);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  const asset = { kind: "NATIVE" as const, contractAddress: null };

  it(
    "accepts a transfer (201 SUBMITTED) and releases it for signing: nonce, fees, signing hash rebuilt from the " +
      "intent, events in order",
    async () => {
      const destination = newSignerKey().address;
      const res = await source.api.createTransfer(
        nativeTransfer(source, 3n * Q, { destinationAddress: checksumAddress(destination), externalId: "payout-1", note: "first payout" }),
      );
      expect(res.status, res.text).toBe(201);
      const created = res.json();
      expect(Object.keys(created).sort()).toEqual(RECORD_KEYS);
      expect(created).toMatchObject({
        tenantId: source.tenant.tenantId,
        externalId: "payout-1",
        type: "TRANSFER",
        networkCode: "QUANTUM_SANDBOX",
        chainId: 20804,
        sourceWalletId: source.wallet.id,
        sourceAddress: source.wallet.address,
        destinationAddress: destination,
        assetId: NATIVE.QUANTUM_SANDBOX,
        amount: (3n * Q).toString(),
        status: "SUBMITTED",
        subStatus: null,
        nonce: null,
        fee: null,
        signingHash: null,
        requiredConfirmations: 2,
        note: "first payout",
        screening: null,
        policy: null,
      });
      expect(res.headers["idempotent-replayed"]).toBeUndefined();

      const released = await waitForStatus(source.api, created.id, ["PENDING_SIGNATURE", "BLOCKED", "FAILED"]);
      expect(released).toMatchObject({
        status: "PENDING_SIGNATURE",
        nonce: 0,
        policy: { decision: "ALLOW", ruleId: null },
        screening: { provider: "denylist", decision: "CLEAR", riskScore: null, reasons: [] },
      });
      const row = (await findTransaction(t.db, source.tenant.tenantId, created.id))!;
      const rebuilt = rebuildUnsignedTransaction(row, asset);
      expect(released.signingHash).toBe(rebuilt.signingHash);
      expect(row.unsignedTransaction).toBe(rebuilt.unsignedTransaction);
      // The fee caps are the chain's, the gas its estimate with the configured margin (21,000 × 1.2).
      expect(released.fee).toEqual({ gasLimit: "25200", maxFeePerGas: row.maxFeePerGas, maxPriorityFeePerGas: row.maxPriorityFeePerGas });
      expect(BigInt(released.fee.maxFeePerGas)).toBeGreaterThan(0n);
      expect(BigInt(released.fee.maxPriorityFeePerGas)).toBeLessThanOrEqual(BigInt(released.fee.maxFeePerGas));
      expect(row.signingDeadline!.getTime() - row.updatedAt.getTime()).toBeGreaterThan(2 * 3600_000 - 60_000);
      // What the signer would sign is what the chain accepts: same chain id, to, value.
      expect(rebuilt.unsigned).toMatchObject({ chainId: quantumSandbox.id, nonce: 0, to: destination, value: 3n * Q });

      const events = await t.db
        .select()
        .from(schema.eventOutbox)
        .where(eq(schema.eventOutbox.aggregateId, created.id))
        .orderBy(asc(schema.eventOutbox.sequence));
      expect(events.map((e) => [e.type, e.sequence])).toEqual([
        ["transaction.created", 1],
        ["transaction.status_changed", 2],
      ]);
      expect(events[0]!.data).toEqual({ transaction: created });
      expect(events[1]!.data).toMatchObject({
        previousStatus: "SUBMITTED",
        transaction: { id: created.id, status: "PENDING_SIGNATURE", nonce: 0 },
      });

      const timeline = await source.api.get(`/v1/transactions/${created.id}/events`);
      expect(timeline.status).toBe(200);
      expect(
        timeline
          .json()
          .events.map((e: { from: string | null; to: string; actor: { type: string; id: string | null } }) => [
            e.from,
            e.to,
            e.actor.type,
            e.actor.id,
          ]),
      ).toEqual([
        [null, "SUBMITTED", "api_key", source.tenant.keyId],
        ["SUBMITTED", "PENDING_SIGNATURE", "system", "transfers.check"],
      ]);
      const audit = await t.db
        .select()
        .from(schema.auditEvents)
        .where(eq(schema.auditEvents.targetId, created.id))
        .orderBy(asc(schema.auditEvents.id));
      expect(audit.map((a) => a.action)).toEqual(["transaction.created", "transaction.pending_signature"]);

      // Cancelled while waiting for its signature: the nonce is free again.
      const cancel = await source.api.post(`/v1/transactions/${created.id}/cancel`, { reason: "wrong amount" });
      expect(cancel.status, cancel.text).toBe(200);
      expect(cancel.json()).toMatchObject({ status: "CANCELLED", subStatus: "CANCELLED_BY_USER", statusReason: "wrong amount" });
      expectError(await source.api.post(`/v1/transactions/${created.id}/cancel`), 409, "INVALID_TRANSACTION_STATE", 1203);
    },
  );

  it("holds a second transfer of the same source in QUEUED and releases it, with the same nonce, when the first is cancelled", async () => {
    const a = await fundedSource(() => server, t.db, devnet(), 50n * Q, { tenant: source.tenant });
    const first = (await a.api.createTransfer(nativeTransfer(a, Q))).json();
    const releasedFirst = await waitForStatus(a.api, first.id, ["PENDING_SIGNATURE"]);
    const second = (await a.api.createTransfer(nativeTransfer(a, 2n * Q))).json();
    const queued = await waitForStatus(a.api, second.id, ["QUEUED", "PENDING_SIGNATURE"]);
    expect(queued).toMatchObject({
      status: "QUEUED",
      nonce: null,
      signingHash: null,
      policy: { decision: "ALLOW" },
      screening: { decision: "CLEAR" },
    });
    expect(queued.statusReason).toMatch(/waiting/);
    // Still queued a moment later: nothing releases it while the first holds the nonce.
    await new Promise((r) => setTimeout(r, 500));
    expect((await a.api.get(`/v1/transactions/${second.id}`)).json().status).toBe("QUEUED");

    expect((await a.api.post(`/v1/transactions/${first.id}/cancel`)).status).toBe(200);
    const releasedSecond = await waitForStatus(a.api, second.id, ["PENDING_SIGNATURE"]);
    expect(releasedSecond.nonce).toBe(releasedFirst.nonce);
    const row = (await findTransaction(t.db, a.tenant.tenantId, second.id))!;
    expect(releasedSecond.signingHash).toBe(rebuildUnsignedTransaction(row, asset).signingHash);
    const timeline = (await a.api.get(`/v1/transactions/${second.id}/events`)).json().events;
    expect(timeline.map((e: { to: string }) => e.to)).toEqual(["SUBMITTED", "QUEUED", "PENDING_SIGNATURE"]);
    expect(timeline[2].actor).toEqual({ type: "system", id: "transfers.release-next" });
    const events = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(eq(schema.eventOutbox.aggregateId, second.id))
      .orderBy(asc(schema.eventOutbox.sequence));
    expect(events.map((e) => [e.type, e.sequence, (e.data as { previousStatus?: string }).previousStatus ?? null])).toEqual([
      ["transaction.created", 1, null],
      ["transaction.status_changed", 2, "SUBMITTED"],
      ["transaction.status_changed", 3, "QUEUED"],
    ]);

    // A queued transfer can be cancelled too.
    const third = (await a.api.createTransfer(nativeTransfer(a, Q))).json();
    await waitForStatus(a.api, third.id, ["QUEUED"]);
    expect((await a.api.post(`/v1/transactions/${third.id}/cancel`)).json()).toMatchObject({ status: "CANCELLED" });
  });

  it("takes the nonce from the chain when the source already sent transactions itself", async () => {
    const b = await fundedSource(() => server, t.db, devnet(), 50n * Q, { tenant: source.tenant });
    // Two transactions sent outside the service with the wallet's own key, mined.
    const wallet = createWalletClient({
      account: toQuantumAccount({ secretKey: b.key.secretKey }),
      chain: quantumSandbox,
      transport: http(devnet().url),
    });
    for (let i = 0; i < 2; i++) {
      const hash = await wallet.sendTransaction({ to: newSignerKey().address, value: 1n });
      await devnet().mine(1);
      await waitForTransactionReceipt(devnet().publicClient(), { hash, pollingInterval: 50 });
    }
    const created = (await b.api.createTransfer(nativeTransfer(b, Q))).json();
    expect((await waitForStatus(b.api, created.id, ["PENDING_SIGNATURE"])).nonce).toBe(2);
  });

  it("refuses invalid bodies with the contract's errors, storing nothing", async () => {
    const api = source.api;
    const valid = nativeTransfer(source, Q);
    const before = (await t.db.select().from(schema.transactions).where(eq(schema.transactions.tenantId, source.tenant.tenantId))).length;

    const numberAmount = await api.createTransfer(JSON.stringify({ ...valid, amount: 1000 }));
    expectError(numberAmount, 400, "VALIDATION_FAILED", 1001);
    expect(numberAmount.json().details.fields.map((f: { path: string }) => f.path)).toContain("amount");
    for (const amount of ["0", "-1", "1.5", "1e18", "01", " 1", ""]) {
      expectError(await api.createTransfer({ ...valid, amount }), 400, "VALIDATION_FAILED", 1001);
    }
    expectError(await api.createTransfer({ ...valid, amount: (1n << 256n).toString() }), 400, "VALIDATION_FAILED", 1001);
    for (const field of ["networkCode", "sourceWalletId", "destinationAddress", "assetId", "amount"]) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      expectError(await api.createTransfer(body), 400, "VALIDATION_FAILED", 1001);
    }
    expectError(await api.createTransfer({ ...valid, networkCode: "QUANTUM_TESTNET" }), 400, "VALIDATION_FAILED", 1001);

    const address = newSignerKey().address;
    const badChecksum = checksumAddress(address).replace(/[a-f]/, (c) => c.toUpperCase());
    for (const destinationAddress of [
      "0x1234",
      `${address}00`,
      "zz".repeat(20),
      badChecksum === checksumAddress(address) ? "0xZZ" : badChecksum,
      `0X${address.slice(2)}`,
    ]) {
      expectError(await api.createTransfer({ ...valid, destinationAddress }), 400, "INVALID_ADDRESS", 1204);
    }
    expectError(await api.createTransfer({ ...valid, assetId: "0194f2c4-0000-7000-8000-00000000000a" }), 400, "UNKNOWN_ASSET", 1107);
    expectError(await api.createTransfer({ ...valid, assetId: NATIVE.QUANTUM_MAINNET }), 400, "UNKNOWN_ASSET", 1107);
    expectError(
      await api.createTransfer({ ...valid, networkCode: "QUANTUM_MAINNET", assetId: NATIVE.QUANTUM_MAINNET }),
      400,
      "NETWORK_MISMATCH",
      1106,
    );
    expectError(await api.createTransfer({ ...valid, sourceWalletId: "0194f2c4-0000-7000-8000-00000000000b" }), 404, "NOT_FOUND", 1030);
    expectError(await api.createTransfer(valid, null), 400, "IDEMPOTENCY_KEY_REQUIRED", 1003);

    const after = (await t.db.select().from(schema.transactions).where(eq(schema.transactions.tenantId, source.tenant.tenantId))).length;
    expect(after).toBe(before);
  });

  it("refuses watch-only and archived sources, other tenants' wallets, unverified tenants and read-only keys", async () => {
    const watch = await source.api.post(`/v1/vault/accounts/${source.vault.id}/wallets/watch-only`, { address: newSignerKey().address });
    expect(watch.status).toBe(201);
    expectError(await source.api.createTransfer(nativeTransfer({ wallet: watch.json() }, Q)), 400, "WATCH_ONLY_SOURCE", 1201);

    const archived = await fundedSource(() => server, t.db, devnet(), 0n, { tenant: source.tenant });
    expect((await source.api.post(`/v1/wallets/${archived.wallet.id}/archive`)).status).toBe(200);
    expectError(await source.api.createTransfer(nativeTransfer(archived, Q)), 409, "WALLET_ARCHIVED", 1102);

    const other = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    expectError(await transfersClient(() => server, other.authorization).createTransfer(nativeTransfer(source, Q)), 404, "NOT_FOUND", 1030);

    const pending: TenantFixture = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER }, { status: "PENDING_VERIFICATION" });
    const pendingApi = transfersClient(() => server, pending.authorization);
    const vault = await createVault(pendingApi);
    expect(vault.id).toBeDefined();
    expectError(await pendingApi.createTransfer(nativeTransfer(source, Q)), 403, "TENANT_NOT_VERIFIED", 1022);

    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, source.tenant, ["read"]);
    expectError(
      await transfersClient(() => server, reader.authorization).createTransfer(nativeTransfer(source, Q)),
      403,
      "INSUFFICIENT_SCOPE",
      1020,
    );
    expect((await client(() => server, reader.authorization).get("/v1/transactions")).status).toBe(200);
  });

  it("refuses a second use of an externalId (409 DUPLICATE_EXTERNAL_ID), per tenant", async () => {
    const c = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const first = await c.api.createTransfer(nativeTransfer(c, 1n, { externalId: "order-42" }));
    expect(first.status).toBe(201);
    const dup = await c.api.createTransfer(nativeTransfer(c, 2n, { externalId: "order-42" }));
    expectError(dup, 409, "DUPLICATE_EXTERNAL_ID", 1043);
    expect(dup.json().details).toEqual({ externalId: "order-42" });
    const rows = await t.db
      .select()
      .from(schema.transactions)
      .where(and(eq(schema.transactions.tenantId, c.tenant.tenantId), eq(schema.transactions.externalId, "order-42")));
    expect(rows).toHaveLength(1);
    // Another tenant may use the same reference.
    expect((await source.api.createTransfer(nativeTransfer(source, 1n, { externalId: "order-42" }))).status).toBe(201);
  });

  it("reads, lists (filters, pagination, newest first) and hides other tenants' transactions", async () => {
    const d = await fundedSource(() => server, t.db, devnet(), 20n * Q);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await d.api.createTransfer(nativeTransfer(d, BigInt(i + 1), { externalId: `list-${i}` }))).json().id);
    await waitForStatus(d.api, ids[0]!, ["PENDING_SIGNATURE"]);
    for (const id of ids.slice(1)) await waitForStatus(d.api, id, ["QUEUED", "PENDING_SIGNATURE"]);

    const all = (await d.api.get("/v1/transactions")).json();
    expect(all.transactions.map((x: { id: string }) => x.id)).toEqual([...ids].reverse());
    expect(all.page).toEqual({ nextCursor: null, hasMore: false });
    const page1 = (await d.api.get("/v1/transactions?limit=2")).json();
    expect(page1.transactions.map((x: { id: string }) => x.id)).toEqual([ids[4], ids[3]]);
    expect(page1.page.hasMore).toBe(true);
    const page2 = (await d.api.get(`/v1/transactions?limit=2&cursor=${page1.page.nextCursor}`)).json();
    expect(page2.transactions.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    const page3 = (await d.api.get(`/v1/transactions?limit=2&cursor=${page2.page.nextCursor}`)).json();
    expect(page3).toEqual({ transactions: [expect.objectContaining({ id: ids[0] })], page: { nextCursor: null, hasMore: false } });

    expect((await d.api.get("/v1/transactions?status=PENDING_SIGNATURE")).json().transactions.map((x: { id: string }) => x.id)).toEqual([
      ids[0],
    ]);
    expect((await d.api.get("/v1/transactions?status=QUEUED")).json().transactions).toHaveLength(4);
    expect((await d.api.get(`/v1/transactions?externalId=list-3`)).json().transactions.map((x: { id: string }) => x.id)).toEqual([ids[3]]);
    expect((await d.api.get(`/v1/transactions?sourceWalletId=${d.wallet.id}&limit=200`)).json().transactions).toHaveLength(5);
    expect((await d.api.get(`/v1/transactions?sourceWalletId=${source.wallet.id}`)).json().transactions).toEqual([]);
    expectError(await d.api.get("/v1/transactions?status=LOST"), 400, "VALIDATION_FAILED", 1001);
    expectError(await d.api.get("/v1/transactions?limit=201"), 400, "VALIDATION_FAILED", 1001);
    expectError(await d.api.get("/v1/transactions?cursor=nonsense"), 400, "VALIDATION_FAILED", 1001);

    const other = client(() => server, source.tenant.authorization);
    expectError(await other.get(`/v1/transactions/${ids[0]}`), 404, "NOT_FOUND", 1030);
    expectError(await other.get(`/v1/transactions/${ids[0]}/events`), 404, "NOT_FOUND", 1030);
    expectError(await other.post(`/v1/transactions/${ids[0]}/cancel`), 404, "NOT_FOUND", 1030);
    expect((await other.get("/v1/transactions?externalId=list-0")).json().transactions).toEqual([]);
    expectError(await d.api.get("/v1/transactions/not-a-uuid"), 400, "VALIDATION_FAILED", 1001);

    // tRPC equivalents: same procedures, same answers.
    const viaTrpc = await call(
      server,
      `/api/trpc/transactions.get?input=${encodeURIComponent(JSON.stringify({ json: { transactionId: ids[0] } }))}`,
      {
        headers: { authorization: d.tenant.authorization },
      },
    );
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.json().result.data.json).toEqual((await d.api.get(`/v1/transactions/${ids[0]}`)).json());
    const cancelled = await trpcMutation(
      server,
      "transactions.cancel",
      { transactionId: ids[4] },
      { authorization: d.tenant.authorization },
    );
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json().result.data.json).toMatchObject({ id: ids[4], status: "CANCELLED" });
    const createdViaTrpc = await trpcMutation(server, "transactions.create", nativeTransfer(d, 7n), {
      authorization: d.tenant.authorization,
      "x-idempotency-key": idempotencyKey("trpc"),
    });
    expect(createdViaTrpc.status, createdViaTrpc.text).toBe(200);
    expect(createdViaTrpc.json().result.data.json).toMatchObject({ status: "SUBMITTED", amount: "7" });
    const withoutKey = await trpcMutation(server, "transactions.create", nativeTransfer(d, 7n), { authorization: d.tenant.authorization });
    expect(withoutKey.json().error.json).toMatchObject({ error: "IDEMPOTENCY_KEY_REQUIRED", code: 1003 });
  });
});
