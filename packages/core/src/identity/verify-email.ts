import { findUserById, markUserEmailVerified } from "@qc/db/queries";
import { auditAction, userActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { consumeEmailToken } from "./email-tokens";

export interface VerifyEmailResult {
  status: "EMAIL_VERIFIED";
  userId: string;
  tenantId: string;
  email: string;
}

/**
 * Consumes a verification token (single use, see consumeEmailToken). Unknown, used and expired
 * tokens are indistinguishable: 400 INVALID_TOKEN.
 */
export async function verifyEmail(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { token: string; requestId?: string; ip?: string },
): Promise<VerifyEmailResult> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const consumed = await consumeEmailToken(tx, { token: input.token, purpose: "VERIFY_EMAIL", now });
    if (!consumed) throw new AppError("INVALID_TOKEN", "the verification link is unknown, already used or expired; ask for a new one");
    // A token belongs to an existing user (foreign key).
    const user = (await findUserById(tx, { userId: consumed.userId }))!;
    await markUserEmailVerified(tx, { tenantId: user.tenantId, userId: user.id, verifiedAt: now });
    await auditAction(tx, userActor(user.id, input), {
      tenantId: user.tenantId,
      action: "user.email_verified",
      target: { type: "user", id: user.id },
    });
    return { status: "EMAIL_VERIFIED" as const, userId: user.id, tenantId: user.tenantId, email: user.email };
  });
}
