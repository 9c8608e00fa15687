import { deleteUsageBucketsBefore } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

const BATCH = 5000;
const DAY_MS = 86_400_000;

/**
 * How long usage buckets are kept: the longest velocity window a policy accepts (31 days), plus
 * the hour a window is widened to at its start and the daily quota's day — 32 days reach every
 * bucket any check can read (docs/decisions/usage-buckets.md).
 */
export const USAGE_RETENTION_DAYS = 32;

/**
 * Deletes the usage buckets no window can reach any more, in batches so that no statement holds
 * many row locks. Correctness never depends on it; it keeps the table's size proportional to
 * the retention, not to the service's age. Run daily by the daemon.
 */
export async function purgeOldUsageBuckets(
  deps: Pick<ServiceDeps, "db" | "now">,
  options: { maxBatches?: number } = {},
): Promise<{ removed: number; before: string }> {
  const before = new Date(deps.now().getTime() - USAGE_RETENTION_DAYS * DAY_MS);
  let removed = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 100); batch++) {
    const deleted = await deleteUsageBucketsBefore(deps.db, { before, limit: BATCH });
    removed += deleted;
    if (deleted < BATCH) break;
  }
  return { removed, before: before.toISOString() };
}
