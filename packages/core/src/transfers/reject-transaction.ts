import { findTransaction } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { TransactionRecord } from "../records/record-schemas";
import { releaseNextJob } from "./release-next-job";
import { toTransactionRecord } from "./transaction-record";
import { transitionTransaction } from "./transition-transaction";

/**
 * The signer's refusal (CONTRACT §6): PENDING_SIGNATURE → REJECTED/REJECTED_BY_SIGNER with the
 * signer's reason as `statusReason`, and the source's next queued transfer released. 404 for an
 * unknown (or another tenant's) transaction, 409 INVALID_TRANSACTION_STATE from any other status.
 */
export async function rejectTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; transactionId: string; reason: string; actor: Actor },
): Promise<TransactionRecord> {
  const outcome = await transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: input.transactionId,
    from: ["PENDING_SIGNATURE"],
    to: "REJECTED",
    subStatus: "REJECTED_BY_SIGNER",
    reason: input.reason,
    actor: input.actor,
    jobs: (row) => [releaseNextJob(row)],
  });
  if (outcome.moved) return toTransactionRecord(outcome.row);
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row) throw new AppError("NOT_FOUND", "transaction not found");
  throw new AppError("INVALID_TRANSACTION_STATE", `the transaction is ${row.status}, not PENDING_SIGNATURE`, {
    details: { status: row.status },
  });
}
