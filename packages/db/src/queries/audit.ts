import { and, desc, eq, isNotNull, lt } from "drizzle-orm";
import type { Executor } from "../client";
import { recordsetInsert } from "../hot-path/columns";
import { executeNamedByText } from "../hot-path/statement-names";
import { auditEvents } from "../schema/system";

export type AuditRow = typeof auditEvents.$inferInsert;

/**
 * Appends audit rows (one statement, however many); the table refuses UPDATE and DELETE. One
 * row (every transition writes one) goes as a statement named by its text (`executeNamedByText`).
 */
export async function insertAuditEvents(db: Executor, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const query = db.insert(auditEvents).values(rows);
  await (rows.length === 1 ? executeNamedByText(query) : query);
}

/**
 * Appends many audit rows with one parameter, a JSON array, instead of one per value: for the
 * buffered refusal rows (hundreds per flush under a flood), where building a statement of
 * thousands of parameters costs the web process more CPU than PostgreSQL spends on the insert.
 * The columns and their types come from the table definition (`recordsetInsert`).
 */
export async function insertAuditEventBatch(db: Executor, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(recordsetInsert(auditEvents, rows));
}

export type AuditEventRow = typeof auditEvents.$inferSelect;

/**
 * One page of the tenant's audit trail, newest first: ids below `beforeId`, at most `limit` rows;
 * with `sealedOnly`, only rows already chained (a row committed after the caller sealed waits for
 * the next seal).
 */
export function listTenantAuditEvents(
  db: Executor,
  params: { tenantId: string; action?: string | undefined; beforeId?: string | undefined; limit: number; sealedOnly?: boolean },
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenantId, params.tenantId),
        params.beforeId ? lt(auditEvents.id, params.beforeId) : undefined,
        params.action ? eq(auditEvents.action, params.action) : undefined,
        params.sealedOnly ? isNotNull(auditEvents.sequence) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(params.limit);
}
