import { findTransaction } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { releaseNextJob } from "./release-next-job";
import type { TransactionStatus } from "./transaction-status";
import { transitionTransaction } from "./transition-transaction";

export type ExpireTransactionResult =
  | { outcome: "expired" }
  /** The job ran before the deadline (clock skew, early delivery): another is scheduled at the deadline. */
  | { outcome: "not-due"; deadline: string }
  /** Signed, rejected, cancelled… or already expired: nothing to do. */
  | { outcome: "moved-on"; status: TransactionStatus | "UNKNOWN" };

/**
 * `transfers.expire`: PENDING_SIGNATURE → EXPIRED/SIGNING_TIMEOUT once the signing deadline has
 * passed, and the source's next queued transfer is released. Reads the row and the clock itself,
 * so a job that runs late, twice, or after the transaction moved on does the right thing; one
 * that runs early schedules itself again at the deadline.
 */
export async function expireTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; transactionId: string },
): Promise<ExpireTransactionResult> {
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row || row.status !== "PENDING_SIGNATURE") return { outcome: "moved-on", status: row?.status ?? "UNKNOWN" };
  const now = deps.now();
  if (row.signingDeadline && now < row.signingDeadline) {
    const deadline = row.signingDeadline;
    await deps.db.transaction((tx) =>
      deps.jobs.schedule(tx, "transfers.expire", input, { singletonKey: `expire:${row.id}`, startAfter: deadline }),
    );
    return { outcome: "not-due", deadline: deadline.toISOString() };
  }
  const outcome = await transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: input.transactionId,
    from: ["PENDING_SIGNATURE"],
    to: "EXPIRED",
    subStatus: "SIGNING_TIMEOUT",
    reason: "no signature before the signing deadline",
    actor: systemActor("transfers.expire"),
    jobs: (moved) => [releaseNextJob(moved)],
  });
  if (outcome.moved) return { outcome: "expired" };
  const current = await findTransaction(deps.db, input.tenantId, input.transactionId);
  return { outcome: "moved-on", status: current?.status ?? "UNKNOWN" };
}
