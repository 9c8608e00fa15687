import type { Database } from "@qc/db";
import { insertOperator, revokeAllOperatorSessions, updateOperatorPassword } from "@qc/db/queries";
import { AppError } from "../errors";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../identity/passwords";
import { recordOperatorAudit } from "./record-operator-audit";

export interface CreateOperatorInput {
  email: string;
  name?: string | null;
  password: string;
  /** Set a new password when the address already has an operator, instead of refusing. */
  resetPassword?: boolean;
}

export interface CreateOperatorResult {
  id: string;
  email: string;
  name: string | null;
  /** false when an existing operator's password was reset. */
  created: boolean;
  /** Console sessions of the operator that a password reset ended (0 for a new operator). */
  sessionsEnded: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates an operator of the console (the command line's `scripts/create-operator.ts`; there is
 * no route for it: whoever can run commands against the database already runs the service).
 * Same password rules as a tenant user's (CONTRACT §3), hashed with Argon2id. Setting a new
 * password (`resetPassword`) ends every console session of that operator in the same transaction.
 */
export async function createOperator(deps: { db: Database; now(): Date }, input: CreateOperatorInput): Promise<CreateOperatorResult> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254)
    throw new AppError("VALIDATION_FAILED", "email must be a valid email address", {
      details: { fields: [{ path: "email", message: "must be a valid email address" }] },
    });
  if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH) {
    const message = `password must have ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;
    throw new AppError("VALIDATION_FAILED", message, { details: { fields: [{ path: "password", message }] } });
  }
  const name = input.name?.trim() || null;
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const created = await insertOperator(tx, { email, name, passwordHash });
    if (created) {
      await recordOperatorAudit(tx, {
        action: "operator.created",
        operatorId: created.id,
        targetType: "operator",
        targetId: created.id,
        details: { via: "command_line" },
      });
      return { id: created.id, email: created.email, name: created.name, created: true, sessionsEnded: 0 };
    }
    if (!input.resetPassword)
      throw new AppError("CONFLICT", `an operator with the address ${email} already exists (pass --reset-password to set a new password)`);
    const now = deps.now();
    const updated = (await updateOperatorPassword(tx, { email, passwordHash, at: now }))!;
    // A new password is what one sets after a leak: whoever held the old one is logged out too.
    const sessionsEnded = await revokeAllOperatorSessions(tx, { operatorId: updated.id, at: now });
    await recordOperatorAudit(tx, {
      action: "operator.password_reset",
      operatorId: updated.id,
      targetType: "operator",
      targetId: updated.id,
      details: { via: "command_line", sessionsEnded },
    });
    return { id: updated.id, email: updated.email, name: updated.name, created: false, sessionsEnded };
  });
}
