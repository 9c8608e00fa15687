import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAuditEvents } from "../queries/audit";
import { updateTransactionWhereStatus } from "../queries/transactions";
import { auditEvents, tenants } from "../schema";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import { useTestDatabase } from "../testing";
import { insertStatusHistory, insertTenantWithWallet, insertTransaction } from "../testing/rows";
import { moveTransactionWithTrail } from "./transaction-move";

// The status change's one statement against the plain statements it replaces (the conditional
// UPDATE, then the history and audit inserts): the row it returns and every row it stores are
// what the plain path stores, column by column; a move from another status writes nothing.
describe("moveTransactionWithTrail", () => {
  const t = useTestDatabase();
  let tenantId: string;
  let transfer: Awaited<ReturnType<typeof insertTenantWithWallet>>["transfer"];

  beforeAll(async () => {
    ({ tenantId, transfer } = await insertTenantWithWallet(t.db));
  });

  const created = (externalId: string) =>
    insertTransaction(
      t.db,
      transfer({ externalId, status: "PENDING_SIGNATURE", subStatus: null, statusReason: "waiting" }, new Date("2026-11-25T10:00:00.123Z")),
    );
  const comparable = <R extends Record<string, unknown>>(row: R | undefined, ...keys: string[]): Record<string, unknown> =>
    Object.fromEntries(Object.entries(row ?? {}).filter(([key]) => !["id", "createdAt", ...keys].includes(key)));
  const stored = async (id: string) => ({
    transaction: (await t.db.select().from(transactions).where(eq(transactions.id, id)))[0],
    history: await t.db.select().from(transactionStatusHistory).where(eq(transactionStatusHistory.transactionId, id)),
    audit: await t.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)),
  });
  const actor = { actorType: "api_key", actorId: "k1" };

  // Dates, bigints, JSON, a null over a value, and columns left alone: each set's value encoded
  // as drizzle's update encodes it.
  const set = (now: Date) => ({
    status: "SIGNED" as const,
    subStatus: null,
    statusReason: null,
    signature: "0x" + "cd".repeat(40),
    signedAt: now,
    maxFeePerGas: "123456789012345678901234567890",
    sendAttempts: 3,
    simulation: {
      status: "SUCCESS" as const,
      revertReason: null,
      gasUsed: "21000",
      balanceChanges: [{ address: "0x" + "22".repeat(20), assetId: "a", delta: "-5" }],
      blockNumber: "9",
      simulatedAt: now.toISOString(),
    },
    updatedAt: now,
  });

  it("moves the row and writes its history and audit rows as the plain statements do", async () => {
    const now = new Date("2026-11-25T10:05:00.456Z");
    const viaCte = await created("cte");
    const moved = await t.db.transaction((tx) =>
      moveTransactionWithTrail(tx, {
        key: { tenantId, transactionId: viaCte.id },
        expected: ["PENDING_SIGNATURE", "QUEUED"],
        set: set(now),
        history: actor,
        audit: { ...actor, actorUserId: null, action: "transaction.signed", requestId: "req-1", ip: "10.0.0.1" },
      }),
    );
    expect(moved?.previousStatus).toBe("PENDING_SIGNATURE");

    const viaPlain = await created("plain");
    await t.db.transaction(async (tx) => {
      const row = (await updateTransactionWhereStatus(
        tx,
        { tenantId, transactionId: viaPlain.id },
        ["PENDING_SIGNATURE", "QUEUED"],
        set(now),
      ))!;
      await insertStatusHistory(tx, {
        tenantId,
        transactionId: row.id,
        fromStatus: "PENDING_SIGNATURE",
        toStatus: row.status,
        subStatus: row.subStatus,
        reason: row.statusReason,
        ...actor,
      });
      await insertAuditEvents(tx, [
        {
          tenantId,
          ...actor,
          actorUserId: null,
          action: "transaction.signed",
          targetType: "transaction",
          targetId: row.id,
          requestId: "req-1",
          ip: "10.0.0.1",
          details: { from: "PENDING_SIGNATURE", to: row.status, subStatus: row.subStatus, reason: row.statusReason },
        },
      ]);
    });

    const cte = await stored(viaCte.id);
    const plain = await stored(viaPlain.id);
    // The returned row is the stored row, decoded as drizzle decodes it.
    expect(moved?.row).toEqual(cte.transaction);
    expect(cte.transaction?.maxFeePerGas).toBe("123456789012345678901234567890");
    expect(cte.transaction?.signedAt).toEqual(now);
    expect(cte.transaction?.statusReason).toBeNull();
    expect(comparable(cte.transaction, "externalId")).toEqual(comparable(plain.transaction, "externalId"));
    expect(cte.history).toHaveLength(1);
    expect(comparable(cte.history[0], "transactionId")).toEqual(comparable(plain.history[0], "transactionId"));
    expect(cte.audit).toHaveLength(1);
    expect(comparable(cte.audit[0], "targetId", "sequence", "prevHash", "hash")).toEqual(
      comparable(plain.audit[0], "targetId", "sequence", "prevHash", "hash"),
    );
    expect(cte.audit[0]?.details).toEqual({ from: "PENDING_SIGNATURE", to: "SIGNED", subStatus: null, reason: null });
  });

  it("writes nothing when the row is in none of the expected statuses, or another tenant's", async () => {
    const row = await created("refused");
    const attempt = (key: { tenantId: string; transactionId: string }, expected: ("SIGNED" | "QUEUED" | "PENDING_SIGNATURE")[]) =>
      t.db.transaction((tx) =>
        moveTransactionWithTrail(tx, {
          key,
          expected,
          set: { status: "SIGNED", updatedAt: new Date() },
          history: actor,
          audit: { ...actor, actorUserId: null, action: "transaction.signed", requestId: null, ip: null },
        }),
      );
    expect(await attempt({ tenantId, transactionId: row.id }, ["SIGNED", "QUEUED"])).toBeUndefined();
    const [other] = await t.db.insert(tenants).values({ name: "B" }).returning();
    expect(await attempt({ tenantId: other!.id, transactionId: row.id }, ["PENDING_SIGNATURE"])).toBeUndefined();
    const after = await stored(row.id);
    expect(after.transaction).toEqual(row);
    expect(after.history).toHaveLength(0);
    expect(after.audit).toHaveLength(0);
    // Then a move that matches, with another shape of `set` (its own prepared statement), writes once.
    const moved = await attempt({ tenantId, transactionId: row.id }, ["PENDING_SIGNATURE"]);
    expect(moved?.row.status).toBe("SIGNED");
    expect(moved?.row.statusReason).toBe("waiting");
    expect((await stored(row.id)).history.map((h) => [h.fromStatus, h.toStatus, h.reason])).toEqual([
      ["PENDING_SIGNATURE", "SIGNED", "waiting"],
    ]);
    const [{ n }] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events where target_id = ${row.id}`))
      .rows as [{ n: number }];
    expect(n).toBe(1);
  });
});
