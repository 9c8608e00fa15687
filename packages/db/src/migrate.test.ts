import pg from "pg";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { migrationStatus, runMigrations } from "./migrate";
import { createEmptyDatabase } from "./testing";

describe("migrations", () => {
  it("apply to an empty database, report up to date, and are idempotent", async () => {
    const empty = await createEmptyDatabase();
    const handle = createDatabase({ url: empty.url });
    try {
      expect(await migrationStatus(handle.query)).toMatchObject({ applied: 0, upToDate: false });
      await runMigrations(empty.url);
      const status = await migrationStatus(handle.query);
      expect(status.upToDate).toBe(true);
      expect(status.applied).toBe(status.expected);
      await runMigrations(empty.url); // second run: nothing to do
      expect(await migrationStatus(handle.query)).toEqual(status);
      const { rows } = await handle.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' order by 1",
      );
      expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(["audit_events", "daemon_heartbeats", "event_outbox"]));
    } finally {
      await handle.close();
      await empty.drop();
    }
  });

  it("serialises concurrent migrators (several instances booting at once)", async () => {
    const empty = await createEmptyDatabase();
    try {
      await Promise.all([runMigrations(empty.url), runMigrations(empty.url), runMigrations(empty.url)]);
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      const { rows } = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      await client.end();
      expect(rows[0].n).toBeGreaterThan(0);
      const handle = createDatabase({ url: empty.url });
      expect((await migrationStatus(handle.query)).applied).toBe(rows[0].n);
      await handle.close();
    } finally {
      await empty.drop();
    }
  });
});
