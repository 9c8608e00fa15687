import { and, eq, inArray } from "drizzle-orm";
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Executor } from "../client";
import { executeNamedByText } from "../hot-path/statement-names";

/** A tenant-owned table with a status column: what a lifecycle transition moves. */
export type StatusTable = PgTable & { id: AnyPgColumn; tenantId: AnyPgColumn; status: AnyPgColumn };

/**
 * The one shape of every state change: `UPDATE … SET … WHERE id = $id AND tenant_id = $tenant
 * AND status IN ($expected) RETURNING *`. The row comes back only to the caller that moved it;
 * a caller that finds nothing knows someone else moved it first (or it never existed).
 *
 * Sent as a named prepared statement named by a hash of its text (`executeNamedByText`,
 * ../hot-path/statement-names.ts) when every value it sets is a plain value: each step
 * of a transfer moves its row this way, and PostgreSQL then plans each shape once per connection
 * instead of on every move (docs/history/performance-journal.md, "Tenth sitting").
 */
export async function updateWhereStatus<T extends StatusTable>(
  db: Executor,
  table: T,
  key: { id: string; tenantId: string },
  expected: readonly string[],
  set: PgUpdateSetSource<T>,
): Promise<T["$inferSelect"] | undefined> {
  const query = db
    .update(table)
    .set(set)
    .where(and(eq(table.id, key.id), eq(table.tenantId, key.tenantId), inArray(table.status, [...expected])))
    .returning();
  const rows = (await executeNamedByText(query)) as T["$inferSelect"][];
  return rows[0];
}
