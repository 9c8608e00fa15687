/**
 * Installed in the web process by bench/transfers-create.ts (compiled to a `--import` preload by
 * bench/create-statement-count.ts, ahead of the compiled server): counts the statements
 * node-postgres sends, and the database round trips they took (a statement written while another
 * is unanswered on its connection shares that one's), while a window is open. SIGUSR1 opens a
 * window; SIGUSR2 closes it and writes what it saw as JSON to BENCH_STATEMENT_LOG (the benchmark
 * reads it): each statement's text, name and values as sent, and whether it shared an earlier
 * one's round trip (bench/create-replay.ts sends the same statements again from a bare server).
 * Outside a window it only checks a flag, so the load phase is not measured with it on.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { isMainThread } from "node:worker_threads";

type Query = (this: unknown, ...args: unknown[]) => unknown;

// Signals reach the main thread only; the verify pool's threads have no database.
if (isMainThread) installStatementCounter();

/** One statement as the web process sent it; `shared`: written while an earlier one on its connection was unanswered. */
export interface RecordedStatement {
  text: string;
  name?: string;
  values: unknown[];
  shared: boolean;
}

/** A value as node-postgres sends it in text form, kept as JSON can hold it. */
function asSent(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString("hex")}`;
  if (typeof value === "bigint") return value.toString();
  return value;
}

function installStatementCounter(): void {
  // The same pg module instance the database package uses (pnpm links it there).
  const pg = createRequire(resolve(import.meta.dirname, "../packages/db/package.json"))("pg") as {
    Client: { prototype: { query: Query } };
  };
  let counting = false;
  let statements: RecordedStatement[] = [];
  /**
   * Statements written while an earlier one on the same connection was still unanswered (a
   * connection in pipeline mode): they share that round trip, so round trips = statements − these.
   */
  let sharedRoundTrips = 0;
  const inFlight = new WeakMap<object, number>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function query(this: unknown, ...args: unknown[]) {
    if (!counting) return original.apply(this, args);
    const client = this as { pipeline?: boolean };
    const first = args[0] as string | { text?: string; name?: string; values?: unknown[] } | undefined;
    const text = typeof first === "string" ? first : (first?.text ?? "<submittable>");
    // node-postgres takes the values in the config or as the second argument (drizzle's way).
    const values = (typeof first === "object" ? first?.values : undefined) ?? (args[1] as unknown[] | undefined);
    const shared = client.pipeline === true && (inFlight.get(client) ?? 0) > 0;
    statements.push({
      text,
      ...(typeof first === "object" && first?.name ? { name: first.name } : {}),
      values: (values ?? []).map(asSent),
      shared,
    });
    if (shared) sharedRoundTrips++;
    const result = original.apply(this, args) as { then?: (settled: () => void, failed: () => void) => unknown } | undefined;
    // Promise form only (drizzle, pg-boss and @qc/db's transactions use it): followed until answered.
    if (typeof result?.then === "function") {
      inFlight.set(client, (inFlight.get(client) ?? 0) + 1);
      const settle = () => void inFlight.set(client, (inFlight.get(client) ?? 1) - 1);
      result.then(settle, settle);
    }
    return result;
  };
  process.on("SIGUSR1", () => {
    statements = [];
    sharedRoundTrips = 0;
    counting = true;
  });
  process.on("SIGUSR2", () => {
    counting = false;
    writeFileSync(process.env.BENCH_STATEMENT_LOG!, JSON.stringify({ statements, sharedRoundTrips }));
  });
}
