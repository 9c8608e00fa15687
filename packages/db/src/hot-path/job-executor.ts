import { fromDrizzle } from "pg-boss";
import { sql } from "drizzle-orm";
import { driverConnection, type Executor } from "../client";
import { statementNameOfText } from "./statement-names";

/**
 * pg-boss's view of a drizzle executor (database or open transaction): jobs sent through it
 * are inserted in that transaction, so a job exists if and only if the change it follows from
 * committed. pg-boss's SQL goes straight to the driver connection the executor runs on (the
 * pooled connection of the transaction), as pg-boss sends it on its own pool: no drizzle query
 * is built for it (a create's job insert is on the request path; docs/performance/create.md). Kept
 * here so that no layer above the database package handles the `sql` tag or a driver object.
 *
 * pg-boss's single statements go as named prepared statements (`jobStatementName`), so that
 * PostgreSQL parses and plans its long job insert once per connection instead of on every send.
 */
export function jobExecutor(tx: Executor): ReturnType<typeof fromDrizzle> {
  const connection = driverConnection(tx);
  if (!connection) return fromDrizzle(tx as never, sql as never);
  return {
    executeSql: (text: string, values?: unknown[]) => {
      const name = jobStatementName(text, values);
      return name ? connection.query({ name, text, values: values! }) : connection.query(text, values);
    },
  } as ReturnType<typeof fromDrizzle>;
}

/** What `prepareJobStatements` needs of pg-boss's database (`boss.getDb()`). */
export interface JobDatabase {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss's own pool (`boss.getDb()`: the daemon's fetches, completions, heartbeats and
 * maintenance) with the same naming as `jobExecutor`: its fetch, planned on every poll, cost
 * PostgreSQL more to plan than to run (docs/history/performance-journal.md, "Eighth sitting"). Call it before
 * `start()`. pg-boss's default database keeps its node-postgres pool in `pool` once opened; a
 * statement goes through that pool with its name, or as pg-boss sends it when there is no such
 * pool (a database of another kind, or not open: pg-boss's own check then refuses it).
 */
export function prepareJobStatements(db: JobDatabase): void {
  const holder = db as JobDatabase & { pool?: { query?: unknown } };
  const unnamed = db.executeSql.bind(db);
  holder.executeSql = (text, values) => {
    const pool = holder.pool;
    const name = jobStatementName(text, values);
    if (!name || typeof pool?.query !== "function") return unnamed(text, values);
    return (pool as { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> }).query({
      name,
      text,
      values: values!,
    });
  };
}

/**
 * The prepared statement's name for one of pg-boss's statements, or undefined to send it
 * unnamed. Named: a statement with parameters (a single statement, sent by the extended protocol
 * either way, so the name changes nothing but the reuse), and one that pg-boss sends with an empty
 * parameter list and no `;` in its text (a single statement too; its fetch inlines the queue's
 * name and batch size this way). A text without a parameter list, or with a `;` anywhere, may
 * hold several statements and keeps the simple protocol. The name is derived from the text
 * (`statementNameOfText`), so a connection never meets one name with two texts.
 */
export function jobStatementName(text: string, values: unknown[] | undefined): string | undefined {
  if (!values || (values.length === 0 && text.includes(";"))) return undefined;
  return statementNameOfText(text, "qc_boss_");
}
