import type { TransactionRow } from "@qc/db/queries";
import { isNonceHoldingStatus } from "@qc/domain";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { TransitionOutcome } from "../transitions/run-transition";
import { releaseNextJob } from "./release-next-job";
import type { TransactionStatus, TransactionSubStatus } from "./transaction-status";
import { transitionTransaction } from "./transition-transaction";

/**
 * `from` → FAILED with `subStatus` and a human reason, through the one transition; a transfer
 * that ends while it holds its source's nonce (before broadcast) frees the source for the next
 * queued one (release-next). After broadcast the next one was released already, at the move to
 * BROADCASTING.
 */
export function failTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: {
    row: TransactionRow;
    from: TransactionStatus;
    subStatus: Extract<
      TransactionSubStatus,
      "SIGNATURE_MISMATCH" | "INSUFFICIENT_FUNDS" | "DROPPED_BY_CHAIN" | "REVERTED_ON_CHAIN" | "INTERNAL_ERROR"
    >;
    reason: string;
    actor: Actor;
    set?: Partial<TransactionRow>;
  },
): Promise<TransitionOutcome<TransactionRow>> {
  return transitionTransaction(deps, {
    tenantId: input.row.tenantId,
    transactionId: input.row.id,
    from: [input.from],
    to: "FAILED",
    subStatus: input.subStatus,
    reason: input.reason,
    actor: input.actor,
    ...(input.set ? { set: input.set } : {}),
    jobs: (row) => (isNonceHoldingStatus(input.from) ? [releaseNextJob(row)] : []),
  });
}
