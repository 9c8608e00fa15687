import type { Executor } from "@qc/db";
import { insertAuditEvents } from "@qc/db/queries";

/**
 * Operators' actions go to the same append-only audit log as everything else, without a tenant
 * (they are the service's own) and with actor type `operator`, so they never show up in a
 * tenant's trail and are never confused with a tenant user's.
 */
export async function recordOperatorAudit(
  db: Executor,
  input: {
    action: string;
    operatorId: string | null;
    /** Without an operator: the service's own component that acted (e.g. `cli`, actor type `system`); else `anonymous`. */
    system?: string;
    targetType?: string;
    targetId?: string;
    requestId?: string;
    ip?: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await insertAuditEvents(db, [
    {
      action: input.action,
      actorType: input.operatorId ? "operator" : input.system ? "system" : "anonymous",
      actorId: input.operatorId ?? input.system ?? null,
      tenantId: null,
      targetType: input.targetType ?? null,
      targetId: input.targetId ?? null,
      requestId: input.requestId ?? null,
      ip: input.ip ?? null,
      details: input.details ?? {},
    },
  ]);
}
