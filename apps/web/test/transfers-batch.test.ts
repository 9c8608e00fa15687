import { randomUUID } from "node:crypto";
import { createTenantFixture } from "@qc/core/testing";
import { ENDED_WITHOUT_TRANSFER } from "@qc/domain";
import { and, eq, isNotNull, schema, sql } from "@qc/db";
import { beforeAll, describe, expect, it } from "vitest";
import { useApprovalStack } from "./approvals-helpers";
import { expectError, newSignerKey, Q } from "./custody-helpers";
import { TEST_PEPPER } from "./harness";
import { eventually } from "./identity-helpers";
import { minedFrom, signPending, waitForRecord, type TransactionJson } from "./transfers-back-helpers";
import { fundedSource, idempotencyKey, nativeTransfer, RECORD_KEYS, transfersClient, type FundedSource } from "./transfers-front-helpers";

type ItemOutcome = { index: number; transaction?: TransactionJson; error?: Record<string, unknown> };

/** An error body without its requestId: what a batch item and the single create must share. */
const withoutRequestId = ({ requestId: _requestId, ...rest }: Record<string, unknown>) => rest;

describe("POST /v1/transactions/batch: many transfers under one idempotency key (real HTTPS, daemon, devnet)", () => {
  // Web server, daemon and devnet (blocks every 200 ms: a transfer completes at its confirmations).
  const { t, devnet, server } = useApprovalStack();
  let unfunded: FundedSource;

  beforeAll(async () => {
    // Accepting a transfer reads no chain: the batch of 100 needs no funds (its checks then fail it).
    unfunded = await fundedSource(server, t.db, devnet(), 0n);
  });

  const tenantRows = (tenantId: string) => t.db.select().from(schema.transactions).where(eq(schema.transactions.tenantId, tenantId));

  it("creates 100 items in index order with the batch's id, refusing each invalid one with the single create's error", async () => {
    const destination = newSignerKey().address;
    const items: unknown[] = Array.from({ length: 100 }, (_, i) =>
      nativeTransfer(unfunded, BigInt(i + 1), { destinationAddress: destination, externalId: `batch-item-${i}` }),
    );
    const invalid: Record<number, { status: number; error: string }> = {
      7: { status: 400, error: "VALIDATION_FAILED" },
      23: { status: 400, error: "UNKNOWN_ASSET" },
      42: { status: 400, error: "INVALID_ADDRESS" },
      61: { status: 404, error: "NOT_FOUND" },
      88: { status: 409, error: "DUPLICATE_EXTERNAL_ID" },
      95: { status: 400, error: "VALIDATION_FAILED" },
    };
    items[7] = { ...(items[7] as object), amount: 5 };
    items[23] = { ...(items[23] as object), assetId: randomUUID() };
    items[42] = { ...(items[42] as object), destinationAddress: "0x1234" };
    items[61] = { ...(items[61] as object), sourceWalletId: randomUUID() };
    items[88] = { ...(items[88] as object), externalId: "batch-item-10" };
    const { networkCode: _networkCode, ...withoutNetwork } = items[95] as Record<string, unknown>;
    items[95] = withoutNetwork;

    const key = idempotencyKey("batch-100");
    const res = await unfunded.api.createBatch(items, key);
    expect(res.status, res.text).toBe(201);
    expect(res.headers["idempotent-replayed"]).toBeUndefined();
    const answer = res.json() as { batchId: string; items: ItemOutcome[] };
    expect(answer.batchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.items.map((item) => item.index)).toEqual(items.map((_, i) => i));

    const created = answer.items.filter((item) => item.transaction).map((item) => item.transaction!);
    expect(created).toHaveLength(94);
    // The items' usage counts against the source's limits, the refused ones' not: in one snapshot,
    // the wallet's buckets hold exactly its transfers not yet ended without moving value (the
    // checks fail these unfunded items meanwhile, each giving its usage back as it ends).
    const ended = sql.join(
      ENDED_WITHOUT_TRANSFER.map((status) => sql`${status}`),
      sql`, `,
    );
    const usage = await t.db.execute<{ buckets: string; live: string }>(sql`
      select (select coalesce(sum(count), 0) || '/' || coalesce(sum(amount), 0) from usage_buckets
                where scope = 'WALLET' and scope_id = ${unfunded.wallet.id}) as buckets,
             (select count(*) || '/' || coalesce(sum(amount), 0) from transactions
                where source_wallet_id = ${unfunded.wallet.id} and status not in (${ended})) as live`);
    // count/amount of each: equal, whatever the checks have ended by then.
    expect(usage.rows[0]!.buckets).toBe(usage.rows[0]!.live);
    for (const item of answer.items) {
      if (invalid[item.index]) {
        expect(item.transaction).toBeUndefined();
        expect(item.error).toMatchObject({ error: invalid[item.index]!.error, requestId: res.headers["x-request-id"] });
        // Exactly what POST /v1/transactions answers for that body (the externalId of 88 is taken by item 10 now).
        const single = await unfunded.api.createTransfer(items[item.index]);
        expect(single.status).toBe(invalid[item.index]!.status);
        expect(withoutRequestId(item.error!)).toEqual(withoutRequestId(single.json()));
      } else {
        expect(item.error).toBeUndefined();
        expect(Object.keys(item.transaction!).sort()).toEqual(RECORD_KEYS);
        expect(item.transaction).toMatchObject({
          batchId: answer.batchId,
          status: "SUBMITTED",
          externalId: `batch-item-${item.index}`,
          amount: String(item.index + 1),
          sourceWalletId: unfunded.wallet.id,
        });
      }
    }
    // Created in index order: ids (and so release and nonce order per source) follow the index.
    const ids = created.map((tx) => tx.id);
    expect([...ids].sort()).toEqual(ids);

    // No half-written rows: exactly the 94 transfers, each with its created event; nothing for the refused items.
    const rows = await tenantRows(unfunded.tenant.tenantId);
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(rows.every((row) => row.batchId === answer.batchId)).toBe(true);
    const createdEvents = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.tenantId, unfunded.tenant.tenantId), eq(schema.eventOutbox.type, "transaction.created")));
    expect(createdEvents.map((e) => e.aggregateId).sort()).toEqual([...ids].sort());

    // Listed by batch (newest first, as every list), each item checked on its own like any transfer.
    const listed = await unfunded.api.get(`/v1/transactions?batchId=${answer.batchId}&limit=200`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json().transactions.map((tx: TransactionJson) => tx.id)).toEqual([...ids].reverse());
    const firstPage = (await unfunded.api.get(`/v1/transactions?batchId=${answer.batchId}&limit=50`)).json();
    expect(firstPage.transactions).toHaveLength(50);
    expect(firstPage.page.hasMore).toBe(true);
    expect((await unfunded.api.get(`/v1/transactions?batchId=${randomUUID()}`)).json().transactions).toEqual([]);

    // Another tenant sees nothing of the batch.
    const other = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const otherApi = transfersClient(server, other.authorization);
    const foreign = await otherApi.get(`/v1/transactions?batchId=${answer.batchId}`);
    expect(foreign.status).toBe(200);
    expect(foreign.json().transactions).toEqual([]);

    // A replay with the same key and body answers the same and creates nothing.
    const replay = await unfunded.api.createBatch(items, key);
    expect(replay.status, replay.text).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(answer);
    expect(await tenantRows(unfunded.tenant.tenantId)).toHaveLength(94);

    // The same key with another body: 422 IDEMPOTENCY_KEY_MISMATCH, nothing created.
    const mismatch = await unfunded.api.createBatch(items.slice(0, 99), key);
    expectError(mismatch, 422, "IDEMPOTENCY_KEY_MISMATCH", 1042);
    expect(await tenantRows(unfunded.tenant.tenantId)).toHaveLength(94);

    // Each item is checked on its own afterwards, as any transfer: unfunded, each one fails alone.
    const checked = await waitForRecord(unfunded.api, ids[0]!, ["FAILED", "BLOCKED"]);
    expect(checked.batchId).toBe(answer.batchId);
  }, 120_000);

  it("refuses 0 and 101 items, and a batch without an idempotency key, storing nothing", async () => {
    const key = idempotencyKey("batch-bounds");
    const empty = await unfunded.api.createBatch([], key);
    expectError(empty, 400, "VALIDATION_FAILED", 1001);
    expect(empty.json().details.fields).toEqual([expect.objectContaining({ path: "items" })]);
    const tooMany = await unfunded.api.createBatch(
      Array.from({ length: 101 }, () => nativeTransfer(unfunded, 1n)),
      key,
    );
    expectError(tooMany, 400, "VALIDATION_FAILED", 1001);
    expectError(await unfunded.api.createBatch([nativeTransfer(unfunded, 1n)], null), 400, "IDEMPOTENCY_KEY_REQUIRED", 1003);
    const notAList = await unfunded.api.post("/v1/transactions/batch", { items: "all of them" });
    expect(notAList.status).toBe(400);
    // Refused before it ran: the key is still free for the corrected request.
    const fixed = await unfunded.api.createBatch([nativeTransfer(unfunded, 1n)], key);
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.json().items).toEqual([{ index: 0, transaction: expect.objectContaining({ batchId: fixed.json().batchId }) }]);
  });

  it("two concurrent batches from one wallet: distinct nonces in creation order, every item signed and COMPLETED", async () => {
    const source = await fundedSource(server, t.db, devnet(), 100n * Q);
    const firstNonce = await minedFrom(devnet(), source.wallet.address);
    const destination = newSignerKey().address;
    const batch = (tag: string) =>
      Array.from({ length: 5 }, (_, i) =>
        nativeTransfer(source, BigInt(i + 1) * Q, { destinationAddress: destination, note: `${tag}-${i}` }),
      );
    const [a, b] = await Promise.all([source.api.createBatch(batch("a")), source.api.createBatch(batch("b"))]);
    expect(a.status, a.text).toBe(201);
    expect(b.status, b.text).toBe(201);
    const created = [...a.json().items, ...b.json().items].map((item: ItemOutcome) => item.transaction!);
    expect(created.every(Boolean)).toBe(true);
    const byCreation = [...created].sort((x, y) => (x.id < y.id ? -1 : 1));

    // All ten released (the window is 16), nonces distinct and in creation order.
    const released = await eventually(async () => {
      const pending = (await source.api.get("/v1/signer/transactions?limit=200")).json().transactions as TransactionJson[];
      const ours = byCreation.map((tx) => pending.find((p) => p.id === tx.id));
      return ours.every(Boolean) ? (ours as TransactionJson[]) : undefined;
    }, 60_000);
    expect(released.map((tx) => tx.nonce)).toEqual(byCreation.map((_, i) => firstNonce + i));
    for (const tx of released) await signPending(source.api, tx.id, source.key.secretKey);

    const final = await Promise.all(released.map((tx) => waitForRecord(source.api, tx.id, ["COMPLETED", "FAILED"])));
    expect(final.map((tx) => tx.status)).toEqual(released.map(() => "COMPLETED"));
    const onChain = await Promise.all(
      final.map(async (tx) => (await devnet().publicClient().getTransaction({ hash: tx.chainTxHash })).nonce),
    );
    expect(onChain).toEqual(final.map((tx) => tx.nonce));

    const rows = await t.db
      .select({ batchId: schema.transactions.batchId })
      .from(schema.transactions)
      .where(and(eq(schema.transactions.sourceWalletId, source.wallet.id), isNotNull(schema.transactions.batchId)));
    expect(new Set(rows.map((row) => row.batchId))).toEqual(new Set([a.json().batchId, b.json().batchId]));
  }, 120_000);
});
