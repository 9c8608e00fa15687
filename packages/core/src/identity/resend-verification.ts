import { lockUserByEmail } from "@qc/db/queries";
import { anonymousActor, auditAction } from "../audit/actor";
import { issueVerificationEmail } from "../email/verification-email";
import { expireEmailTokens } from "./email-tokens";
import type { IdentityDeps } from "./sign-up";

/**
 * Sends a new verification link to a user still waiting for one, invalidating the earlier
 * unused links. Says nothing about whether the address is registered: the caller answers 202
 * in every case, and a rate limit it checks first bounds the emails one address can receive.
 */
export async function resendVerification(
  deps: IdentityDeps,
  input: { email: string; requestId?: string; ip?: string },
): Promise<{ sent: boolean }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const user = await lockUserByEmail(tx, { email: input.email });
    if (!user || user.status !== "PENDING_EMAIL_VERIFICATION") return { sent: false };
    await expireEmailTokens(tx, { userId: user.id, purpose: "VERIFY_EMAIL", now });
    await issueVerificationEmail(tx, deps, now, user);
    await auditAction(tx, anonymousActor(input), {
      tenantId: user.tenantId,
      action: "user.verification_resent",
      target: { type: "user", id: user.id },
    });
    return { sent: true };
  });
}
