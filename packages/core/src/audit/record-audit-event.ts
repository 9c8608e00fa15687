import type { AuditAction } from "./actions";
import type { Executor } from "@qc/db";
import { insertAuditEvents, type AuditRow } from "@qc/db/queries";

export type AuditActorType = "anonymous" | "user" | "api_key" | "system" | "provider";

export interface AuditEventInput {
  action: AuditAction;
  actorType: AuditActorType;
  actorId?: string | null;
  /** The member the actor acted for (see actingMemberId). */
  actorUserId?: string | null;
  tenantId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  requestId?: string | null;
  ip?: string | null;
  /** Never a secret's value: names, kinds, paths and ids only. */
  details?: Record<string, unknown>;
}

/** Appends one audit row; pass the open transaction so it commits with the change it records. */
export async function recordAuditEvent(db: Executor, input: AuditEventInput): Promise<void> {
  await insertAuditEvents(db, [toAuditRow(input)]);
}

/** The one mapping from an audit input to its row (absent fields are null, details `{}`). */
export function toAuditRow(input: AuditEventInput): AuditRow {
  return {
    action: input.action,
    actorType: input.actorType,
    actorId: input.actorId ?? null,
    actorUserId: input.actorUserId ?? null,
    tenantId: input.tenantId ?? null,
    targetType: input.targetType ?? null,
    targetId: input.targetId ?? null,
    requestId: input.requestId ?? null,
    ip: input.ip ?? null,
    details: input.details ?? {},
  };
}
