import type { Database } from "@qc/db";
import { findOperatorByEmail, insertOperatorSession } from "@qc/db/queries";
import type { Authenticator } from "../auth/authenticator";
import { hashToken } from "../auth/tokens";
import { AppError } from "../errors";
import { verifyAgainstDummyHash, verifyPassword } from "../identity/passwords";
import { generateOperatorSessionToken, OPERATOR_SESSION_TTL_MS } from "./operator-session";
import { recordOperatorAudit } from "./record-operator-audit";

export interface LogInOperatorInput {
  /** Lower-cased and trimmed at the boundary. */
  email: string;
  password: string;
  ip: string;
  requestId?: string;
  userAgent?: string;
}

export interface LogInOperatorResult {
  /** `qo_` + 64 hex: set as the console cookie by the router, never shown. */
  token: string;
  expiresAt: string;
  operator: { id: string; email: string; name: string | null };
}

const WRONG_CREDENTIALS = "invalid email or password";

/**
 * The console's login, with the tenant login's protections: the source's and the account's
 * lockouts are checked first and every failure counts towards both (one lockout per address,
 * whichever login is being guessed; the account's is the console's own); one Argon2id verification whatever the address, so timing does not reveal which
 * addresses are operators; a disabled operator is refused like a wrong password.
 */
export async function logInOperator(
  deps: { db: Database; now(): Date; authenticator: Pick<Authenticator, "refuseIfLockedOut" | "countFailure"> },
  input: LogInOperatorInput,
): Promise<LogInOperatorResult> {
  const account = { realm: "operator", email: input.email } as const;
  await deps.authenticator.refuseIfLockedOut(input.ip, account);
  const operator = await findOperatorByEmail(deps.db, input.email);
  const matches = operator ? await verifyPassword(operator.passwordHash, input.password) : await verifyAgainstDummyHash(input.password);
  if (!operator || !matches || operator.disabledAt) {
    await deps.authenticator.countFailure(input.ip, account);
    await recordOperatorAudit(deps.db, {
      action: "operator.login_failed",
      operatorId: null,
      requestId: input.requestId,
      ip: input.ip,
      details: {
        reason: !operator ? "unknown_email" : operator.disabledAt ? "disabled" : "wrong_password",
        operatorId: operator?.id ?? null,
      },
    });
    throw new AppError("UNAUTHENTICATED", WRONG_CREDENTIALS);
  }
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
    });
  });
  return { token, expiresAt: expiresAt.toISOString(), operator: { id: operator.id, email: operator.email, name: operator.name } };
}
