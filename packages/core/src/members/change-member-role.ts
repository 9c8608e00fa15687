import { lockMemberAndOwners, updateMemberRole } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";
import { auditAction, type Actor } from "../audit/actor";
import { announceAuthChange, type AuthChangeDeps } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { assertMayManageMember, touchesOwnership } from "./assert-may-manage-member";
import { toMemberRecords, type MemberRecord } from "./member-record";

export interface ChangeMemberRoleInput {
  tenantId: string;
  userId: string;
  role: MemberRole;
  /** The caller: a member whose current role may `manage_members` (`manage_owners` when an OWNER is made or unmade), or a tool. */
  actor: Actor;
}

/**
 * Gives a member another role (CONTRACT §14). Only an OWNER makes or unmakes an OWNER
 * (`manage_owners`); the tenant's last OWNER cannot be demoted (409 LAST_OWNER), counted on the
 * owners' rows locked until the commit, so two demotions at once cannot both pass. The change
 * applies at once to the member's sessions (each request reads the role) and keys: every
 * instance drops the member's cached keys on commit (`user:<id>`, AuthCacheInvalidation). A
 * member of another tenant is 404, as if unknown. The same role again changes nothing.
 */
export async function changeMemberRole(
  deps: Pick<ServiceDeps, "db" | "now"> & AuthChangeDeps,
  input: ChangeMemberRoleInput,
): Promise<MemberRecord> {
  return deps.db.transaction(async (tx) => {
    const { member, ownerIds } = await lockMemberAndOwners(tx, { tenantId: input.tenantId, userId: input.userId });
    if (!member) throw new AppError("NOT_FOUND", "member not found");
    const record = async (row: typeof member) => (await toMemberRecords(tx, input.tenantId, [row]))[0]!;
    if (member.role === input.role) return record(member);
    // Read after the lock: an OWNER caller's own row is among those locked, so their role holds until the commit.
    await assertMayManageMember(tx, input.actor, input.tenantId, {
      ownership: touchesOwnership(member.role, input.role),
      what: `make a ${member.role} a ${input.role}`,
    });
    if (member.role === "OWNER" && ownerIds.length <= 1) throw new AppError("LAST_OWNER", "the tenant's last OWNER cannot be demoted");
    const updated = await updateMemberRole(tx, { tenantId: input.tenantId, userId: input.userId, role: input.role, updatedAt: deps.now() });
    if (!updated) throw new AppError("NOT_FOUND", "member not found");
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "member.role_changed",
      target: { type: "user", id: input.userId },
      details: { from: member.role, to: input.role },
    });
    await announceAuthChange(tx, `user:${input.userId}`, deps.authenticator);
    return record(updated);
  });
}
