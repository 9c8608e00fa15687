import type { Database } from "@qc/db";
import { extendOperatorSession, findLiveOperatorSession } from "@qc/db/queries";
import { judgeSession } from "../auth/judge-session";
import { hashToken } from "../auth/tokens";
import { AppError } from "../errors";
import { OPERATOR_SESSION_LIFETIME, operatorTokenFromCookie } from "./operator-session";

export interface OperatorPrincipal {
  operatorId: string;
  sessionId: string;
  email: string;
  name: string | null;
}

/**
 * The operator behind the console cookie, or 401. Only the operator cookie counts: a tenant
 * session or API key never reaches an operator procedure, and an operator's cookie is nothing
 * to the tenant tiers. The session slides while in use, never past its absolute end (the same
 * rule as the dashboard's sessions: `judgeSession`).
 */
export async function authenticateOperator(
  deps: { db: Database; now(): Date },
  request: { cookie: string | undefined },
): Promise<OperatorPrincipal> {
  const token = operatorTokenFromCookie(request.cookie);
  if (!token) throw new AppError("UNAUTHENTICATED", "log in to the operators' console");
  const now = deps.now();
  const session = await findLiveOperatorSession(deps.db, { tokenHash: hashToken(token), now });
  const standing = session ? judgeSession(session, now, OPERATOR_SESSION_LIFETIME) : undefined;
  if (!session || !standing?.live) throw new AppError("UNAUTHENTICATED", "operator session expired; log in again");
  if (standing.slideTo)
    await extendOperatorSession(deps.db, { sessionId: session.sessionId, lastSeenAt: now, expiresAt: standing.slideTo });
  return { operatorId: session.operatorId, sessionId: session.sessionId, email: session.email, name: session.name };
}
