import type { TransactionRow } from "@qc/db/queries";
import { jobRequest, type JobRequest } from "../transitions/run-transition";

/** The job that releases the source's next QUEUED transfer; enqueued whenever its nonce slot may have freed. */
export function releaseNextJob(row: Pick<TransactionRow, "tenantId" | "sourceWalletId" | "networkCode">): JobRequest {
  return jobRequest("transfers.release-next", { tenantId: row.tenantId, sourceWalletId: row.sourceWalletId, networkCode: row.networkCode });
}
