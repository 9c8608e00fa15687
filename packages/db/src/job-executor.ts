import { createHash } from "node:crypto";
import { fromDrizzle } from "pg-boss";
import { sql } from "drizzle-orm";
import { driverConnection, type Executor } from "./client";

/**
 * pg-boss's view of a drizzle executor (database or open transaction): jobs sent through it
 * are inserted in that transaction, so a job exists if and only if the change it follows from
 * committed. pg-boss's SQL goes straight to the driver connection the executor runs on (the
 * pooled connection of the transaction), as pg-boss sends it on its own pool: no drizzle query
 * is built for it (a create's job insert is on the request path; docs/performance.md). Kept
 * here so that no layer above the database package handles the `sql` tag or a driver object.
 *
 * A statement with parameters goes as a named prepared statement (`jobStatementName`), so that
 * PostgreSQL parses and plans pg-boss's long job insert once per connection instead of on every
 * send. Only those: a parameterized statement is a single statement sent by the extended protocol
 * either way, so naming it changes nothing but the reuse; a text without parameters may hold
 * several statements and keeps going by the simple protocol.
 */
export function jobExecutor(tx: Executor): ReturnType<typeof fromDrizzle> {
  const connection = driverConnection(tx);
  if (!connection) return fromDrizzle(tx as never, sql as never);
  return {
    executeSql: (text: string, values?: unknown[]) => {
      const name = values && values.length > 0 ? jobStatementName(text) : undefined;
      return name ? connection.query({ name, text, values }) : connection.query(text, values);
    },
  } as ReturnType<typeof fromDrizzle>;
}

/**
 * The prepared statement's name for one of pg-boss's statement texts: derived from the text, so
 * that a connection never meets one name with two texts. pg-boss builds its texts from a queue's
 * settings (a handful per queue); past `MAX_JOB_STATEMENTS` distinct texts in a process, further
 * ones go unnamed, so a text that embedded a value could not grow the server's statements
 * without bound.
 */
const MAX_JOB_STATEMENTS = 200;
const jobStatementNames = new Map<string, string>();
export function jobStatementName(text: string): string | undefined {
  let name = jobStatementNames.get(text);
  if (name === undefined && jobStatementNames.size < MAX_JOB_STATEMENTS) {
    name = `qc_boss_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    jobStatementNames.set(text, name);
  }
  return name;
}
