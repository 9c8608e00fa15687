import type { Database } from "@qc/db";
import { listDaemonHeartbeats } from "@qc/db/queries";
import type { DaemonInstanceStatus } from "@qc/domain";

export interface DaemonInstance {
  instanceId: string;
  hostname: string;
  pid: number;
  version: string;
  queues: string[];
  startedAt: string;
  lastBeatAt: string;
  lastBeatAgeSeconds: number;
  stoppedAt: string | null;
  /** RUNNING: beat within `silentAfterSeconds`; SILENT: no beat since (crashed or cut off); STOPPED: said goodbye. */
  status: DaemonInstanceStatus;
}

/**
 * Every daemon that has beaten recently enough to still have a row (stale rows are pruned after
 * a week by `maintenance.prune-heartbeats`), most recent beat first.
 */
export async function listDaemonInstances(
  deps: { db: Database; now(): Date },
  options: { silentAfterSeconds?: number } = {},
): Promise<DaemonInstance[]> {
  const silentAfterMs = (options.silentAfterSeconds ?? 30) * 1000;
  const now = deps.now().getTime();
  const rows = await listDaemonHeartbeats(deps.db);
  return rows.map((row) => {
    const age = now - row.lastBeatAt.getTime();
    return {
      instanceId: row.instanceId,
      hostname: row.hostname,
      pid: row.pid,
      version: row.version,
      queues: row.queues,
      startedAt: row.startedAt.toISOString(),
      lastBeatAt: row.lastBeatAt.toISOString(),
      lastBeatAgeSeconds: Math.max(0, Math.round(age / 1000)),
      stoppedAt: row.stoppedAt?.toISOString() ?? null,
      status: row.stoppedAt ? "STOPPED" : age > silentAfterMs ? "SILENT" : "RUNNING",
    };
  });
}
