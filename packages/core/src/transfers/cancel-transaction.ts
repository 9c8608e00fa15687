import { findTransaction } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { TransactionRecord } from "../records/record-schemas";
import { releaseNextJob } from "./release-next-job";
import { toTransactionRecord } from "./transaction-record";
import { CANCELLABLE_STATUSES } from "./transaction-status";
import { transitionTransaction } from "./transition-transaction";

/**
 * `POST /v1/transactions/{id}/cancel`: SUBMITTED, AWAITING_APPROVAL, QUEUED or PENDING_SIGNATURE → CANCELLED /
 * CANCELLED_BY_USER, then the source's next queued transfer is released (release-next), so a
 * cancelled transfer never leaves a nonce gap. Any other status is 409 INVALID_TRANSACTION_STATE
 * (e.g. once signed), and so is any deposit (INBOUND, CONTRACT §21); another tenant's id is 404.
 */
export async function cancelTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; transactionId: string; reason?: string | undefined; actor: Actor },
): Promise<TransactionRecord> {
  const moved = await transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: input.transactionId,
    from: CANCELLABLE_STATUSES,
    to: "CANCELLED",
    subStatus: "CANCELLED_BY_USER",
    reason: input.reason ?? "cancelled by the user",
    actor: input.actor,
    jobs: (row) => [releaseNextJob(row)],
  });
  if (moved.moved) return toTransactionRecord(moved.row);
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row) throw new AppError("NOT_FOUND", "transaction not found");
  // A deposit (CONTRACT §21) is never in a cancellable status: it was received, not sent.
  if (row.direction === "INBOUND")
    throw new AppError("INVALID_TRANSACTION_STATE", "a deposit cannot be cancelled: it was received on chain, not sent by the service", {
      details: { status: row.status, type: row.type },
    });
  throw new AppError(
    "INVALID_TRANSACTION_STATE",
    `a ${row.status} transaction cannot be cancelled; only ${CANCELLABLE_STATUSES.join(", ")} can`,
    {
      details: { status: row.status },
    },
  );
}
