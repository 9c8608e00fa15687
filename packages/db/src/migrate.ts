import { readFileSync } from "node:fs";
import { migrate as drizzleMigrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";

export const migrationsFolder = new URL("../migrations", import.meta.url).pathname;

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

function journal(): Journal {
  return JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, "utf8")) as Journal;
}

// Any constant works; it only has to be the same for every process that migrates.
const MIGRATION_LOCK = 20_803_001;

/**
 * Applies pending migrations. Safe to call from every web and daemon instance at boot: an
 * advisory lock serialises them and drizzle skips what is already applied. Runs over a
 * dedicated node-postgres connection (also for Neon, whose endpoint speaks the same protocol).
 */
export async function runMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: "quantum-custody-migrate" });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await drizzleMigrate(drizzle({ client }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

export interface MigrationStatus {
  applied: number;
  expected: number;
  upToDate: boolean;
}

/** For /readyz: compares the migrations recorded in the database with the shipped journal. */
export async function migrationStatus(query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<MigrationStatus> {
  const entries = journal().entries;
  const last = entries.at(-1)?.when ?? 0;
  const { rows } = await query(
    `select count(*)::int as applied, coalesce(max(created_at), 0)::bigint as last
       from drizzle.__drizzle_migrations`,
  ).catch((error: { code?: string }) => {
    if (error.code === "42P01" || error.code === "3F000") return { rows: [{ applied: 0, last: 0 }] };
    throw error;
  });
  const applied = Number(rows[0]?.applied ?? 0);
  return { applied, expected: entries.length, upToDate: Number(rows[0]?.last ?? 0) >= last };
}
