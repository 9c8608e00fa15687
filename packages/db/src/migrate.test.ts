import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { migrationStatus, migrationsFolder, runMigrations } from "./migrate";
import { createEmptyDatabase } from "./testing";

// What must end up applied, read from the shipped files rather than from the migrator: each
// migration file once, in file order, recorded with the SHA-256 of its text (drizzle's hash).
const shippedHashes = readdirSync(migrationsFolder)
  .filter((file) => file.endsWith(".sql"))
  .sort()
  .map((file) =>
    createHash("sha256")
      .update(readFileSync(join(migrationsFolder, file), "utf8"))
      .digest("hex"),
  );

async function appliedHashes(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ hash: string }>("select hash from drizzle.__drizzle_migrations order by id");
    return rows.map((r) => r.hash);
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("ships at least the schema, the audit trigger and the asset seed", () => {
    expect(shippedHashes.length).toBeGreaterThanOrEqual(3);
  });

  it("apply every shipped file to an empty database, report up to date, and are idempotent", async () => {
    const empty = await createEmptyDatabase();
    const handle = createDatabase({ url: empty.url });
    try {
      expect(await migrationStatus(handle.query)).toEqual({ applied: 0, expected: shippedHashes.length, upToDate: false });
      await runMigrations(empty.url);
      expect(await appliedHashes(empty.url)).toEqual(shippedHashes);
      const status = await migrationStatus(handle.query);
      expect(status).toEqual({ applied: shippedHashes.length, expected: shippedHashes.length, upToDate: true });
      await runMigrations(empty.url); // second run: nothing to do
      expect(await appliedHashes(empty.url)).toEqual(shippedHashes);
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

  it("reports a database missing the newest migration as not up to date", async () => {
    const empty = await createEmptyDatabase();
    const handle = createDatabase({ url: empty.url });
    try {
      await runMigrations(empty.url);
      await handle.query("delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)");
      expect(await migrationStatus(handle.query)).toEqual({
        applied: shippedHashes.length - 1,
        expected: shippedHashes.length,
        upToDate: false,
      });
    } finally {
      await handle.close();
      await empty.drop();
    }
  });

  it("serialises concurrent migrators (several instances booting at once): each file applied once", async () => {
    const empty = await createEmptyDatabase();
    try {
      await Promise.all([runMigrations(empty.url), runMigrations(empty.url), runMigrations(empty.url)]);
      expect(await appliedHashes(empty.url)).toEqual(shippedHashes);
    } finally {
      await empty.drop();
    }
  });
});
