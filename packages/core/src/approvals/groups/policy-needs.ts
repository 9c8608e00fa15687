import type { Executor } from "@qc/db";
import { findAddressBookSettings, findCurrentPolicy } from "@qc/db/queries";
import { AppError } from "../../errors";
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

/** The quorum the tenant's address-book setting needs of `groupId` for additions, or null when it names another group or none. */
export async function addressBookSettingNeeds(db: Executor, tenantId: string, groupId: string): Promise<number | null> {
  const setting = await findAddressBookSettings(db, { tenantId });
  return setting?.approvalGroupId === groupId ? setting.approvalQuorum : null;
}

/**
 * 409 CONFLICT when what holds the group — the current policy's rules, the address book's
 * `additionsRequireApproval` setting — needs more of it than `memberCount` (null: the group is
 * being deleted), naming each; undefined when nothing stands in the way.
 */
export async function conflictWithGroupHolders(
  db: Executor,
  tenantId: string,
  groupId: string,
  memberCount: number | null,
): Promise<AppError | undefined> {
  const short = (quorum: number) => memberCount === null || quorum > memberCount;
  const rules = (await currentPolicyNeeds(db, tenantId, groupId)).filter((need) => short(need.quorum));
  const settingQuorum = await addressBookSettingNeeds(db, tenantId, groupId);
  const setting = settingQuorum !== null && short(settingQuorum) ? { additionsRequireApproval: { groupId, quorum: settingQuorum } } : null;
  if (rules.length === 0 && !setting) return undefined;
  const holders = [
    ...(rules.length > 0 ? [`the current policy (rule ${describeRules(rules)})`] : []),
    ...(setting ? [`the address book's setting additionsRequireApproval (quorum ${settingQuorum})`] : []),
  ].join(" and ");
  const quorum = Math.max(...rules.map((need) => need.quorum), settingQuorum ?? 0);
  const change = `change ${rules.length > 0 && setting ? "them" : setting ? "the setting" : "the policy"} first`;
  const message =
    memberCount === null
      ? `${holders} still requires this group: ${change}`
      : `${holders} needs ${quorum} approver(s) from this group; ${memberCount} member(s) would be left: ${change}`;
  return new AppError("CONFLICT", message, { details: { rules, ...(setting ? { settings: setting } : {}) } });
}
