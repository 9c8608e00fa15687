import { and, eq, gt, isNull, schema } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { issueVerificationEmail, VERIFY_EMAIL_PURPOSE } from "../email/verification-email";
import type { IdentityDeps } from "./sign-up";

/**
 * Sends a new verification link to a user still waiting for one, invalidating the earlier
 * unused links. Says nothing about whether the address is registered: the caller answers 202
 * in every case, and a rate limit it checks first bounds the emails one address can receive.
 */
export async function resendVerification(deps: IdentityDeps, input: { email: string; requestId?: string; ip?: string }): Promise<{ sent: boolean }> {
  const { emailTokens, tenants, users } = schema;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, tenantId: users.tenantId, email: users.email, name: users.name, status: users.status, organizationName: tenants.name })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(eq(users.email, input.email))
      .for("update", { of: users });
    if (!user || user.status !== "PENDING_EMAIL_VERIFICATION") return { sent: false };
    await tx
      .update(emailTokens)
      .set({ expiresAt: now })
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, VERIFY_EMAIL_PURPOSE), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)));
    await issueVerificationEmail(tx, { jobs: deps.jobs, publicUrl: deps.publicUrl, now }, user);
    await recordAuditEvent(tx, {
      action: "user.verification_resent",
      actorType: "anonymous",
      tenantId: user.tenantId,
      targetType: "user",
      targetId: user.id,
      requestId: input.requestId,
      ip: input.ip,
    });
    return { sent: true };
  });
}
