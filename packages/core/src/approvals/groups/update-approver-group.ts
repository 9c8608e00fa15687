import { renameApproverGroup, setApproverGroupMembers } from "@qc/db/queries";
import { auditAction, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { AppError } from "../../errors";
import { currentMemberIds, findApproverGroupOr404, toApproverGroupRecord, type ApproverGroupRecord } from "./approver-group-record";
import { conflictWithGroupHolders } from "./policy-needs";

export interface UpdateApproverGroupInput {
  tenantId: string;
  groupId: string;
  /** A field left out is unchanged; `memberIds` replaces the whole membership. */
  name?: string;
  memberIds?: string[];
  actor: Actor;
}

/**
 * `PUT /v1/approver-groups/{id}`: renames the group and/or replaces its members, on the group's
 * row locked FOR UPDATE. A membership smaller than a quorum the tenant's current policy, or its
 * address-book setting, needs of this group is 409 CONFLICT naming them (change them first); a policy
 * or setting being replaced at the same time waits for the lock, and validates against the new size. Audited as
 * `approver_group.updated` with `before` and `after`; the same name and members again change nothing.
 */
export async function updateApproverGroup(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: UpdateApproverGroupInput,
): Promise<ApproverGroupRecord> {
  if (input.name === undefined && input.memberIds === undefined) {
    throw new AppError("VALIDATION_FAILED", "nothing to update: send name and/or memberIds", {
      details: { fields: [{ path: "(body)", message: "name or memberIds is required" }] },
    });
  }
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const current = await findApproverGroupOr404(tx, { tenantId: input.tenantId, groupId: input.groupId, lock: true });
    const memberIds = input.memberIds === undefined ? current.memberIds : await currentMemberIds(tx, input.tenantId, input.memberIds);
    const name = input.name ?? current.row.name;
    const sameMembers = memberIds.length === current.memberIds.length && memberIds.every((id) => current.memberIds.includes(id));
    if (name === current.row.name && sameMembers) return toApproverGroupRecord(current.row, current.memberIds);
    const conflict = await conflictWithGroupHolders(tx, input.tenantId, input.groupId, memberIds.length);
    if (conflict) throw conflict;
    await renameApproverGroup(tx, { tenantId: input.tenantId, groupId: input.groupId, name, updatedAt: now });
    if (!sameMembers)
      await setApproverGroupMembers(tx, { tenantId: input.tenantId, groupId: input.groupId, userIds: memberIds, createdAt: now });
    const updated = await findApproverGroupOr404(tx, { tenantId: input.tenantId, groupId: input.groupId });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "approver_group.updated",
      target: { type: "approver_group", id: input.groupId },
      details: {
        before: { name: current.row.name, memberIds: current.memberIds },
        after: { name: updated.row.name, memberIds: updated.memberIds },
      },
    });
    return toApproverGroupRecord(updated.row, updated.memberIds);
  });
}
