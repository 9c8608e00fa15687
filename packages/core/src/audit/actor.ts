import type { AuditAction } from "./actions";
import type { Executor } from "@qc/db";
import type { Principal } from "../auth/authenticator";
import { recordAuditEvent, type AuditActorType } from "./record-audit-event";

/**
 * Who did it, in one shape for every audit row and status-history entry: an API key, a
 * dashboard user, a daemon component (`system`), a provider callback or nobody known. Set once
 * per request by the auth middleware (`ctx.actor`); jobs use `systemActor("<job name>")`.
 */
export interface Actor {
  type: AuditActorType;
  /** keyId, userId, job or component name; null when anonymous. */
  id: string | null;
  /** For an API key: the member who created it, whom the key acts for (CONTRACT §14). */
  keyMemberId?: string;
  requestId?: string;
  ip?: string;
}

export function actorFromPrincipal(principal: Principal, request: { requestId?: string; ip?: string } = {}): Actor {
  const apiKey = principal.kind === "api_key";
  return {
    type: apiKey ? "api_key" : "user",
    id: (apiKey ? principal.keyId : principal.userId) ?? null,
    ...(apiKey && principal.userId ? { keyMemberId: principal.userId } : {}),
    ...(request.requestId ? { requestId: request.requestId } : {}),
    ...(request.ip ? { ip: request.ip } : {}),
  };
}

export const systemActor = (component: string): Actor => ({ type: "system", id: component });

/**
 * A caller who has not proved who they are: signup, verification and reset links, a failed
 * login, a key sent over plain HTTP. `claimedId` is the user or key id the attempt named, when
 * it names one that exists (never the typed email: people type passwords into it).
 */
export function anonymousActor(request: { requestId?: string; ip?: string } = {}, claimedId: string | null = null): Actor {
  return {
    type: "anonymous",
    id: claimedId,
    ...(request.requestId ? { requestId: request.requestId } : {}),
    ...(request.ip ? { ip: request.ip } : {}),
  };
}

/** A user acting through a proof other than a session (following an emailed link, logging in). */
export function userActor(userId: string, request: { requestId?: string; ip?: string } = {}): Actor {
  return {
    type: "user",
    id: userId,
    ...(request.requestId ? { requestId: request.requestId } : {}),
    ...(request.ip ? { ip: request.ip } : {}),
  };
}

export interface AuditTarget {
  type: string;
  id: string;
}

/**
 * The member an actor acts for, as audit rows name it (`actor_user_id`): a user, or the member
 * who created the API key; none for tools, providers and anonymous callers.
 */
export function actingMemberId(actor: Actor): string | null {
  if (actor.type === "user") return actor.id;
  return actor.type === "api_key" ? (actor.keyMemberId ?? null) : null;
}

/** One audit row for an action of `actor`, written in the caller's transaction. */
export function auditAction(
  tx: Executor,
  actor: Actor,
  input: { tenantId: string | null; action: AuditAction; target?: AuditTarget; details?: Record<string, unknown> },
): Promise<void> {
  return recordAuditEvent(tx, {
    action: input.action,
    actorType: actor.type,
    actorId: actor.id,
    actorUserId: actingMemberId(actor),
    tenantId: input.tenantId,
    targetType: input.target?.type ?? null,
    targetId: input.target?.id ?? null,
    requestId: actor.requestId ?? null,
    ip: actor.ip ?? null,
    details: input.details ?? {},
  });
}
