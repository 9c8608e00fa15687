import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { migrationsFolder } from "../migrate";

/** The shipped migration files that sort before `file`, in order: the schema a migration's test starts from. */
export function migrationFilesBefore(file: string): string[] {
  return readdirSync(migrationsFolder)
    .filter((name) => name.endsWith(".sql") && name < file)
    .sort();
}

/** Runs shipped migration files statement by statement, as drizzle's migrator splits them. */
export async function applyMigrationFiles(client: pg.Client, files: string[]): Promise<void> {
  for (const file of files)
    for (const statement of readFileSync(join(migrationsFolder, file), "utf8").split("--> statement-breakpoint"))
      if (statement.trim()) await client.query(statement);
}
