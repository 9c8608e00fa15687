import { randomUUID } from "node:crypto";
import { useTestDatabase } from "@qc/db/testing";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { AuditBuffer } from "./audit-buffer";
import { listAuditEvents } from "./list-audit-events";

describe("audit buffer", () => {
  const t = useTestDatabase();

  it("writes every buffered row as given, in order, in one statement per flush", async () => {
    const tenantId = randomUUID();
    const buffer = new AuditBuffer(t.db, createLogger("audit-buffer-test", "silent"), { intervalMs: 60_000, maxBatch: 1000 });
    buffer.add({ action: "auth.failed", actorType: "anonymous", tenantId, requestId: "req-1", ip: "203.0.113.7", details: { reason: "missing", counted: false } });
    buffer.add({
      action: "auth.failed",
      actorType: "api_key",
      actorId: "qc_0123",
      tenantId,
      targetType: "api_key",
      targetId: "qc_0123",
      requestId: "req-2",
      ip: "2001:db8::1",
      details: { reason: "revoked", nested: { quote: `it's "quoted" \\ and ünïcode`, list: [1, 2] } },
    });
    buffer.add({ action: "auth.failed", actorType: "anonymous", tenantId });
    await buffer.close();

    const { events } = await listAuditEvents(t.db, { tenantId, limit: 10 });
    expect(events.map((e) => e.requestId).reverse()).toEqual(["req-1", "req-2", null]);
    const [third, second, first] = events;
    expect(first).toMatchObject({ action: "auth.failed", actorType: "anonymous", actorId: null, targetType: null, ip: "203.0.113.7", details: { reason: "missing", counted: false } });
    expect(second).toMatchObject({
      actorType: "api_key",
      actorId: "qc_0123",
      targetType: "api_key",
      targetId: "qc_0123",
      ip: "2001:db8::1",
      details: { reason: "revoked", nested: { quote: `it's "quoted" \\ and ünïcode`, list: [1, 2] } },
    });
    expect(third).toMatchObject({ requestId: null, ip: null, details: {} });
  });

  it("flushes by itself once a batch is full, and loses nothing of a flood", async () => {
    const tenantId = randomUUID();
    const buffer = new AuditBuffer(t.db, createLogger("audit-buffer-test", "silent"), { intervalMs: 60_000, maxBatch: 250 });
    for (let i = 0; i < 1000; i++) buffer.add({ action: "auth.failed", actorType: "anonymous", tenantId, requestId: `flood-${i}`, details: { i } });
    await buffer.flush();
    const { events } = await listAuditEvents(t.db, { tenantId, limit: 200, action: "auth.failed" });
    expect(events[0]).toMatchObject({ requestId: "flood-999", details: { i: 999 } });
    await buffer.close();
    const rows = await t.pool.query<{ n: string }>("select count(*) as n from audit_events where tenant_id = $1", [tenantId]);
    expect(Number(rows.rows[0]!.n)).toBe(1000);
  });
});
