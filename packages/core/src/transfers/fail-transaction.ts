import type { TransactionRow } from "@qc/db/queries";
import { isNonceHoldingStatus } from "@qc/domain";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { TransitionOutcome } from "../transitions/run-transition";
import { releaseNextJob } from "./release-next-job";
import type { TransactionStatus, TransactionSubStatus } from "./transaction-status";
import { transitionTransaction } from "./transition-transaction";

/**
 * `from` → FAILED with `subStatus` and a human reason, through the one transition; a transaction
 * that ends while it holds a nonce of its source's window (PENDING_SIGNATURE, SIGNED,
 * BROADCASTING — e.g. DROPPED_BY_CHAIN) frees a slot and may leave its nonce unused: release-next
 * releases the next queued transfer and fills what is left (docs/transfers.md). From CONFIRMING
 * (reverted on chain) the nonce was used and the slot freed at mining.
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
