import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { TransitionOutcome } from "../transitions/run-transition";
import type { TransactionRow } from "@qc/db/queries";
import { releaseNextJob } from "./release-next-job";
import { transitionTransaction } from "./transition-transaction";

/**
 * A transfer whose checks could not complete (the `transfers.check` job used up its retries: a
 * chain RPC or another dependency stayed down) ends FAILED/INTERNAL_ERROR with the reason, rather
 * than waiting in SUBMITTED forever: fail closed, nothing was released for signing or sent; the
 * source's transfers queued behind it get release-next. A transfer that moved on meanwhile is
 * left as it is (`moved: false`).
 */
export function failUncheckedTransfer(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; transactionId: string; lastError?: string; actor: Actor },
): Promise<TransitionOutcome<TransactionRow>> {
  const cause = input.lastError ? `: ${input.lastError.slice(0, 200)}` : "";
  return transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: input.transactionId,
    from: ["SUBMITTED"],
    to: "FAILED",
    subStatus: "INTERNAL_ERROR",
    reason: `the checks could not complete after every retry${cause}; nothing was sent`,
    actor: input.actor,
    // Younger transfers of the source wait for this one (release is in creation order).
    jobs: (row) => [releaseNextJob(row)],
  });
}
