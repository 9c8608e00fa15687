import { fromDrizzle } from "pg-boss";
import { sql } from "drizzle-orm";
import type { Executor } from "./client";

/**
 * pg-boss's view of a drizzle executor (database or open transaction): jobs sent through it
 * are inserted in that transaction, so a job exists if and only if the change it follows from
 * committed. Kept here so that no layer above the database package handles the `sql` tag.
 */
export function jobExecutor(tx: Executor): ReturnType<typeof fromDrizzle> {
  return fromDrizzle(tx as never, sql as never);
}
