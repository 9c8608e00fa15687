import { deleteApproverGroup as deleteApproverGroupRow } from "@qc/db/queries";
import { auditAction, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { findApproverGroupOr404 } from "./approver-group-record";
import { conflictWithGroupHolders } from "./policy-needs";

/**
 * `DELETE /v1/approver-groups/{id}` (204): the group and its memberships go, audited as
 * `approver_group.deleted` with its members. A group the tenant's current policy still names, or its
 * address-book setting `additionsRequireApproval`, is 409 CONFLICT naming them (change them first: a
 * rule that needs a missing group would block every transfer it matches). The group's row is locked
 * FOR UPDATE before the policy and the setting are read, and a policy replacement or setting that
 * names the group locks it FOR SHARE, so the two cannot cross.
 */
export async function deleteApproverGroup(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; groupId: string; actor: Actor },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const { row, memberIds } = await findApproverGroupOr404(tx, { ...input, lock: true });
    const conflict = await conflictWithGroupHolders(tx, input.tenantId, input.groupId, null);
    if (conflict) throw conflict;
    await deleteApproverGroupRow(tx, input);
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "approver_group.deleted",
      target: { type: "approver_group", id: row.id },
      details: { name: row.name, memberIds },
    });
  });
}
