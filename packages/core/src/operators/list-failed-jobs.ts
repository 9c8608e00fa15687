import type { Database } from "@qc/db";
import { listFailedJobs as selectFailedJobs } from "@qc/db/queries";
import type { FailedJobStatus } from "@qc/domain";

export interface FailedJob {
  id: string;
  /** Where the job is now: a dead-letter queue (`<queue>.dead`) or its own queue. */
  queue: string;
  /** The queue whose worker failed it. */
  sourceQueue: string;
  /** DEAD_LETTERED: failed for good, kept for an operator; RETRYING: failed an attempt, retried at `nextAttemptAt`; FAILED: failed for good in a queue without a dead-letter queue. */
  status: FailedJobStatus;
  retryCount: number;
  createdAt: string;
  failedAt: string | null;
  nextAttemptAt: string | null;
  /** The worker's error message, when it left one. */
  error: string | null;
}

/** Jobs an operator may retry or cancel, newest failure first. */
export async function listFailedJobs(deps: { db: Database }, options: { limit?: number } = {}): Promise<FailedJob[]> {
  const rows = await selectFailedJobs(deps.db, { limit: options.limit ?? 100 });
  return rows.map((row) => ({
    id: row.id,
    queue: row.queue,
    sourceQueue: row.sourceQueue,
    status: row.deadLettered ? "DEAD_LETTERED" : row.state === "retry" ? "RETRYING" : "FAILED",
    retryCount: row.retryCount,
    createdAt: row.createdOn.toISOString(),
    failedAt: row.failedOn?.toISOString() ?? null,
    nextAttemptAt: row.state === "retry" ? row.startAfter.toISOString() : null,
    error: errorOf(row.output),
  }));
}

function errorOf(output: unknown): string | null {
  if (output && typeof output === "object") {
    const value = (output as { error?: unknown; message?: unknown }).error ?? (output as { message?: unknown }).message;
    if (typeof value === "string") return value.slice(0, 500);
  }
  return null;
}
