import type { Transaction } from "../../../src/dashboard/router-types";

type Approvals = NonNullable<Transaction["approvals"]>;

/** How many approvals each required group has: one member's approval counts for every listed group they are in. */
export function approvedPerGroup(approvals: Approvals): Map<string, number> {
  return new Map(
    approvals.required.map(({ groupId }) => [
      groupId,
      approvals.decisions.filter((d) => d.decision === "APPROVED" && d.groupIds.includes(groupId)).length,
    ]),
  );
}
