import { insertSession, type LoginCandidate } from "@qc/db/queries";
import type { TenantStatus } from "@qc/domain";
import { auditAction, userActor } from "../audit/actor";
import { SESSION_TTL_MS } from "../auth/authenticator";
import { generateSessionToken, hashToken } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";

export interface LogInResult {
  /** `qs_` + 64 hex; returned here only, stored as its SHA-256. */
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string | null };
  tenant: { id: string; name: string; status: TenantStatus };
}

/**
 * The end of every successful login: a dashboard session for the user, audited as
 * `auth.logged_in` (with the passkey that completed it, when the tenant requires one).
 */
export async function openSession(
  deps: Pick<ServiceDeps, "db" | "now">,
  user: Pick<LoginCandidate, "id" | "email" | "name" | "tenantId" | "tenantName" | "tenantStatus">,
  request: { ip: string; requestId?: string; userAgent?: string },
  secondFactor?: { passkeyId: string },
): Promise<LogInResult> {
  const now = deps.now();
  const token = generateSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await deps.db.transaction(async (tx) => {
    const session = await insertSession(tx, {
      tenantId: user.tenantId,
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt,
      lastSeenAt: now,
      // The service's clock, not the database's: the absolute lifetime counts from it.
      createdAt: now,
      ip: request.ip,
      userAgent: request.userAgent?.slice(0, 500) ?? null,
    });
    await auditAction(tx, userActor(user.id, request), {
      tenantId: user.tenantId,
      action: "auth.logged_in",
      target: { type: "session", id: session.id },
      ...(secondFactor ? { details: { passkeyId: secondFactor.passkeyId } } : {}),
    });
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: { id: user.id, email: user.email, name: user.name },
    tenant: { id: user.tenantId, name: user.tenantName, status: user.tenantStatus },
  };
}
