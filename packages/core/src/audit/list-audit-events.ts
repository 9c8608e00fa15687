import { and, desc, eq, lt, schema, type Database } from "@qc/db";
import { AppError } from "../errors";

export interface AuditEventRecord {
  id: string;
  action: string;
  actorType: string;
  actorId: string | null;
  targetType: string | null;
  targetId: string | null;
  requestId: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export function encodeCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
    throw new AppError("VALIDATION_FAILED", "invalid cursor", { details: { fields: [{ path: "cursor", message: "not a cursor from this API" }] } });
  }
  return id;
}

/** The tenant's audit trail, newest first (UUIDv7 ids are time-ordered, so they are the cursor). */
export async function listAuditEvents(
  db: Database,
  input: { tenantId: string; limit: number; cursor?: string; action?: string },
): Promise<{ events: AuditEventRecord[]; nextCursor: string | null }> {
  const t = schema.auditEvents;
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.tenantId, input.tenantId), input.cursor ? lt(t.id, decodeCursor(input.cursor)) : undefined, input.action ? eq(t.action, input.action) : undefined))
    .orderBy(desc(t.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    events: page.map((r) => ({
      id: r.id,
      action: r.action,
      actorType: r.actorType,
      actorId: r.actorId,
      targetType: r.targetType,
      targetId: r.targetId,
      requestId: r.requestId,
      ip: r.ip,
      details: r.details,
      createdAt: r.createdAt.toISOString(),
    })),
    nextCursor: rows.length > input.limit ? encodeCursor(page.at(-1)!.id) : null,
  };
}
