import type { TransactionRow } from "@qc/db/queries";
import { jobRequest, type JobRequest } from "../transitions/run-transition";
import { outboundSource } from "./outbound-source";

/**
 * The job that releases the source's QUEUED transfers into its nonce window and fills the nonces
 * left unused (`releaseNextQueued`); enqueued by every move that may free a slot of the window or
 * leave a nonce unused, in that move's database transaction.
 */
export function releaseNextJob(row: Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode">): JobRequest {
  return jobRequest("transfers.release-next", outboundSource(row));
}
