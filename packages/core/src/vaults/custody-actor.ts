import type { Executor } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";

/** Who asked for a custody change, for its audit row: the API key or the dashboard user. */
export interface CustodyActor {
  type: "api_key" | "user";
  id: string;
  requestId?: string;
  ip?: string;
}

/** Audit row for a custody resource, written in the caller's transaction. */
export function auditCustody(
  tx: Executor,
  actor: CustodyActor,
  tenantId: string,
  action: string,
  target: { type: "vault" | "wallet" | "asset" | "signer_key"; id: string },
  details: Record<string, unknown> = {},
): Promise<void> {
  return recordAuditEvent(tx, {
    action,
    actorType: actor.type,
    actorId: actor.id,
    tenantId,
    targetType: target.type,
    targetId: target.id,
    requestId: actor.requestId,
    ip: actor.ip,
    details,
  });
}

/** PostgreSQL unique violation (23505) on the named constraint, through any wrapping (drizzle, neon). */
export function violatesUniqueConstraint(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (e.code === "23505" && e.constraint === constraint) return true;
    current = e.cause;
  }
  return false;
}
