/**
 * Installed in the web process by bench/transfers-create.ts (through bench/web-with-statement-counter.ts):
 * counts the statements node-postgres sends, i.e. the database round trips, while a window is
 * open. SIGUSR1 opens a window; SIGUSR2 closes it and writes what it saw as JSON to
 * BENCH_STATEMENT_LOG (the benchmark reads it). Outside a window it only checks a flag, so the
 * load phase is not measured with it on.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { isMainThread } from "node:worker_threads";

type Query = (this: unknown, ...args: unknown[]) => unknown;

// Signals reach the main thread only; the verify pool's threads have no database.
if (isMainThread) installStatementCounter();

function installStatementCounter(): void {
  // The same pg module instance the database package uses (pnpm links it there).
  const pg = createRequire(resolve(import.meta.dirname, "../packages/db/package.json"))("pg") as { Client: { prototype: { query: Query } } };
  let counting = false;
  let statements: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function query(this: unknown, ...args: unknown[]) {
    if (counting) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === "string" ? first : (first?.text ?? "<submittable>");
      statements.push(text.replace(/\s+/g, " ").trim());
    }
    return original.apply(this, args);
  };
  process.on("SIGUSR1", () => {
    statements = [];
    counting = true;
  });
  process.on("SIGUSR2", () => {
    counting = false;
    writeFileSync(process.env.BENCH_STATEMENT_LOG!, JSON.stringify(statements));
  });
}
