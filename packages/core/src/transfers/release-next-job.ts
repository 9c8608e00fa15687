import type { Executor } from "@qc/db";
import { findSourcesWithQueued, type TransactionRow } from "@qc/db/queries";
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
 * The same job as `releaseNextJob`, due now, at most one waiting per source (`JobQueue.schedule`),
 * for the sources of `rows` with a transfer waiting in QUEUED (`findSourcesWithQueued`): for the
 * watcher's moves to CONFIRMING, which free window slots in bursts — a block that mines a window's
 * worth of one source frees as many, and one run releases into all of them. A mined transaction
 * used its nonce, so it leaves no gap to fill: a source with nothing queued has nothing for the run
 * to do, and gets no job (most blocks, most sources). A run already started does not absorb it: a
 * move after that run's reads gets a waiting job of its own.
 *
 * A transfer queued by a release that commits while this move's transaction is open is not seen
 * here; its own move to QUEUED enqueued release-next, which releases it when this move has
 * committed, or, finding the window still full, looks again `watchIntervalMs` later
 * (`releaseNextQueued`): never lost, at worst that much later.
 */
export async function scheduleReleaseNextForQueued(
  deps: Pick<ServiceDeps, "jobs">,
  tx: Executor,
  rows: readonly Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode">[],
): Promise<void> {
  const sources = new Map(
    rows.map((row) => outboundSource(row)).map((source) => [`${source.sourceWalletId}:${source.networkCode}`, source]),
  );
  for (const source of await findSourcesWithQueued(tx, [...sources.values()])) {
    await deps.jobs.schedule(tx, "transfers.release-next", source, {
      singletonKey: `release-next:${source.sourceWalletId}:${source.networkCode}`,
    });
  }
}
