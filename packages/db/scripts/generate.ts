/**
 * Regenerates the migrations from the drizzle schema, then appends each hand-written SQL file
 * of sql/ (triggers, seeds) as a drizzle-kit custom migration so that one migrator applies all.
 *
 * Until the first production release the history is squashed into one generated migration
 * plus the custom ones (see docs/decisions/database.md); afterwards pass --append to keep
 * existing files and only add what changed.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const migrations = join(root, "migrations");
const append = process.argv.includes("--append");
const kit = (...args: string[]) => execFileSync("pnpm", ["exec", "drizzle-kit", "generate", ...args], { cwd: root, stdio: "inherit" });

if (!append) {
  rmSync(migrations, { recursive: true, force: true });
  kit("--name", "init");
  for (const file of readdirSync(join(root, "sql"))
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    const name = file.replace(/^\d+_/, "").replace(/\.sql$/, "");
    kit("--custom", "--name", name);
    const created = readdirSync(migrations).find((f) => f.endsWith(`_${name}.sql`));
    if (!created) throw new Error(`drizzle-kit did not create a migration for ${file}`);
    writeFileSync(join(migrations, created), readFileSync(join(root, "sql", file), "utf8"));
  }
} else {
  kit();
}
