import { markUserEmailVerified, revokeAllUserSessions, updateUserPassword } from "@qc/db/queries";
import { auditAction, userActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { consumeEmailToken, expireEmailTokens } from "./email-tokens";
import { hashPassword } from "./passwords";

export interface ResetPasswordResult {
  status: "PASSWORD_RESET";
  /** Dashboard sessions of the user that the reset ended. */
  sessionsEnded: number;
}

/**
 * Sets a new password with an emailed reset token, in one transaction: the token is used up
 * (single use), the password is hashed with Argon2id, every session of the user ends, the
 * other outstanding reset links stop working, and the change is audited. Following the link
 * proves control of the address as the verification link does, so an account still waiting for
 * verification is verified too. Unknown, used and expired tokens: 400 INVALID_TOKEN.
 */
export async function resetPassword(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { token: string; password: string; requestId?: string; ip?: string },
): Promise<ResetPasswordResult> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const consumed = await consumeEmailToken(tx, { token: input.token, purpose: "PASSWORD_RESET", now });
    if (!consumed) throw new AppError("INVALID_TOKEN", "the password reset link is unknown, already used or expired; ask for a new one");
    // Hashed only once the token proved valid: an unknown token costs no Argon2 work.
    const passwordHash = await hashPassword(input.password);
    // A token belongs to an existing user (foreign key).
    const user = (await updateUserPassword(tx, { userId: consumed.userId, passwordHash, updatedAt: now }))!;
    const emailVerified = user.status === "PENDING_EMAIL_VERIFICATION";
    if (emailVerified) await markUserEmailVerified(tx, { tenantId: user.tenantId, userId: user.id, verifiedAt: now });
    await expireEmailTokens(tx, { userId: user.id, purpose: "PASSWORD_RESET", now });
    const sessionsEnded = await revokeAllUserSessions(tx, { tenantId: user.tenantId, userId: user.id, revokedAt: now });
    await auditAction(tx, userActor(user.id, input), {
      tenantId: user.tenantId,
      action: "user.password_reset",
      target: { type: "user", id: user.id },
      details: { sessionsEnded, emailVerified },
    });
    return { status: "PASSWORD_RESET" as const, sessionsEnded };
  });
}
