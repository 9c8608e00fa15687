import { and, desc, eq, lt, sql } from "drizzle-orm";
import { newRowId } from "../ids";
import { shapeStatementName } from "./prepared";
import type { Executor } from "../client";
import { auditEvents } from "../schema/system";

export type AuditRow = typeof auditEvents.$inferInsert;

/**
 * Appends audit rows (one statement, however many); the table refuses UPDATE and DELETE. One
 * row (every transition writes one) goes as a statement named by its shape (`shapeStatementName`).
 */
export async function insertAuditEvents(db: Executor, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const query = db.insert(auditEvents).values(rows);
  const name = rows.length === 1 ? shapeStatementName("insert", auditEvents, rows[0]!) : undefined;
  await (name ? query.prepare(name).execute() : query);
}

/**
 * Appends many audit rows with one parameter, a JSON array, instead of one per value: for the
 * buffered refusal rows (hundreds per flush under a flood), where building a statement of
 * thousands of parameters costs the web process more CPU than PostgreSQL spends on the insert.
 */
export async function insertAuditEventBatch(db: Executor, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = JSON.stringify(
    rows.map((row) => ({
      id: row.id ?? newRowId(),
      tenant_id: row.tenantId ?? null,
      actor_type: row.actorType,
      actor_id: row.actorId ?? null,
      action: row.action,
      target_type: row.targetType ?? null,
      target_id: row.targetId ?? null,
      request_id: row.requestId ?? null,
      ip: row.ip ?? null,
      details: row.details ?? {},
    })),
  );
  await db.execute(sql`
    insert into audit_events (id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, ip, details)
    select id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, ip, details
      from jsonb_to_recordset(${records}::jsonb)
        as r(id uuid, tenant_id uuid, actor_type text, actor_id text, action text, target_type text, target_id text, request_id text, ip text, details jsonb)`);
}

export type AuditEventRow = typeof auditEvents.$inferSelect;

/** One page of the tenant's audit trail, newest first: ids below `beforeId`, at most `limit` rows. */
export function listTenantAuditEvents(
  db: Executor,
  params: { tenantId: string; action?: string | undefined; beforeId?: string | undefined; limit: number },
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenantId, params.tenantId),
        params.beforeId ? lt(auditEvents.id, params.beforeId) : undefined,
        params.action ? eq(auditEvents.action, params.action) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(params.limit);
}
