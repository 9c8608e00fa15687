import type { Executor } from "@qc/db";
import { findCurrentPolicy } from "@qc/db/queries";
import { storedPolicyDocument } from "../../policies/policy-record";

/** A rule of the tenant's current policy that requires an approver group, with the quorum it needs. */
export interface GroupRequirement {
  ruleId: string;
  ruleName: string;
  quorum: number;
}

/** The current policy's REQUIRE_APPROVAL rules that name `groupId`, in the policy's order. */
export async function currentPolicyNeeds(db: Executor, tenantId: string, groupId: string): Promise<GroupRequirement[]> {
  const document = storedPolicyDocument(await findCurrentPolicy(db, { tenantId }));
  return document.rules.flatMap((rule) =>
    (rule.approvals ?? []).filter((a) => a.groupId === groupId).map((a) => ({ ruleId: rule.id, ruleName: rule.name, quorum: a.quorum })),
  );
}

/** How a refusal names the rules: `"Large transfers" (large)`, comma-separated. */
export const describeRules = (needs: readonly GroupRequirement[]) => needs.map((n) => `"${n.ruleName}" (${n.ruleId})`).join(", ");
