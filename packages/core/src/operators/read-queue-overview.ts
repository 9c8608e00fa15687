import type { Database } from "@qc/db";
import { readQueueCounts, readQueueThroughput } from "@qc/db/queries";

export interface QueuePoint {
  /** Start of the bucket, RFC 3339. */
  at: string;
  created: number;
  completed: number;
  failed: number;
}

export interface QueueOverview {
  name: string;
  /** The queue its jobs go to when they fail for good (null: none). */
  deadLetterQueue: string | null;
  /** Waiting jobs, due or scheduled later (pg-boss `created` and `retry`). */
  queued: number;
  /** Of those, due now: the real backlog. */
  ready: number;
  active: number;
  failed: number;
  /** Waiting in the dead-letter queue for an operator. */
  deadLettered: number;
  /** Seconds the oldest due job has waited; null with none waiting. */
  oldestReadyAgeSeconds: number | null;
  /** Jobs per bucket over the window, oldest first, every bucket present. */
  series: QueuePoint[];
}

export interface QueuesOverview {
  generatedAt: string;
  windowMinutes: number;
  bucketSeconds: number;
  queues: QueueOverview[];
}

/**
 * Every job queue with its live counts, the age of its oldest due job and its throughput over
 * the last `windowMinutes` (created, completed and failed per bucket): what the operators'
 * console shows and what `GET /metrics` exports.
 */
export async function readQueuesOverview(
  deps: { db: Database; now(): Date },
  options: { windowMinutes?: number; bucketSeconds?: number } = {},
): Promise<QueuesOverview> {
  const windowMinutes = options.windowMinutes ?? 60;
  const bucketSeconds = options.bucketSeconds ?? 60;
  const now = deps.now();
  const bucketMs = bucketSeconds * 1000;
  // Buckets are aligned to the bucket size, so consecutive reads chart the same buckets.
  const since = new Date(Math.floor((now.getTime() - windowMinutes * 60_000) / bucketMs) * bucketMs + bucketMs);
  const [counts, throughput] = await Promise.all([
    readQueueCounts(deps.db, { now }),
    readQueueThroughput(deps.db, { since, bucketSeconds }),
  ]);
  const buckets = Math.floor((now.getTime() - since.getTime()) / bucketMs) + 1;
  const byQueue = new Map<string, Map<number, { created: number; completed: number; failed: number }>>();
  for (const row of throughput) {
    const points = byQueue.get(row.name) ?? new Map();
    points.set(row.at.getTime(), row);
    byQueue.set(row.name, points);
  }
  return {
    generatedAt: now.toISOString(),
    windowMinutes,
    bucketSeconds,
    queues: counts.map((queue) => {
      const points = byQueue.get(queue.name);
      const series = Array.from({ length: buckets }, (_, i) => {
        const at = since.getTime() + i * bucketMs;
        const point = points?.get(at);
        return {
          at: new Date(at).toISOString(),
          created: point?.created ?? 0,
          completed: point?.completed ?? 0,
          failed: point?.failed ?? 0,
        };
      });
      return {
        name: queue.name,
        deadLetterQueue: queue.deadLetter,
        queued: queue.queued,
        ready: queue.ready,
        active: queue.active,
        failed: queue.failed,
        deadLettered: queue.deadLettered,
        oldestReadyAgeSeconds: queue.oldestReadyAt ? Math.max(0, Math.round((now.getTime() - queue.oldestReadyAt.getTime()) / 1000)) : null,
        series,
      };
    }),
  };
}
