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
    buffer.add({
      action: "auth.failed",
      actorType: "anonymous",
      tenantId,
      requestId: "req-1",
      ip: "203.0.113.7",
      details: { reason: "missing", counted: false },
    });
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
    expect(first).toMatchObject({
      action: "auth.failed",
      actorType: "anonymous",
      actorId: null,
      targetType: null,
      ip: "203.0.113.7",
      details: { reason: "missing", counted: false },
    });
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

  it("writes a tenant's refusals one row each up to the cap per window, then counts the rest", async () => {
    const tenantId = randomUUID();
    const buffer = new AuditBuffer(t.db, createLogger("audit-buffer-test", "silent"), {
      intervalMs: 60_000,
      maxBatch: 250,
      namedPerWindow: 20,
    });
    for (let i = 0; i < 1000; i++)
      buffer.add({
        action: "auth.failed",
        actorType: "api_key",
        actorId: "qc_flood",
        tenantId,
        requestId: `flood-${i}`,
        ip: "203.0.113.8",
        details: { reason: "revoked" },
      });
    await buffer.close();
    const { events } = await listAuditEvents(t.db, { tenantId, limit: 200, action: "auth.failed" });
    expect(events).toHaveLength(21);
    const [aggregated] = events.filter((e) => e.details.aggregated);
    expect(aggregated).toMatchObject({
      actorId: "qc_flood",
      requestId: "flood-20",
      ip: "203.0.113.8",
      details: { reason: "revoked", aggregated: { count: 980, source: "203.0.113.8", otherSources: false } },
    });
    expect((aggregated!.details.aggregated as { requestIds: string[] }).requestIds).toEqual([
      "flood-20",
      "flood-21",
      "flood-22",
      "flood-23",
      "flood-24",
    ]);
    expect(
      events
        .filter((e) => !e.details.aggregated)
        .map((e) => e.requestId)
        .sort(),
    ).toEqual(Array.from({ length: 20 }, (_, i) => `flood-${i}`).sort());
  });

  it("turns 2,000 anonymous refusals from a few sources into a handful of counted rows, IPv6 by its /64", async () => {
    const marker = randomUUID();
    const buffer = new AuditBuffer(t.db, createLogger("audit-buffer-test", "silent"), { intervalMs: 60_000, maxBatch: 500 });
    const sources = ["198.51.100.1", "198.51.100.2", "2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "::ffff:198.51.100.1"];
    for (let i = 0; i < 2000; i++) {
      const reason = i % 4 === 0 ? "bad_key_or_secret" : "missing";
      buffer.add({
        action: "auth.failed",
        actorType: "anonymous",
        requestId: `${marker}-${i}`,
        ip: sources[i % sources.length],
        details: { reason, counted: reason !== "missing" },
      });
    }
    await buffer.close();
    const rows = await anonymousRows(marker);
    // (v4 .1 with its mapped form, v4 .2, the /64) × (missing, bad key).
    expect(rows).toHaveLength(6);
    expect(rows.reduce((sum, row) => sum + row.details.aggregated.count, 0)).toBe(2000);
    const v6 = rows.filter((row) => row.details.aggregated.source === "2001:db8:1:2::/64");
    // The row keeps the first address its group saw, the count is the /64's.
    expect(v6).toHaveLength(2);
    for (const row of v6) expect(["2001:db8:1:2::1", "2001:db8:1:2:ffff::9"]).toContain(row.ip);
    expect(v6.reduce((sum, row) => sum + row.details.aggregated.count, 0)).toBe(800);
    expect(rows.every((row) => row.tenantId === null && row.actorId === null && row.actorType === "anonymous")).toBe(true);
  });

  it("folds sources past the cap into one other-sources row per reason, so a spread flood stays bounded", async () => {
    const marker = randomUUID();
    const buffer = new AuditBuffer(t.db, createLogger("audit-buffer-test", "silent"), {
      intervalMs: 60_000,
      maxBatch: 500,
      maxGroupsPerWindow: 10,
    });
    for (let i = 0; i < 2000; i++)
      buffer.add({
        action: "auth.failed",
        actorType: "anonymous",
        requestId: `${marker}-${i}`,
        ip: `10.0.${i % 250}.${i % 7}`,
        details: { reason: "missing", counted: false },
      });
    await buffer.close();
    const rows = await anonymousRows(marker);
    expect(rows).toHaveLength(11);
    const other = rows.find((row) => row.details.aggregated.otherSources);
    expect(other).toMatchObject({ ip: null, details: { aggregated: { source: null } } });
    expect(rows.reduce((sum, row) => sum + row.details.aggregated.count, 0)).toBe(2000);
  });

  it("counts per window: a new window starts new rows", async () => {
    const marker = randomUUID();
    const buffer = new AuditBuffer(t.db, createLogger("audit-buffer-test", "silent"), { intervalMs: 10, maxBatch: 500, windowMs: 150 });
    for (let i = 0; i < 10; i++)
      buffer.add({
        action: "auth.failed",
        actorType: "anonymous",
        requestId: `${marker}-a${i}`,
        ip: "192.0.2.1",
        details: { reason: "missing" },
      });
    // The window closes and is written without anyone flushing.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await anonymousRows(marker)).toHaveLength(1);
    for (let i = 0; i < 5; i++)
      buffer.add({
        action: "auth.failed",
        actorType: "anonymous",
        requestId: `${marker}-b${i}`,
        ip: "192.0.2.1",
        details: { reason: "missing" },
      });
    await buffer.close();
    expect((await anonymousRows(marker)).map((row) => row.details.aggregated.count).sort()).toEqual([10, 5].sort());
  });

  /** The aggregated rows whose sampled request ids start with `marker`. */
  async function anonymousRows(marker: string) {
    const rows = await t.pool.query<{
      ip: string | null;
      tenant_id: string | null;
      actor_id: string | null;
      actor_type: string;
      details: any;
    }>("select ip, tenant_id, actor_id, actor_type, details from audit_events where request_id like $1", [`${marker}-%`]);
    return rows.rows.map((row) => ({
      ip: row.ip,
      tenantId: row.tenant_id,
      actorId: row.actor_id,
      actorType: row.actor_type,
      details: row.details,
    }));
  }
});
