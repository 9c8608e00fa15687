import type { Executor } from "@qc/db";
import { lockApproverGroupSizes } from "@qc/db/queries";
import { AppError, type FieldError } from "../../errors";
import type { PolicyDocument } from "../../policies/policy-document";

/**
 * A policy about to be stored (CONTRACT §15): every `approvals[M]` of every rule N must name one
 * of the tenant's approver groups, with a quorum no larger than the group's size now; otherwise
 * 400 VALIDATION_FAILED with a field `rules.N.approvals.M` for each. The groups named are locked
 * FOR SHARE until the policy commits, so none is deleted or shrunk below its quorum meanwhile.
 * (A group may still shrink later through a member's removal: the policy then blocks at evaluation.)
 */
export async function assertPolicyApprovalsMeetable(db: Executor, tenantId: string, document: PolicyDocument): Promise<void> {
  const groupIds = [...new Set(document.rules.flatMap((rule) => (rule.approvals ?? []).map((a) => a.groupId)))];
  if (groupIds.length === 0) return;
  const sizes = await lockApproverGroupSizes(db, { tenantId, groupIds });
  const fields: FieldError[] = [];
  document.rules.forEach((rule, n) =>
    rule.approvals?.forEach(({ groupId, quorum }, m) => {
      const size = sizes.get(groupId);
      const path = `rules.${n}.approvals.${m}`;
      if (size === undefined) fields.push({ path, message: `approver group ${groupId} is not one of the tenant's groups` });
      else if (quorum > size)
        fields.push({ path, message: `quorum ${quorum} is above the ${size} member(s) approver group ${groupId} has now` });
    }),
  );
  if (fields.length > 0) {
    throw new AppError("VALIDATION_FAILED", `invalid policy: ${fields.map((f) => `${f.path}: ${f.message}`).join("; ")}`, {
      details: { fields },
    });
  }
}
