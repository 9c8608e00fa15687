import type { Executor } from "@qc/db";
import type { TransactionRow } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
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

/**
 * The same job as `releaseNextJob`, due now, but at most one waiting per source (`JobQueue.schedule`):
 * for moves that come in bursts — a block that mines a window's worth of one source frees as many
 * slots, and one run releases into all of them. A run already started does not absorb it: a move
 * after that run's reads gets a waiting job of its own.
 */
export function scheduleReleaseNext(
  deps: Pick<ServiceDeps, "jobs">,
  tx: Executor,
  row: Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode">,
): Promise<void> {
  const source = outboundSource(row);
  return deps.jobs.schedule(tx, "transfers.release-next", source, {
    singletonKey: `release-next:${source.sourceWalletId}:${source.networkCode}`,
  });
}
