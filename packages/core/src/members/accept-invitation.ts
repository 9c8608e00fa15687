import { consumeInvitationToken, findUserIdByEmail, setInvitationAcceptedUser } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";
import { auditAction, userActor } from "../audit/actor";
import type { Authenticator } from "../auth/authenticator";
import { hashToken } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { hashPassword } from "../identity/passwords";
import { emailTaken, insertMember, rethrowEmailTaken } from "./add-member";

export interface AcceptInvitationInput {
  token: string;
  name: string;
  /** Checked at the boundary with signup's rules. */
  password: string;
  requestId?: string;
  ip: string;
}

export interface AcceptInvitationResult {
  userId: string;
  tenantId: string;
  email: string;
  role: MemberRole;
}

const invalidToken = () =>
  new AppError("INVALID_TOKEN", "the invitation link is unknown, already used, revoked or expired; ask for a new one");

/**
 * Joins the tenant with an emailed invitation (CONTRACT §14), in one transaction: the token is
 * used up (single use; unknown, used, revoked and expired tokens are all 400 INVALID_TOKEN, and
 * count towards the source's lockout like a failed login), the member is created with the
 * invitation's role and the address verified (the link reached it), and both are audited with
 * the new member as the actor. An address that got an account meanwhile is 409
 * EMAIL_ALREADY_REGISTERED and the invitation stays pending.
 */
export async function acceptInvitation(
  deps: Pick<ServiceDeps, "db" | "now"> & { authenticator: Pick<Authenticator, "refuseIfLockedOut" | "countFailure"> },
  input: AcceptInvitationInput,
): Promise<AcceptInvitationResult> {
  await deps.authenticator.refuseIfLockedOut(input.ip);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const invitation = await consumeInvitationToken(tx, { tokenHash: hashToken(input.token), acceptedAt: now });
      if (!invitation) throw invalidToken();
      if (await findUserIdByEmail(tx, { email: invitation.email })) throw emailTaken();
      // Hashed only once the token proved valid: an unknown token costs no Argon2 work.
      const passwordHash = await hashPassword(input.password);
      const member = await insertMember(
        tx,
        {
          tenantId: invitation.tenantId,
          email: invitation.email,
          name: input.name,
          passwordHash,
          role: invitation.role,
          now,
          actor: (userId) => userActor(userId, input),
        },
        { invitationId: invitation.id },
      );
      await setInvitationAcceptedUser(tx, { tenantId: invitation.tenantId, invitationId: invitation.id, userId: member.userId });
      await auditAction(tx, userActor(member.userId, input), {
        tenantId: invitation.tenantId,
        action: "invitation.accepted",
        target: { type: "invitation", id: invitation.id },
        details: { role: invitation.role },
      });
      return { userId: member.userId, tenantId: invitation.tenantId, email: invitation.email, role: invitation.role };
    });
  } catch (error) {
    if (error instanceof AppError && error.error === "INVALID_TOKEN") await deps.authenticator.countFailure(input.ip);
    if (error instanceof AppError) throw error;
    rethrowEmailTaken(error);
  }
}
