import type { Database } from "@qc/db";
import { findSessionByTokenHash, touchSession } from "@qc/db/queries";
import { AppError } from "../errors";
import type { Verification } from "./principal";
import { judgeSession, type SessionLifetime } from "./judge-session";
import { hashToken } from "./tokens";

export const SESSION_TTL_MS = 12 * 3600_000;
/** However much it is used, a dashboard session ends this long after its login. */
export const SESSION_ABSOLUTE_TTL_MS = 7 * 24 * 3600_000;
const TENANT_SESSION_LIFETIME: SessionLifetime = { idleMs: SESSION_TTL_MS, absoluteMs: SESSION_ABSOLUTE_TTL_MS };

/** A dashboard session token (`qs_…`): its member, with their current role, sliding the session forward while in use. */
export async function verifySession(deps: { db: Database; now(): Date }, token: string): Promise<Verification> {
  const row = await findSessionByTokenHash(deps.db, { tokenHash: hashToken(token) });
  if (!row) return { failure: { reason: "unknown_session", counts: true, error: new AppError("UNAUTHENTICATED", "invalid credentials") } };
  const now = deps.now();
  const standing = judgeSession(row, now, TENANT_SESSION_LIFETIME);
  if (!standing.live) {
    // Expired or logged-out sessions are audited but are not password guessing.
    const error = new AppError("UNAUTHENTICATED", "session expired; log in again");
    return { failure: { reason: "session_expired", counts: false, error, tenantId: row.tenantId, userId: row.userId } };
  }
  if (standing.slideTo)
    await touchSession(deps.db, { tenantId: row.tenantId, sessionId: row.id, lastSeenAt: now, expiresAt: standing.slideTo });
  return { principal: { kind: "session", tenantId: row.tenantId, scopes: [], role: row.role, userId: row.userId, sessionId: row.id } };
}
