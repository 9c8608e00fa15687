import { hostname } from "node:os";
import type { Executor } from "@qc/db";
import { markHeartbeatStopped, upsertHeartbeat } from "@qc/db/queries";

export interface Heartbeat {
  beat(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Upserts this process's row in daemon_heartbeats every few seconds, so operators (and the
 * dashboard) see which daemons are alive, since when and which queues they serve.
 */
export function startHeartbeat(options: {
  db: Executor;
  instanceId: string;
  queues: string[];
  intervalSeconds: number;
  version: string;
  now(): Date;
  onError(error: unknown): void;
}): Heartbeat {
  const startedAt = options.now();
  const beat = () =>
    upsertHeartbeat(options.db, {
      instanceId: options.instanceId,
      hostname: hostname(),
      pid: process.pid,
      version: options.version,
      queues: options.queues,
      startedAt,
      lastBeatAt: options.now(),
    });
  const timer = setInterval(() => beat().catch(options.onError), options.intervalSeconds * 1000);
  timer.unref();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await markHeartbeatStopped(options.db, options.instanceId, options.now());
    },
  };
}
