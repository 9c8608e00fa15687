import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { createJobQueue, JOBS, startBoss, type JobName, type JobQueue, type Logger } from "@qc/core";
import { createDatabase, type DatabaseHandle } from "@qc/db";
import type { Job, JobResult, PgBoss } from "pg-boss";
import { handlers as defaultHandlers, schedules as defaultSchedules, type JobHandlers } from "./catalog";
import type { DaemonConfig, JobContext } from "./context";
import { NonRetryableJobError } from "./errors";
import { startHeartbeat } from "./heartbeat";

export interface DaemonOptions {
  databaseUrl: string;
  log: Logger;
  instanceId?: string;
  heartbeatSeconds?: number;
  handlers?: Partial<JobHandlers>;
  schedules?: typeof defaultSchedules;
  now?: () => Date;
  version?: string;
  /** SMTP and sender settings; the defaults deliver to the dev outbox. */
  config?: Partial<DaemonConfig>;
}

export const DEFAULT_EMAIL_FROM = "Quantum Custody <no-reply@quantum-custody.localhost>";

export interface Daemon {
  instanceId: string;
  boss: PgBoss;
  jobs: JobQueue;
  database: DatabaseHandle;
  /** Finishes the jobs in hand (up to the timeout), then stops fetching and closes. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const log = options.log.child({ instanceId });
  const now = options.now ?? (() => new Date());
  const database = createDatabase({ url: options.databaseUrl, applicationName: "qc-daemon" });
  const boss = await startBoss({ url: options.databaseUrl, role: "daemon" });
  boss.on("error", (err) => log.error({ err }, "pg-boss error"));
  boss.on("warning", (warning) => log.warn({ warning }, "pg-boss warning"));
  const jobs = createJobQueue(boss);
  const config: DaemonConfig = { emailFrom: DEFAULT_EMAIL_FROM, production: false, ...options.config };
  const ctx: JobContext = { database, jobs, log, now, config };
  const handlers = { ...defaultHandlers, ...options.handlers } as JobHandlers;
  const queues = Object.keys(JOBS) as JobName[];

  for (const name of queues) {
    const definition = JOBS[name];
    const handler = handlers[name] as (payload: unknown, ctx: JobContext) => Promise<unknown>;
    await boss.work(
      name,
      {
        batchSize: definition.batchSize,
        localConcurrency: definition.localConcurrency,
        // Woken by LISTEN/NOTIFY the moment a job is sent; these only bound the fallback poll.
        pollingIntervalSeconds: 0.5,
        notifyPollingIntervalSeconds: 2,
        burstWhenBatchFull: definition.batchSize > 1,
        perJobResults: true,
      },
      async (batch: Job<unknown>[]): Promise<JobResult[]> => {
        const results: JobResult[] = [];
        for (const job of batch) results.push(await runOne(name, job, handler));
        return results;
      },
    );
  }

  async function runOne(name: JobName, job: Job<unknown>, handler: (p: unknown, c: JobContext) => Promise<unknown>): Promise<JobResult> {
    const jobLog = log.child({ job: name, jobId: job.id });
    const parsed = JOBS[name].payload.safeParse(job.data);
    if (!parsed.success) {
      jobLog.error({ issues: parsed.error.issues }, "invalid job payload: dead-lettered");
      return { id: job.id, status: "deadletter", output: { error: "invalid payload" } };
    }
    try {
      const output = await handler(parsed.data, { ...ctx, log: jobLog });
      return { id: job.id, status: "completed", output: (output ?? null) as never };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof NonRetryableJobError) {
        jobLog.error({ err: error }, "job failed permanently: dead-lettered");
        return { id: job.id, status: "deadletter", output: { error: message } };
      }
      jobLog.warn({ err: error }, "job failed: will retry");
      return { id: job.id, status: "failed", output: { error: message } };
    }
  }

  for (const schedule of options.schedules ?? defaultSchedules) {
    await boss.schedule(schedule.name, schedule.cron, schedule.payload, { tz: "UTC" });
  }

  const heartbeat = startHeartbeat({
    database,
    instanceId,
    queues,
    intervalSeconds: options.heartbeatSeconds ?? 5,
    version: options.version ?? "0.0.0",
    now,
    onError: (err) => log.error({ err }, "heartbeat failed"),
  });
  await heartbeat.beat();
  log.info({ queues }, "daemon started");

  return {
    instanceId,
    boss,
    jobs,
    database,
    async stop({ timeoutMs = 30_000 } = {}) {
      log.info("daemon stopping");
      await boss.stop({ graceful: true, timeout: timeoutMs });
      await heartbeat.stop().catch((err: unknown) => log.error({ err }, "final heartbeat failed"));
      await database.close();
      log.info("daemon stopped");
    },
  };
}
