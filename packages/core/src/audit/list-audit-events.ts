import type { Executor } from "@qc/db";
import { listTenantAuditEvents } from "@qc/db/queries";
import { decodePageCursor, toPage, type PageInfo } from "../pagination";

export interface AuditEventRecord {
  id: string;
  action: string;
  actorType: string;
  actorId: string | null;
  /** The member the actor acted for: a user, or the member who created the API key (CONTRACT §14). */
  actorUserId: string | null;
  targetType: string | null;
  targetId: string | null;
  requestId: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** The tenant's audit trail, newest first (UUIDv7 ids are time-ordered, so they are the cursor). */
export async function listAuditEvents(
  db: Executor,
  input: { tenantId: string; limit: number; cursor?: string; action?: string },
): Promise<{ events: AuditEventRecord[]; page: PageInfo }> {
  const rows = await listTenantAuditEvents(db, {
    tenantId: input.tenantId,
    action: input.action,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  return {
    page,
    events: items.map((r) => ({
      id: r.id,
      action: r.action,
      actorType: r.actorType,
      actorId: r.actorId,
      actorUserId: r.actorUserId,
      targetType: r.targetType,
      targetId: r.targetId,
      requestId: r.requestId,
      ip: r.ip,
      details: r.details,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}
