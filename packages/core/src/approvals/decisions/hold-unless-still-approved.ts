import type { TransactionRow } from "@qc/db/queries";
import type { Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import type { CheckFields } from "../../transfers/check-subject";
import { approvalsNewlyRequired, type ApprovalRequirement } from "./count-approvals";
import { approvalDeadlineFrom, holdForApproval } from "./hold-for-approval";
import { verifyCountedApprovals } from "./verify-counted-approvals";
import { simulateTransactionRow } from "../../transfers/simulate-transfer";

/**
 * Before a QUEUED transfer that required approvals is released (CONTRACT §15): its approvals are
 * judged and verified again (`verifyCountedApprovals`). Still every group's quorum: undefined, the
 * release goes on. Short of one: QUEUED → AWAITING_APPROVAL with a reason naming why (history,
 * audit and `transaction.status_changed` come with the move), the expire job at its approval
 * deadline and release-next; the row moved back, or "MOVED_ON" when another step moved it first.
 * A transfer that required no approval is released as before.
 */
export async function holdUnlessStillApproved(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "verifier" | "log" | "chain">,
  row: TransactionRow,
  actor: Actor,
): Promise<TransactionRow | "MOVED_ON" | undefined> {
  if (!row.approvals) return undefined;
  const counted = await verifyCountedApprovals(deps, row);
  if (counted.met) return undefined;
  deps.log.warn({ tenantId: row.tenantId, transactionId: row.id, reason: counted.reason }, "approval quorum no longer met: not released");
  const simulation = await simulateTransactionRow(deps, row);
  const held = await holdForApproval(deps, { row, from: "QUEUED", reason: counted.reason, simulation, actor });
  return held.moved ? held.row : "MOVED_ON";
}

/**
 * After a QUEUED transfer's policy was decided again before release (`recheckTransfer`): when a
 * REQUIRE_APPROVAL rule now matches and requires other groups or quorums than the transfer was
 * approved for — or any, for a transfer that needed none — it is not released but held for
 * approval again (QUEUED → AWAITING_APPROVAL, the checks' new fields, `approvals.required` now
 * the rule's, the decisions taken so far kept: they count only for the groups they were given
 * for). Its approval deadline stays when it had one, else runs from now. Undefined: release on.
 */
export async function holdIfNewlyRequired(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "log" | "chain">,
  row: TransactionRow,
  recheck: { checks: CheckFields; approvals?: ApprovalRequirement[] },
  actor: Actor,
): Promise<TransactionRow | "MOVED_ON" | undefined> {
  const required = recheck.approvals;
  if (!required || !approvalsNewlyRequired(row, required)) return undefined;
  const reason = row.approvals
    ? "the policy decided again before release requires other approvals than those given"
    : "the policy decided again before release now requires approval";
  deps.log.warn({ tenantId: row.tenantId, transactionId: row.id, required }, `${reason}: not released`);
  const simulation = await simulateTransactionRow(deps, row);
  const held = await holdForApproval(deps, {
    row,
    from: "QUEUED",
    reason,
    simulation,
    set: {
      ...recheck.checks,
      approvals: { required, decisions: row.approvals?.decisions ?? [] },
      approvalDeadline: row.approvalDeadline ?? approvalDeadlineFrom(deps),
    },
    actor,
  });
  return held.moved ? held.row : "MOVED_ON";
}
