import type { Database } from "@qc/db";
import { extendOperatorSession, findLiveOperatorSession } from "@qc/db/queries";
import { hashToken } from "../auth/tokens";
import { AppError } from "../errors";
import { OPERATOR_SESSION_ABSOLUTE_TTL_MS, OPERATOR_SESSION_TTL_MS, operatorTokenFromCookie } from "./operator-session";

export interface OperatorPrincipal {
  operatorId: string;
  sessionId: string;
  email: string;
  name: string | null;
}

/** A session is written back at most once a minute: every console poll would otherwise write. */
const TOUCH_MS = 60_000;

/**
 * The operator behind the console cookie, or 401. Only the operator cookie counts: a tenant
 * session or API key never reaches an operator procedure, and an operator's cookie is nothing
 * to the tenant tiers. The session slides while in use, never past its absolute end.
 */
export async function authenticateOperator(deps: { db: Database; now(): Date }, request: { cookie: string | undefined }): Promise<OperatorPrincipal> {
  const token = operatorTokenFromCookie(request.cookie);
  if (!token) throw new AppError("UNAUTHENTICATED", "log in to the operators' console");
  const now = deps.now();
  const session = await findLiveOperatorSession(deps.db, { tokenHash: hashToken(token), now });
  const absoluteEnd = session ? session.createdAt.getTime() + OPERATOR_SESSION_ABSOLUTE_TTL_MS : 0;
  if (!session || absoluteEnd <= now.getTime()) throw new AppError("UNAUTHENTICATED", "operator session expired; log in again");
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_MS) {
    const expiresAt = new Date(Math.min(now.getTime() + OPERATOR_SESSION_TTL_MS, absoluteEnd));
    await extendOperatorSession(deps.db, { sessionId: session.sessionId, lastSeenAt: now, expiresAt });
  }
  return { operatorId: session.operatorId, sessionId: session.sessionId, email: session.email, name: session.name };
}
