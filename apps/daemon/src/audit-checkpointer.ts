import { checkpointAuditChains, type Logger } from "@qc/core";
import type { JobContext } from "./context";

export interface AuditCheckpointer {
  /** One sweep now (also what the timer runs); a sweep already running is awaited, not doubled. */
  sweep(): Promise<void>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Seals and signs the audit chains every `intervalSeconds` (AUDIT_CHECKPOINT_SECONDS, CONTRACT
 * §19): each sweep seals every tenant with unsealed rows and signs a checkpoint for each whose
 * head is beyond its last one (checkpointAuditChains). Every daemon runs it: concurrent sweeps
 * wait on the tenants' head locks and the unique (tenant, sequence) index keeps one checkpoint
 * per sequence, so more daemons only mean more chances, never a duplicate or a failure.
 */
export function startAuditCheckpointer(ctx: JobContext, options: { intervalSeconds: number; log: Logger }): AuditCheckpointer {
  const log = options.log.child({ task: "audit.checkpoint" });
  const deps = { db: ctx.database.db, config: ctx.config, now: ctx.now, log };
  let running: Promise<void> | undefined;
  const sweep = () =>
    (running ??= checkpointAuditChains(deps)
      .then(
        ({ tenants, failed }) => {
          if (tenants > 0) log.debug({ tenants, failed }, "audit chains checkpointed");
        },
        (err: unknown) => log.error({ err }, "audit checkpoint sweep failed"),
      )
      .finally(() => {
        running = undefined;
      }));
  const timer = setInterval(() => void sweep(), options.intervalSeconds * 1000);
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
