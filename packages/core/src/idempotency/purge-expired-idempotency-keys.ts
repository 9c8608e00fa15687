import { deleteExpiredIdempotencyKeys } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

const BATCH = 1000;

/**
 * Deletes the idempotency keys whose 24 h retention has ended, in batches so that no statement
 * holds many row locks. Correctness never depends on it (an expired key is ignored and replaced
 * when it is used again); it only keeps the table small. Run hourly by the daemon.
 */
export async function purgeExpiredIdempotencyKeys(
  deps: Pick<ServiceDeps, "db" | "now">,
  options: { maxBatches?: number } = {},
): Promise<{ removed: number }> {
  const now = deps.now();
  let removed = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 100); batch++) {
    const deleted = await deleteExpiredIdempotencyKeys(deps.db, { now, limit: BATCH });
    removed += deleted;
    if (deleted < BATCH) break;
  }
  return { removed };
}
