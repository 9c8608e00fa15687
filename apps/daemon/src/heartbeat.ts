import { hostname } from "node:os";
import { eq, schema, sql } from "@qc/db";
import type { DatabaseHandle } from "@qc/db";

export interface Heartbeat {
  beat(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Upserts this process's row in daemon_heartbeats every few seconds, so operators (and the
 * dashboard) see which daemons are alive, since when and which queues they serve.
 */
export function startHeartbeat(options: {
  database: DatabaseHandle;
  instanceId: string;
  queues: string[];
  intervalSeconds: number;
  version: string;
  now(): Date;
  onError(error: unknown): void;
}): Heartbeat {
  const { db } = options.database;
  const startedAt = options.now();
  const beat = async () => {
    const now = options.now();
    await db
      .insert(schema.daemonHeartbeats)
      .values({
        instanceId: options.instanceId,
        hostname: hostname(),
        pid: process.pid,
        version: options.version,
        queues: options.queues,
        startedAt,
        lastBeatAt: now,
      })
      .onConflictDoUpdate({
        target: schema.daemonHeartbeats.instanceId,
        set: { lastBeatAt: now, queues: options.queues, stoppedAt: sql`null` },
      });
  };
  const timer = setInterval(() => beat().catch(options.onError), options.intervalSeconds * 1000);
  timer.unref();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await db
        .update(schema.daemonHeartbeats)
        .set({ stoppedAt: options.now(), lastBeatAt: options.now() })
        .where(eq(schema.daemonHeartbeats.instanceId, options.instanceId));
    },
  };
}
