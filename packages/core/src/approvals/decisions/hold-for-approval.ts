import type { Transaction } from "@qc/db";
import type { NewTransactionRow, TransactionRow } from "@qc/db/queries";
import type { Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import type { TransactionSimulation } from "../../records/record-schemas";
import { releaseNextJob } from "../../transfers/release-next-job";
import { transitionTransaction } from "../../transfers/transition-transaction";
import { jobRequest, type JobRequest } from "../../transitions/run-transition";

/** `transfers.expire` at the row's approval deadline: AWAITING_APPROVAL → EXPIRED / APPROVAL_TIMEOUT unless it moved on. */
export function approvalExpireJob(row: Pick<TransactionRow, "tenantId" | "id" | "approvalDeadline">): JobRequest {
  return jobRequest(
    "transfers.expire",
    { tenantId: row.tenantId, transactionId: row.id },
    { startAfter: row.approvalDeadline ?? new Date() },
  );
}

/** The approval deadline of a transfer whose checks decide REQUIRE_APPROVAL now: APPROVAL_TIMEOUT_SECONDS from the clock. */
export function approvalDeadlineFrom(deps: Pick<ServiceDeps, "now" | "config">): Date {
  return new Date(deps.now().getTime() + deps.config.transfers.approvalTimeoutSeconds * 1000);
}

/**
 * Moves a transfer to AWAITING_APPROVAL (CONTRACT §15): from SUBMITTED when its checks cleared it
 * under a REQUIRE_APPROVAL rule (`set`: the checks' fields, `approvals: {required, decisions: []}`,
 * `approvalDeadline`), or from QUEUED when its quorum no longer holds at release. The expire job
 * at the approval deadline follows, and release-next: AWAITING_APPROVAL holds no nonce and reserves
 * nothing, so a younger transfer of the source that waited behind this one goes on. The caller's
 * `simulation` (CONTRACT §20) is written by the same conditional UPDATE.
 */
export function holdForApproval(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: {
    row: Pick<TransactionRow, "tenantId" | "id">;
    from: "SUBMITTED" | "QUEUED";
    reason: string;
    set?: Partial<NewTransactionRow>;
    /** CONTRACT §20: its pre-sign simulation (`simulateTransactionRow`), made by the caller outside any database transaction. */
    simulation?: TransactionSimulation;
    actor: Actor;
  },
  tx?: Transaction,
) {
  return transitionTransaction(
    deps,
    {
      tenantId: input.row.tenantId,
      transactionId: input.row.id,
      from: [input.from],
      to: "AWAITING_APPROVAL",
      subStatus: null,
      reason: input.reason,
      set: { ...input.set, ...(input.simulation ? { simulation: input.simulation } : {}) },
      actor: input.actor,
      jobs: (moved) => [approvalExpireJob(moved), releaseNextJob(moved)],
    },
    tx,
  );
}
