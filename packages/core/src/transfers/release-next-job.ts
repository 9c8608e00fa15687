import type { TransactionRow } from "@qc/db/queries";
import { jobRequest, type JobRequest } from "../transitions/run-transition";
import { outboundSource } from "./outbound-source";

/** The job that releases the source's next QUEUED transfer; enqueued whenever its nonce slot may have freed. */
export function releaseNextJob(row: Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode">): JobRequest {
  return jobRequest("transfers.release-next", outboundSource(row));
}
