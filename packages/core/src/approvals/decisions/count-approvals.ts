import type { ApprovalStanding, TransactionApprovalRow, TransactionRow } from "@qc/db/queries";

/** A decision (on a transaction or an address-book entry) with its standing now: what counting reads. */
export type JudgedApproval = Pick<TransactionApprovalRow, "userId" | "decision" | "groupIds" | "keyId" | "signature"> & ApprovalStanding;

export interface ApprovalRequirement {
  groupId: string;
  quorum: number;
}

/**
 * Why an approval no longer counts, or null when it does (CONTRACT §14, §15): a rejection is no
 * approval; an approval by a member removed since, or signed with a key revoked since, counts for
 * nothing not yet released.
 */
export function whyApprovalDoesNotCount(approval: JudgedApproval): string | null {
  if (approval.decision !== "APPROVED") return "not an approval";
  if (approval.memberRemoved) return `the approval of member ${approval.userId} no longer counts: the member was removed`;
  if (!approval.publicKey || !approval.signature) return `the approval of member ${approval.userId} has no key or signature`;
  if (approval.keyRevokedAt)
    return `the approval of member ${approval.userId} no longer counts: approval key ${approval.keyId} was revoked`;
  return null;
}

/**
 * The groups an approval counts for: those it was given for (the required groups its member was
 * in when deciding) that the member is still in. One member's approval counts once for each.
 */
export function groupsCountedFor(approval: Pick<JudgedApproval, "groupIds" | "currentGroupIds">): string[] {
  const now = new Set(approval.currentGroupIds);
  return approval.groupIds.filter((groupId) => now.has(groupId));
}

export interface QuorumTally {
  met: boolean;
  /** Per required group: its quorum and how many approvals count for it. */
  groups: { groupId: string; quorum: number; approvals: number }[];
}

/** Whether every required group reached its quorum with `approvals` (the ones that count). */
export function tallyQuorum(
  required: readonly ApprovalRequirement[],
  approvals: readonly Pick<JudgedApproval, "groupIds" | "currentGroupIds">[],
): QuorumTally {
  const counts = new Map<string, number>();
  for (const approval of approvals) for (const groupId of groupsCountedFor(approval)) counts.set(groupId, (counts.get(groupId) ?? 0) + 1);
  const groups = required.map(({ groupId, quorum }) => ({ groupId, quorum, approvals: counts.get(groupId) ?? 0 }));
  return { met: groups.every((group) => group.approvals >= group.quorum), groups };
}

/** "group <id> has 1 of 2 approvals, …" for the groups short of their quorum. */
export function describeShortfall(tally: QuorumTally): string {
  return tally.groups
    .filter((group) => group.approvals < group.quorum)
    .map((group) => `approver group ${group.groupId} has ${group.approvals} of ${group.quorum} approval(s)`)
    .join("; ");
}

const requirementKey = (required: readonly ApprovalRequirement[]) => JSON.stringify(required.map((r) => [r.groupId, r.quorum]).sort());

/**
 * Whether a policy decided again (its REQUIRE_APPROVAL rule's `required`, or none) asks for
 * approvals the transaction was not held for: any, for one that needed none; other groups or
 * quorums, for one that was approved under another rule.
 */
export function approvalsNewlyRequired(row: Pick<TransactionRow, "approvals">, required: readonly ApprovalRequirement[] | undefined) {
  if (!required) return false;
  return !row.approvals || requirementKey(row.approvals.required) !== requirementKey(required);
}
