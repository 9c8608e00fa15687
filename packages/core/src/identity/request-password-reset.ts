import { lockUserByEmail } from "@qc/db/queries";
import { anonymousActor, auditAction } from "../audit/actor";
import { queueEmail } from "../email/queue-email";
import { expireEmailTokens, issueEmailToken } from "./email-tokens";
import { composePasswordResetEmail, PASSWORD_RESET_TTL_MS } from "./password-reset-email";
import type { IdentityDeps } from "./sign-up";

/**
 * Emails a single-use password-reset link (1 h) to the account with this address, ending the
 * earlier unused links; does nothing for an address without an account. The caller answers 202
 * either way and does not wait for this (see the procedure): the answer says nothing about
 * who has an account.
 */
export async function requestPasswordReset(
  deps: IdentityDeps,
  input: { email: string; requestId?: string; ip?: string },
): Promise<{ sent: boolean }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // Locked, so that two requests at once leave exactly one usable link.
    const user = await lockUserByEmail(tx, { email: input.email });
    if (!user) return { sent: false };
    await expireEmailTokens(tx, { userId: user.id, purpose: "PASSWORD_RESET", now });
    const token = await issueEmailToken(tx, { userId: user.id, purpose: "PASSWORD_RESET", now, ttlMs: PASSWORD_RESET_TTL_MS });
    const message = composePasswordResetEmail({ publicUrl: deps.config.publicUrl, token, name: user.name });
    await queueEmail(tx, deps.jobs, { tenantId: user.tenantId, to: user.email, kind: "password_reset", ...message });
    await auditAction(tx, anonymousActor(input), {
      tenantId: user.tenantId,
      action: "user.password_reset_requested",
      target: { type: "user", id: user.id },
    });
    return { sent: true };
  });
}
