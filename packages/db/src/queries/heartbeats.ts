import { and, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { daemonHeartbeats } from "../schema/system";

export type HeartbeatRow = typeof daemonHeartbeats.$inferInsert;

/** Inserts or refreshes a daemon's heartbeat row (and clears a previous stop). */
export async function upsertHeartbeat(db: Executor, row: HeartbeatRow): Promise<void> {
  await db
    .insert(daemonHeartbeats)
    .values(row)
    .onConflictDoUpdate({
      target: daemonHeartbeats.instanceId,
      set: { lastBeatAt: row.lastBeatAt, queues: row.queues, stoppedAt: sql`null` },
    });
}

export async function markHeartbeatStopped(db: Executor, instanceId: string, at: Date): Promise<void> {
  await db.update(daemonHeartbeats).set({ stoppedAt: at, lastBeatAt: at }).where(eq(daemonHeartbeats.instanceId, instanceId));
}

/** Deletes rows of daemons stopped or silent since before `cutoff`; returns how many. */
export async function deleteStaleHeartbeats(db: Executor, cutoff: Date): Promise<number> {
  const removed = await db
    .delete(daemonHeartbeats)
    .where(or(lt(daemonHeartbeats.lastBeatAt, cutoff), and(isNotNull(daemonHeartbeats.stoppedAt), lt(daemonHeartbeats.stoppedAt, cutoff))))
    .returning({ instanceId: daemonHeartbeats.instanceId });
  return removed.length;
}
