import type { Database } from "@qc/db";
import { findOperatorByEmail, findRequireOperatorPasskey } from "@qc/db/queries";
import type { Authenticator } from "../auth/authenticator";
import type { ServiceConfig } from "../deps/service-config";
import { AppError } from "../errors";
import { verifyAgainstDummyHash, verifyPassword } from "../identity/passwords";
import type { PasskeyLoginChallenge } from "../passkeys/log-in-with-passkey";
import { openOperatorSession, type LogInOperatorResult } from "./open-operator-session";
import { startOperatorPasskeyLogin } from "./operator-passkeys";
import { recordOperatorAudit } from "./record-operator-audit";

export type { LogInOperatorResult };

export interface LogInOperatorInput {
  /** Lower-cased and trimmed at the boundary. */
  email: string;
  password: string;
  ip: string;
  requestId?: string;
  userAgent?: string;
}

const WRONG_CREDENTIALS = "invalid email or password";

/**
 * The console's login, with the tenant login's protections: the source's and the account's
 * lockouts are checked first and every failure counts towards both (one lockout per address,
 * whichever login is being guessed; the account's is the console's own); one Argon2id verification whatever the address, so timing does not reveal which
 * addresses are operators; a disabled operator is refused like a wrong password. While the
 * service requires operators' passkeys (`require_operator_passkey`), the right password answers
 * the passkey step's challenge instead of a session (`logInOperatorWithPasskey` ends the login).
 */
export async function logInOperator(
  deps: {
    db: Database;
    now(): Date;
    config: Pick<ServiceConfig, "publicUrl">;
    authenticator: Pick<Authenticator, "refuseIfLockedOut" | "countFailure">;
  },
  input: LogInOperatorInput,
): Promise<LogInOperatorResult | PasskeyLoginChallenge> {
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
  if (await findRequireOperatorPasskey(deps.db)) return startOperatorPasskeyLogin(deps, { operatorId: operator.id });
  return openOperatorSession(deps, operator, input);
}
