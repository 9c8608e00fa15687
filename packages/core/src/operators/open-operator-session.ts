import type { Database } from "@qc/db";
import { insertOperatorSession, type OperatorRow } from "@qc/db/queries";
import { hashToken } from "../auth/tokens";
import { generateOperatorSessionToken, OPERATOR_SESSION_TTL_MS } from "./operator-session";
import { recordOperatorAudit } from "./record-operator-audit";

export interface LogInOperatorResult {
  /** `qo_` + 64 hex: set as the console cookie by the router, never shown. */
  token: string;
  expiresAt: string;
  operator: { id: string; email: string; name: string | null };
}

/** A console session for the operator, audited `operator.logged_in` (naming the passkey after the passkey step). */
export async function openOperatorSession(
  deps: { db: Database; now(): Date },
  operator: Pick<OperatorRow, "id" | "email" | "name">,
  input: { ip: string; requestId?: string; userAgent?: string },
  via?: { passkeyId: string },
): Promise<LogInOperatorResult> {
  const now = deps.now();
  const token = generateOperatorSessionToken();
  const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_TTL_MS);
  await deps.db.transaction(async (tx) => {
    const session = await insertOperatorSession(tx, {
      operatorId: operator.id,
      tokenHash: hashToken(token),
      expiresAt,
      lastSeenAt: now,
      createdAt: now,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    });
    await recordOperatorAudit(tx, {
      action: "operator.logged_in",
      operatorId: operator.id,
      targetType: "operator_session",
      targetId: session.id,
      requestId: input.requestId,
      ip: input.ip,
      ...(via ? { details: { passkeyId: via.passkeyId } } : {}),
    });
  });
  return { token, expiresAt: expiresAt.toISOString(), operator: { id: operator.id, email: operator.email, name: operator.name } };
}
