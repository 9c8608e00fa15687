import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { newRowId } from "../ids";
import { insertAuditEventBatch, insertAuditEvents } from "../queries/audit";
import { insertOutboxEvent } from "../queries/events";
import { auditEvents, eventOutbox } from "../schema";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import { useTestDatabase } from "../testing";
import { insertStatusHistory, insertTenantWithWallet, insertTransaction } from "../testing/rows";
import { insertTransactionWithTrail } from "./transaction-with-trail";

// The hand-written SQL (the create's CTE, the audit batch) against plain drizzle inserts of the
// same logical rows: each stored row, column by column, is the same whichever path wrote it.
describe("statements written in SQL store what drizzle's inserts store", () => {
  const t = useTestDatabase();
  let tenantId: string;
  let transfer: Awaited<ReturnType<typeof insertTenantWithWallet>>["transfer"];

  beforeAll(async () => {
    ({ tenantId, transfer } = await insertTenantWithWallet(t.db));
  });

  /** A row with its own ids and times left out: what both paths must agree on. */
  const comparable = <R extends Record<string, unknown>>(row: R | undefined, ...keys: string[]): Record<string, unknown> =>
    Object.fromEntries(Object.entries(row ?? {}).filter(([key]) => !["id", "seq", "createdAt", ...keys].includes(key)));

  it("inserts a transaction with its history, audit row and event as the plain inserts do", async () => {
    const now = new Date("2026-11-25T10:00:00.123Z");
    const values = (externalId: string) => transfer({ externalId, status: "SUBMITTED" }, now);
    const actor = { actorType: "api_key", actorId: "k1" };
    const audit = (targetId: string) => ({
      tenantId,
      ...actor,
      action: "transaction.created",
      targetType: "transaction",
      targetId,
      requestId: "req-1",
      ip: "10.0.0.1",
      details: { amount: "1000" },
    });
    const event = (aggregateId: string) => ({
      tenantId,
      type: "transaction.created",
      aggregateType: "transaction",
      aggregateId,
      data: { transaction: { id: aggregateId, nested: [1, 2] } },
    });

    // The create's one statement.
    const viaCte = values("cte");
    const { eventSequence } = await t.db.transaction((tx) =>
      insertTransactionWithTrail(tx, {
        row: viaCte,
        history: { id: newRowId(), ...actor },
        audit: { id: newRowId(), ...audit(viaCte.id) },
        event: { id: newRowId(), ...event(viaCte.id) },
      }),
    );
    expect(eventSequence).toBe(1);
    // The same rows through the plain inserts.
    const viaDrizzle = values("drizzle");
    await t.db.transaction(async (tx) => {
      await insertTransaction(tx, viaDrizzle);
      await insertStatusHistory(tx, {
        tenantId,
        transactionId: viaDrizzle.id,
        fromStatus: null,
        toStatus: viaDrizzle.status,
        subStatus: viaDrizzle.subStatus,
        reason: viaDrizzle.statusReason,
        ...actor,
        createdAt: viaDrizzle.createdAt,
      });
      await insertAuditEvents(tx, [audit(viaDrizzle.id)]);
      await insertOutboxEvent(tx, event(viaDrizzle.id));
    });

    const stored = async (id: string) => ({
      transaction: (await t.db.select().from(transactions).where(eq(transactions.id, id)))[0],
      history: (await t.db.select().from(transactionStatusHistory).where(eq(transactionStatusHistory.transactionId, id)))[0],
      audit: (await t.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)))[0],
      event: (await t.db.select().from(eventOutbox).where(eq(eventOutbox.aggregateId, id)))[0],
    });
    const cte = await stored(viaCte.id);
    const plain = await stored(viaDrizzle.id);
    // The transaction row is the row given, every column.
    expect(cte.transaction).toEqual(viaCte);
    expect(plain.transaction).toEqual(viaDrizzle);
    expect(comparable(cte.transaction, "externalId")).toEqual(comparable(plain.transaction, "externalId"));
    expect(comparable(cte.history, "transactionId")).toEqual(comparable(plain.history, "transactionId"));
    expect(cte.history?.createdAt).toEqual(now);
    expect(comparable(cte.audit, "targetId")).toEqual(comparable(plain.audit, "targetId"));
    expect(comparable(cte.event, "aggregateId", "data")).toEqual(comparable(plain.event, "aggregateId", "data"));
    expect(cte.event?.data).toEqual(event(viaCte.id).data);
    expect(cte.event?.sequence).toBe(1);
  });

  it("inserts a batch of audit rows as the plain insert does, defaults included", async () => {
    const rows = (prefix: string) => [
      { tenantId, actorType: "anonymous", action: `${prefix}.one`, ip: "10.0.0.2", details: { reason: "x", list: [1] } },
      { tenantId: null, actorType: "system", actorId: "s", action: `${prefix}.two`, targetType: "t", targetId: "1", requestId: "r" },
    ];
    await insertAuditEventBatch(t.db, rows("batch"));
    await insertAuditEvents(t.db, rows("plain"));
    const read = async (prefix: string) =>
      (
        await t.db
          .select()
          .from(auditEvents)
          .where(sql`${auditEvents.action} like ${`${prefix}.%`}`)
          .orderBy(auditEvents.action)
      ).map((row) => ({
        ...comparable(row),
        action: row.action.replace(prefix, ""),
      }));
    const batch = await read("batch");
    expect(batch).toHaveLength(2);
    expect(batch).toEqual(await read("plain"));
    // The details left out took the column's default ('{}').
    expect((batch[1] as Record<string, unknown>).details).toEqual({});
  });
});
