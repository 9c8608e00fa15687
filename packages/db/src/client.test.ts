import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase, resolveDriver } from "./client";
import { auditEvents, eventOutbox } from "./schema";
import { useTestDatabase } from "./testing";

describe("resolveDriver", () => {
  it("picks neon for Neon hosts or when asked, node-postgres otherwise", () => {
    expect(resolveDriver("postgres://u:p@ep-cool-1.eu-central-1.aws.neon.tech/db")).toBe("neon");
    expect(resolveDriver("postgres://u:p@127.0.0.1:5432/db")).toBe("pg");
    expect(resolveDriver("postgres://u:p@127.0.0.1:5432/db", "neon")).toBe("neon");
  });
});

describe("database client", () => {
  const t = useTestDatabase();

  it("runs on the driver this project selected", () => {
    expect(t.driver).toBe(process.env.DB_DRIVER ?? "pg");
  });

  it("commits a transaction and rolls one back on error", async () => {
    const tenantId = "0194f2c4-0000-7000-8000-000000000001";
    await t.db.transaction(async (tx) => {
      await tx
        .insert(eventOutbox)
        .values({ tenantId, type: "test.committed", aggregateType: "test", aggregateId: tenantId, sequence: 1, data: { n: 1 } });
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx
          .insert(eventOutbox)
          .values({ tenantId, type: "test.rolled_back", aggregateType: "test", aggregateId: tenantId, sequence: 2, data: { n: 2 } });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const rows = await t.db.select().from(eventOutbox).where(eq(eventOutbox.tenantId, tenantId));
    expect(rows.map((r) => r.type)).toEqual(["test.committed"]);
  });

  it("gives back a pooled connection that died before BEGIN: the pool neither shrinks nor hangs on close", async () => {
    // A pool of one: a connection lost for good would leave the next transaction nothing.
    const handle = createDatabase({ url: t.url, applicationName: "qc-test-begin", poolMax: 1, pipelinedReads: 0 });
    try {
      let beginFailed = false;
      for (let attempt = 0; attempt < 20 && !beginFailed; attempt++) {
        const pid = (await handle.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
        await t.query("select pg_terminate_backend($1)", [pid]);
        // At once, before this process has read the termination: the pool still has the dead
        // connection as idle and hands it to the transaction, whose BEGIN fails.
        beginFailed = await handle.db
          .transaction(async (tx) => tx.execute(sql`select 1`))
          .then(
            () => false,
            () => true,
          );
      }
      expect(beginFailed, "a transaction got the dead connection").toBe(true);
      const next = await handle.db.transaction(async (tx) => (await tx.execute(sql`select 2 as n`)).rows[0]);
      expect(next).toMatchObject({ n: 2 });
    } finally {
      await handle.close();
    }
  });

  it("discards a pooled connection whose ROLLBACK failed: the pool neither shrinks nor hands it out, and closes", async () => {
    const handle = createDatabase({ url: t.url, applicationName: "qc-test-rollback", poolMax: 1, pipelinedReads: 0 });
    let closed = false;
    // The pool's public `release` event carries the error a connection was given back with.
    const releasedWith: unknown[] = [];
    handle.pool.on("release", (error: unknown) => releasedWith.push(error));
    try {
      let deadPid = 0;
      const failed = handle.db.transaction(async (tx) => {
        deadPid = (await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0]!.pid;
        // Killed from another connection inside the transaction: the work fails, and so does the
        // ROLLBACK sent after it on the dead connection.
        await t.query("select pg_terminate_backend($1)", [deadPid]);
        await tx.execute(sql`select pg_sleep(0.2)`);
      });
      await expect(failed).rejects.toThrow();
      expect(releasedWith).toHaveLength(1);
      expect(releasedWith[0], "given back as healthy").toBeInstanceOf(Error);
      // A pool of one: the next transaction runs on a new backend, not the dead one, and not never.
      const next = await handle.db.transaction(
        async (tx) => (await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0]!.pid,
      );
      expect(next).not.toBe(deadPid);
      expect(handle.pool.totalCount).toBe(1);
      await handle.close();
      closed = true;
    } finally {
      if (!closed) await handle.close();
    }
  });

  it("issues time-ordered UUIDv7 identifiers", async () => {
    const inserted = [];
    for (let i = 0; i < 5; i++) {
      const [row] = await t.db
        .insert(auditEvents)
        .values({ actorType: "system", action: `test.order.${i}` })
        .returning();
      inserted.push(row!.id);
    }
    for (const id of inserted) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...inserted].sort()).toEqual(inserted);
  });

  it("keeps the audit log append-only: UPDATE, DELETE and TRUNCATE fail", async () => {
    const [row] = await t.db.insert(auditEvents).values({ actorType: "system", action: "test.append_only" }).returning();
    await expect(t.db.update(auditEvents).set({ action: "tampered" }).where(eq(auditEvents.id, row!.id))).rejects.toThrow();
    await expect(t.db.delete(auditEvents).where(eq(auditEvents.id, row!.id))).rejects.toThrow();
    await expect(t.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const [still] = await t.db.select().from(auditEvents).where(eq(auditEvents.id, row!.id));
    expect(still?.action).toBe("test.append_only");
  });
});
