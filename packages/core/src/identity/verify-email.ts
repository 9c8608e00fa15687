import { and, eq, gt, isNull, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { hashToken } from "../auth/tokens";
import { VERIFY_EMAIL_PURPOSE } from "../email/verification-email";
import { AppError } from "../errors";

export interface VerifyEmailResult {
  status: "EMAIL_VERIFIED";
  userId: string;
  tenantId: string;
  email: string;
}

/**
 * Consumes a verification token. Single use is one conditional UPDATE (`used_at is null and
 * expires_at > now`): of two concurrent requests with the same token exactly one wins.
 * Unknown, used and expired tokens are indistinguishable: 400 INVALID_TOKEN.
 */
export async function verifyEmail(deps: { db: Database; now(): Date }, input: { token: string; requestId?: string; ip?: string }): Promise<VerifyEmailResult> {
  const now = deps.now();
  const { emailTokens, users } = schema;
  return deps.db.transaction(async (tx) => {
    const [consumed] = await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.tokenHash, hashToken(input.token)), eq(emailTokens.purpose, VERIFY_EMAIL_PURPOSE), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
      .returning({ userId: emailTokens.userId });
    if (!consumed) throw new AppError("INVALID_TOKEN", "the verification link is unknown, already used or expired; ask for a new one");
    await tx
      .update(users)
      .set({ status: "EMAIL_VERIFIED", emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, consumed.userId), eq(users.status, "PENDING_EMAIL_VERIFICATION")));
    const [user] = await tx.select({ id: users.id, tenantId: users.tenantId, email: users.email }).from(users).where(eq(users.id, consumed.userId));
    await recordAuditEvent(tx, {
      action: "user.email_verified",
      actorType: "user",
      actorId: user!.id,
      tenantId: user!.tenantId,
      targetType: "user",
      targetId: user!.id,
      requestId: input.requestId,
      ip: input.ip,
    });
    return { status: "EMAIL_VERIFIED" as const, userId: user!.id, tenantId: user!.tenantId, email: user!.email };
  });
}
