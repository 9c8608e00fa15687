import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgBoss } from "pg-boss";
import { startBoss } from "./queue";

/**
 * pg-boss's own pool sends its parameterized statements as named prepared statements
 * (`prepareJobStatements`, packages/db): parsed and planned once per connection, not on every
 * fetch. Real PostgreSQL and pg-boss; a pool of one connection, so a query on the pool sees the
 * statements its earlier queries prepared.
 */
describe("pg-boss's own statements", () => {
  const t = useTestDatabase();
  let boss: PgBoss;

  beforeAll(async () => {
    boss = await startBoss({ url: t.url, role: "web", max: 1, applicationName: "qc-test-boss" });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false });
  });

  it("fetches and completes jobs through named prepared statements", async () => {
    const queue = "webhooks.deliver";
    const sent = [
      await boss.send(queue, { tenantId: "0194f2c4-0000-7000-8000-0000000000aa", deliveryId: "0194f2c4-0000-7000-8000-000000000001" }),
      await boss.send(queue, { tenantId: "0194f2c4-0000-7000-8000-0000000000aa", deliveryId: "0194f2c4-0000-7000-8000-000000000002" }),
    ];
    for (const id of sent) {
      const [job] = await boss.fetch(queue);
      expect(job?.id).toBe(id);
      await boss.complete(queue, job!.id);
    }
    expect((await boss.getJobById(queue, sent[1]!))?.state).toBe("completed");
    const { rows } = await boss.getDb().executeSql("select name, statement from pg_prepared_statements");
    const prepared = rows as { name: string; statement: string }[];
    const fetch = prepared.filter((r) => /^\s*WITH\s+next\s+AS/.test(r.statement));
    // One fetch statement, prepared once for both fetches (none when the reach-in into pg-boss's
    // pool stops working: docs/decisions/library-internals.md).
    expect(fetch).toHaveLength(1);
    expect(prepared.length).toBeGreaterThanOrEqual(3); // the send, the fetch, the completion at least
  });
});
