import { findTransaction, type TransactionRow } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { releaseNextJob } from "./release-next-job";
import type { TransactionStatus } from "./transaction-status";
import { transitionTransaction } from "./transition-transaction";

export type ExpireTransactionResult =
  | { outcome: "expired"; subStatus: "SIGNING_TIMEOUT" | "APPROVAL_TIMEOUT" }
  /** The job ran before the deadline (clock skew, early delivery): another is scheduled at the deadline. */
  | { outcome: "not-due"; deadline: string }
  /** Signed, rejected, cancelled… or already expired: nothing to do. */
  | { outcome: "moved-on"; status: TransactionStatus | "UNKNOWN" };

/**
 * The two waits that end in EXPIRED, each with its deadline, subStatus, reason and the key of the
 * job that waits for it. The keys differ: an early approval-expiry's job, rescheduled at the
 * approval deadline, never takes the place of (or moves) the signing deadline's job.
 */
const EXPIRING = {
  PENDING_SIGNATURE: {
    deadline: (row: TransactionRow) => row.signingDeadline,
    subStatus: "SIGNING_TIMEOUT",
    reason: "no signature before the signing deadline",
    singletonKey: (id: string) => `expire:${id}`,
  },
  AWAITING_APPROVAL: {
    deadline: (row: TransactionRow) => row.approvalDeadline,
    subStatus: "APPROVAL_TIMEOUT",
    reason: "no approval quorum before the approval deadline",
    singletonKey: (id: string) => `expire-approval:${id}`,
  },
} as const;

const isExpiring = (status: TransactionStatus): status is keyof typeof EXPIRING => status in EXPIRING;

/**
 * `transfers.expire`: PENDING_SIGNATURE → EXPIRED/SIGNING_TIMEOUT once the signing deadline has
 * passed, AWAITING_APPROVAL → EXPIRED/APPROVAL_TIMEOUT once the approval deadline has (CONTRACT
 * §15), and the source's next queued transfer is released. Reads the row and the clock itself,
 * so a job that runs late, twice, or after the transaction moved on does the right thing; one
 * that runs early schedules itself again at the deadline of the status the row is in. The block
 * watcher's step runs it too, on the network's overdue PENDING_SIGNATURE rows (watch-confirmations.ts).
 */
export async function expireTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; transactionId: string },
): Promise<ExpireTransactionResult> {
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row || !isExpiring(row.status)) return { outcome: "moved-on", status: row?.status ?? "UNKNOWN" };
  const expiring = EXPIRING[row.status];
  const now = deps.now();
  const deadline = expiring.deadline(row);
  if (deadline && now < deadline) {
    await deps.db.transaction((tx) =>
      deps.jobs.schedule(tx, "transfers.expire", input, { singletonKey: expiring.singletonKey(row.id), startAfter: deadline }),
    );
    return { outcome: "not-due", deadline: deadline.toISOString() };
  }
  const outcome = await transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: input.transactionId,
    from: [row.status],
    to: "EXPIRED",
    subStatus: expiring.subStatus,
    reason: expiring.reason,
    actor: systemActor("transfers.expire"),
    jobs: (moved) => [releaseNextJob(moved)],
  });
  if (outcome.moved) return { outcome: "expired", subStatus: expiring.subStatus };
  const current = await findTransaction(deps.db, input.tenantId, input.transactionId);
  return { outcome: "moved-on", status: current?.status ?? "UNKNOWN" };
}
