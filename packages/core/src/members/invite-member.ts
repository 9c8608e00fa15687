import { findTenantName, findUserIdByEmail, insertInvitation, revokePendingInvitationsTo } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";
import { auditAction, type Actor } from "../audit/actor";
import { generateEmailToken, hashToken } from "../auth/tokens";
import { queueEmail } from "../email/queue-email";
import { AppError } from "../errors";
import type { IdentityDeps } from "../identity/sign-up";
import { emailTaken } from "./add-member";
import { assertMayManageMember, touchesOwnership } from "./assert-may-manage-member";
import { composeInvitationEmail, INVITATION_TTL_MS } from "./invitation-email";
import { toInvitationRecord, type InvitationRecord } from "./invitation-record";

export interface InviteMemberInput {
  tenantId: string;
  /** Lower-cased and trimmed at the boundary, like signup's. */
  email: string;
  role: MemberRole;
  /** The caller: a member who may `manage_members` (`manage_owners` to invite an OWNER), or a tool. */
  actor: Actor;
}

/**
 * Invites a person to join the tenant with `role` (CONTRACT §14): a single-use token (32 random
 * bytes, base64url, stored only as its SHA-256, 7 days) and the email carrying
 * `<PUBLIC_URL>/accept-invite?token=<token>`, queued in the same transaction. An address that
 * already has an account (in any tenant, a removed member's too) is 409
 * EMAIL_ALREADY_REGISTERED; a newer invitation to the same address revokes the tenant's earlier
 * pending ones, so one link works at a time.
 */
export async function inviteMember(deps: IdentityDeps, input: InviteMemberInput): Promise<InvitationRecord> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const invitedByUserId = await assertMayManageMember(tx, input.actor, input.tenantId, {
      ownership: touchesOwnership(input.role),
      what: `invite a ${input.role}`,
    });
    if (await findUserIdByEmail(tx, { email: input.email })) throw emailTaken();
    const organizationName = await findTenantName(tx, { tenantId: input.tenantId });
    if (organizationName === undefined) throw new AppError("NOT_FOUND", "tenant not found");
    const replaced = await revokePendingInvitationsTo(tx, { tenantId: input.tenantId, email: input.email, revokedAt: now });
    for (const id of replaced)
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "invitation.revoked",
        target: { type: "invitation", id },
        details: { reason: "replaced" },
      });
    const token = generateEmailToken();
    const row = await insertInvitation(tx, {
      tenantId: input.tenantId,
      email: input.email,
      role: input.role,
      tokenHash: hashToken(token),
      invitedByUserId: invitedByUserId ?? null,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      createdAt: now,
    });
    const message = composeInvitationEmail({ publicUrl: deps.config.publicUrl, token, organizationName, role: input.role });
    await queueEmail(tx, deps.jobs, { tenantId: input.tenantId, to: input.email, kind: "member_invitation", ...message });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "invitation.sent",
      target: { type: "invitation", id: row.id },
      details: { email: input.email, role: input.role },
    });
    return toInvitationRecord(row, now);
  });
}
