import { findTransferCheckRows, type TransactionRow } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { approvalsNewlyRequired } from "../approvals/decisions/count-approvals";
import type { ApprovalRequirement } from "../policies/policy-document";
import type { CheckFields } from "./check-subject";
import { checkFields, decideTransferPolicyAndScreening } from "./decide-transfer-checks";
import { releaseNextJob } from "./release-next-job";
import { transitionTransaction } from "./transition-transaction";

type RecheckDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "log">;

export type RecheckOutcome =
  /** Decided less than RECHECK_AFTER_SECONDS ago: nothing was asked (no statement, no provider call). */
  | { status: "FRESH" }
  /**
   * Decided again and still cleared: the move that follows writes `checks` (policy, screening,
   * checkedAt). `approvals`: the groups a REQUIRE_APPROVAL rule that matched now requires.
   */
  | { status: "CLEARED"; checks: CheckFields; approvals?: ApprovalRequirement[] }
  /** Refused now: ended BLOCKED (or FAILED, its source gone), with release-next for the source's next transfer. */
  | { status: "BLOCKED" | "FAILED"; transaction: TransactionRow }
  /** The row left `from` meanwhile (cancelled, expired, moved by another worker): nothing done. */
  | { status: "MOVED_ON" };

/** Whether the row's policy and screening decision is younger than `recheckAfterSeconds` (0: never). */
export function isDecisionFresh(deps: Pick<ServiceDeps, "now" | "config">, row: Pick<TransactionRow, "checkedAt">): boolean {
  const maxAgeMs = deps.config.transfers.recheckAfterSeconds * 1000;
  return row.checkedAt !== null && deps.now().getTime() - row.checkedAt.getTime() < maxAgeMs;
}

/**
 * Takes a waiting transfer's policy and screening decision again before value moves: before a
 * QUEUED transfer is released for signing and before a SIGNED one is broadcast, when the decision
 * is older than RECHECK_AFTER_SECONDS (docs/decisions/transfers.md, "Checked again before value
 * moves"). The transfer may have waited hours behind a slow signer; meanwhile its destination may
 * have been denylisted (the tenant's list, SCREENING_DENYLIST after a restart, the provider) or
 * the policy tightened.
 *
 * The same code as the checks (`decideTransferPolicyAndScreening`, for every kind), so a
 * provider outage retries and then fails closed exactly as there, its attempts counted while the
 * row stays in `from`; velocity windows end at the transfer's creation and count it once, so a
 * re-run never counts the transfer against itself twice. Quotas (configuration, fixed for the
 * process) and the balance (the release asks the chain again; the broadcast is the node's to
 * refuse) are not taken again.
 *
 * A refusal ends the transfer as the checks would (`BLOCKED` with `BLOCKED_BY_POLICY` or
 * `REJECTED_AML_SCREENING`; history, audit, `transaction.status_changed`), conditionally on `from`,
 * with release-next in the same database transaction: a QUEUED transfer held no nonce; a SIGNED
 * one held its source's nonce slot but was never sent, so the next transfer is released with that
 * same nonce — no gap, as after a cancel or an expiry. A SIGNED transfer that a REQUIRE_APPROVAL
 * rule now holds for approvals it was not given (CONTRACT §15) is refused the same way
 * (BLOCKED_BY_POLICY): it cannot go back to its approvers once signed. A QUEUED one is sent back
 * to them by the release (`holdIfNewlyRequired`).
 */
export async function recheckTransfer(
  deps: RecheckDeps,
  input: { row: TransactionRow; from: "QUEUED" | "SIGNED"; actor: Actor },
): Promise<RecheckOutcome> {
  if (input.row.status !== input.from) return { status: "MOVED_ON" };
  if (isDecisionFresh(deps, input.row)) return { status: "FRESH" };
  const loaded = await findTransferCheckRows(deps.db, { tenantId: input.row.tenantId, transactionId: input.row.id });
  if (!loaded || loaded.transaction.status !== input.from) return { status: "MOVED_ON" };
  const row = loaded.transaction;

  const decidedAt = deps.now();
  let decision;
  try {
    decision = await decideTransferPolicyAndScreening(deps, loaded, input.from);
  } catch (error) {
    // The provider was down and the row left `from` before its attempt was counted.
    if (error instanceof AppError && error.error === "INVALID_TRANSACTION_STATE") return { status: "MOVED_ON" };
    throw error;
  }
  if (decision.outcome === "CLEARED" && input.from === "SIGNED" && approvalsNewlyRequired(row, decision.policy.approvals)) {
    // Signed after release, it cannot go back to its approvers without a new signature: ended.
    decision = {
      ...decision,
      outcome: "BLOCKED",
      subStatus: "BLOCKED_BY_POLICY",
      reason: `${decision.policy.reason}: the approvals it now requires were not given before it was signed`,
    } as const;
  }
  const checks = checkFields(decision, decidedAt);
  if (decision.outcome === "CLEARED")
    return { status: "CLEARED", checks, ...(decision.policy.approvals ? { approvals: decision.policy.approvals } : {}) };

  deps.log.warn(
    { tenantId: row.tenantId, transactionId: row.id, from: input.from, subStatus: decision.subStatus, checkedAt: row.checkedAt },
    "decision taken again before value moves refused the transfer: ended, nothing sent",
  );
  const ended = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: [input.from],
    to: decision.outcome,
    subStatus: decision.subStatus,
    reason: decision.reason,
    set: checks,
    actor: input.actor,
    jobs: (moved) => [releaseNextJob(moved)],
  });
  return ended.moved ? { status: decision.outcome, transaction: ended.row } : { status: "MOVED_ON" };
}
