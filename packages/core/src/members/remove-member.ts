import {
  lockMemberAndOwners,
  markMemberRemoved,
  removeMemberFromApproverGroups,
  revokeAllUserSessions,
  revokeMemberApiKeys,
} from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import { announceAuthChange, type AuthChangeDeps } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { expireEmailTokens } from "../identity/email-tokens";
import { assertMayManageMember, touchesOwnership } from "./assert-may-manage-member";

export interface RemoveMemberInput {
  tenantId: string;
  userId: string;
  /** The caller: a member who may `manage_members` (`manage_owners` to remove an OWNER), or a tool. */
  actor: Actor;
}

/**
 * Takes a member out of the tenant (CONTRACT §14), in one transaction: the user becomes REMOVED
 * (the row stays, so audit rows and keys keep naming them, and the address stays taken: no
 * silent re-invitation), every session of theirs ends, every API key they created is revoked
 * (in a rotation's grace period too), their emailed links stop working, they leave every approver
 * group (`approverGroupsLeft` in the audit row), and the removal is audited. On commit every
 * instance drops the member's cached keys (`user:<id>` and each `key:<id>`): the keys are
 * refused on this instance at once and on the others on notification
 * (docs/members.md, "how fast a change applies"). Removing an OWNER takes `manage_owners`; the
 * last OWNER cannot be removed (409 LAST_OWNER, counted on the owners' locked rows); a member of
 * another tenant, or one already removed, is 404.
 */
export async function removeMember(deps: Pick<ServiceDeps, "db" | "now"> & AuthChangeDeps, input: RemoveMemberInput): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { member, ownerIds } = await lockMemberAndOwners(tx, { tenantId: input.tenantId, userId: input.userId });
    if (!member) throw new AppError("NOT_FOUND", "member not found");
    await assertMayManageMember(tx, input.actor, input.tenantId, {
      ownership: touchesOwnership(member.role),
      what: `remove a ${member.role}`,
    });
    if (member.role === "OWNER" && ownerIds.length <= 1) throw new AppError("LAST_OWNER", "the tenant's last OWNER cannot be removed");
    if (!(await markMemberRemoved(tx, { tenantId: input.tenantId, userId: input.userId, removedAt: now })))
      throw new AppError("NOT_FOUND", "member not found");
    const sessionsEnded = await revokeAllUserSessions(tx, { tenantId: input.tenantId, userId: input.userId, revokedAt: now });
    const keysRevoked = await revokeMemberApiKeys(tx, { tenantId: input.tenantId, userId: input.userId, revokedAt: now });
    await expireEmailTokens(tx, { userId: input.userId, purpose: "VERIFY_EMAIL", now });
    await expireEmailTokens(tx, { userId: input.userId, purpose: "PASSWORD_RESET", now });
    // The member leaves every approver group (CONTRACT §14/§15), even one the current policy then
    // cannot meet: the policy blocks such transfers at evaluation (docs/approvals.md).
    const approverGroupsLeft = await removeMemberFromApproverGroups(tx, { tenantId: input.tenantId, userId: input.userId });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "member.removed",
      target: { type: "user", id: input.userId },
      details: { role: member.role, sessionsEnded, keysRevoked, approverGroupsLeft },
    });
    await announceAuthChange(tx, `user:${input.userId}`, deps.authenticator);
    for (const keyId of keysRevoked) await announceAuthChange(tx, `key:${keyId}`, deps.authenticator);
  });
}
