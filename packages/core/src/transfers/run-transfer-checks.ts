import { findTransferCheckRows } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { approvalDeadlineFrom, holdForApproval } from "../approvals/decisions/hold-for-approval";
import { AppError } from "../errors";
import type { TransferCheckDecision } from "./check-subject";
import { checkFields, decideTransferChecks, type CheckDeps } from "./decide-transfer-checks";
import { releaseForSigning, type ReleaseOutcome } from "./release-for-signing";
import { releaseNextJob } from "./release-next-job";
import { simulateTransactionRow } from "./simulate-transfer";
import { transitionTransaction } from "./transition-transaction";

export type { DecidingStatus, TransferCheckDecision, TransferCheckRows } from "./check-subject";

export type TransferChecksOutcome =
  | { status: "SKIPPED"; reason: string }
  | { status: "BLOCKED" | "FAILED"; decision: TransferCheckDecision }
  /** Cleared under a REQUIRE_APPROVAL rule: waits for its approvers (CONTRACT §15). */
  | { status: "AWAITING_APPROVAL"; decision: TransferCheckDecision }
  | { status: "RELEASE"; decision: TransferCheckDecision; release: ReleaseOutcome };

/**
 * Job `transfers.check`: runs the checks of a SUBMITTED transfer and applies the decision: a
 * refusal ends BLOCKED (policy, screening, quota) or FAILED (insufficient funds) with its
 * subStatus, a human statusReason and the record's `policy` and `screening` (and release-next
 * for the source's transfers queued behind it); a cleared transfer goes to `releaseForSigning`,
 * unless a REQUIRE_APPROVAL rule cleared it: then it waits in AWAITING_APPROVAL for its approver
 * groups' quorums until APPROVAL_TIMEOUT_SECONDS from now (CONTRACT §15), holding no nonce, with
 * its pre-sign simulation (CONTRACT §20) for them to see.
 * A transfer that is no longer SUBMITTED is left alone.
 */
export async function runTransferChecks(
  deps: CheckDeps,
  input: { tenantId: string; transactionId: string },
): Promise<TransferChecksOutcome> {
  const loaded = await findTransferCheckRows(deps.db, input);
  if (!loaded) throw new AppError("NOT_FOUND", "transaction not found");
  const row = loaded.transaction;
  if (row.status !== "SUBMITTED") return { status: "SKIPPED", reason: `the transaction is ${row.status}` };
  // Taken before anything is asked: the age a later re-run measures is never understated.
  const decidedAt = deps.now();
  const decision = await decideTransferChecks(deps, loaded);
  const checks = checkFields(decision, decidedAt);
  if (decision.outcome === "CLEARED" && decision.policy.decision === "REQUIRE_APPROVAL") {
    // CONTRACT §20: the approvers see what it will do; asked before the move, outside its transaction.
    const simulation = await simulateTransactionRow(deps, row, { asset: loaded.asset });
    const held = await holdForApproval(deps, {
      row,
      from: "SUBMITTED",
      reason: decision.policy.reason,
      simulation,
      set: {
        ...checks,
        approvals: { required: decision.policy.approvals ?? [], decisions: [] },
        approvalDeadline: approvalDeadlineFrom(deps),
      },
      actor: systemActor("transfers.check"),
    });
    return held.moved ? { status: "AWAITING_APPROVAL", decision } : { status: "SKIPPED", reason: "the transaction has moved on" };
  }
  if (decision.outcome === "CLEARED") {
    return {
      status: "RELEASE",
      decision,
      // With what the balance check has just asked the chain: the release asks nothing again.
      release: await releaseForSigning(deps, {
        tenantId: row.tenantId,
        transactionId: row.id,
        from: "SUBMITTED",
        checks,
        loaded,
        quoted: decision.chain,
      }),
    };
  }
  const moved = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: ["SUBMITTED"],
    to: decision.outcome,
    subStatus: decision.subStatus,
    reason: decision.reason,
    set: checks,
    actor: systemActor("transfers.check"),
    // A younger transfer of the source may be queued behind this one (release is in creation order).
    jobs: (moved) => [releaseNextJob(moved)],
  });
  return moved.moved ? { status: decision.outcome, decision } : { status: "SKIPPED", reason: "the transaction has moved on" };
}
