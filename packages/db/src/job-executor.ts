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
 */
export function jobExecutor(tx: Executor): ReturnType<typeof fromDrizzle> {
  const connection = driverConnection(tx);
  if (!connection) return fromDrizzle(tx as never, sql as never);
  return { executeSql: (text: string, values?: unknown[]) => connection.query(text, values) } as ReturnType<typeof fromDrizzle>;
}
