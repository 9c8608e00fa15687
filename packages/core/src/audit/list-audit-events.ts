import type { Database } from "@qc/db";
import { listTenantAuditEvents } from "@qc/db/queries";
import { decodePageCursor, toPage, type PageInfo } from "../pagination";
import { sealAuditChain } from "./seal-audit-chain";

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
  /** The row's place in the tenant's hash chain (CONTRACT §19): 1, 2, 3, … without gaps. */
  sequence: number;
  /** The previous row's hash (64 zeros for the first). */
  prevHash: string;
  /** SHA-256 (hex) of the RFC 8785 JSON of the row's chain fields. */
  hash: string;
}

/**
 * The tenant's audit trail, newest first (UUIDv7 ids are time-ordered, so they are the cursor).
 * The chain is sealed first and only chained rows are listed, so every record carries its
 * sequence and hashes; a row committed after that seal appears on the next call.
 */
export async function listAuditEvents(
  db: Database,
  input: { tenantId: string; limit: number; cursor?: string; action?: string },
): Promise<{ events: AuditEventRecord[]; page: PageInfo }> {
  await sealAuditChain(db, input.tenantId);
  const rows = await listTenantAuditEvents(db, {
    tenantId: input.tenantId,
    action: input.action,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
    sealedOnly: true,
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
      sequence: r.sequence!,
      prevHash: r.prevHash!,
      hash: r.hash!,
    })),
  };
}
