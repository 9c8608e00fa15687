import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import {
  AppError,
  classifyJobError,
  createChainFollower,
  createConfirmationWatcher,
  createServiceDeps,
  createWalletDirectory,
  deadLetterQueue,
  JOBS,
  serviceConfig,
  startBoss,
  type ChainFollower,
  type ChainFollowerOptions,
  type ConfirmationWatcher,
  type JobName,
  type JobQueue,
  type Logger,
} from "@qc/core";
import { createDatabase, type DatabaseHandle } from "@qc/db";
import type { Job, JobResult, PgBoss } from "pg-boss";
import {
  batchHandlers,
  deadLetterHandlers,
  handlers as defaultHandlers,
  schedules as defaultSchedules,
  type BatchJobHandler,
  type JobHandlers,
} from "./catalog";
import type { DaemonConfig, JobContext } from "./context";
import { startAuditCheckpointer } from "./audit-checkpointer";
import { crashPoint } from "./crash-points";
import { startHeartbeat } from "./heartbeat";
import { startWebhooksDispatcher } from "./webhooks-dispatcher";

export interface DaemonOptions {
  databaseUrl: string;
  log: Logger;
  instanceId?: string;
  heartbeatSeconds?: number;
  /** AUDIT_CHECKPOINT_SECONDS: how often the audit chains are sealed and signed (default 300). */
  auditCheckpointSeconds?: number;
  handlers?: Partial<JobHandlers>;
  schedules?: typeof defaultSchedules;
  now?: () => Date;
  version?: string;
  /** The service configuration (from the environment in main.ts); development defaults otherwise. */
  config?: Partial<DaemonConfig>;
  /**
   * The deposits' chain followers (CONTRACT §21): one per network with an RPC endpoint, unless
   * `enabled: false`; lease, batch and pause as in ChainFollowerOptions.
   */
  deposits?: { enabled?: boolean } & Partial<Pick<ChainFollowerOptions, "leaseSeconds" | "batchSize" | "intervalMs">>;
  /**
   * The transfers' block-driven confirmation watchers (`createConfirmationWatcher`): one per network
   * with an RPC endpoint, unless `enabled: false` (the per-transaction watch job alone then follows
   * each broadcast transaction, at its backstop interval).
   */
  confirmations?: { enabled?: boolean; pollMs?: number; intervalMs?: number };
}

export interface Daemon {
  instanceId: string;
  boss: PgBoss;
  jobs: JobQueue;
  database: DatabaseHandle;
  /** The deposits' chain followers, one per followed network (for the blocks-behind figure). */
  followers: readonly ChainFollower[];
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
  const service = await createServiceDeps({
    database,
    databaseUrl: options.databaseUrl,
    log,
    now,
    config: withBlockWatchers(serviceConfig(options.config), options.confirmations?.enabled !== false),
    role: "daemon",
    boss,
  });
  const ctx: JobContext = service;
  const { jobs } = ctx;
  const handlers = { ...defaultHandlers, ...options.handlers } as JobHandlers;
  const queues = Object.keys(JOBS) as JobName[];

  for (const name of queues) {
    const definition = JOBS[name];
    const handler = handlers[name] as (payload: unknown, ctx: JobContext) => Promise<unknown>;
    // A daemon given its own single handler for a queue (tests) runs it instead of the batch handler.
    const batchHandler = options.handlers?.[name] ? undefined : (batchHandlers[name] as BatchJobHandler<JobName> | undefined);
    await boss.work(
      name,
      {
        batchSize: definition.batchSize,
        localConcurrency: definition.localConcurrency,
        // Woken by LISTEN/NOTIFY the moment a job is sent; these only bound the fallback poll.
        pollingIntervalSeconds: 0.5,
        notifyPollingIntervalSeconds: definition.pollingIntervalSeconds ?? 2,
        burstWhenBatchFull: definition.batchSize > 1,
        perJobResults: true,
      },
      async (batch: Job<unknown>[]): Promise<JobResult[]> => {
        if (batchHandler) return runBatch(name, batch, batchHandler);
        // A single handler standing in for a batch handler (tests) runs the fetch side by side, as
        // the batch handler decides its transfers: no job waits behind another.
        if (batchHandlers[name]) return Promise.all(batch.map((job) => runOne(name, job, handler)));
        const results: JobResult[] = [];
        for (const job of batch) results.push(await runOne(name, job, handler));
        return results;
      },
    );
  }

  /** A job's payload checked against the catalog; undefined (and logged) when it fails. */
  function parse(name: JobName, job: Job<unknown>, jobLog: Logger): { data: unknown } | undefined {
    const parsed = JOBS[name].payload.safeParse(job.data);
    if (parsed.success) return { data: parsed.data };
    jobLog.error({ issues: parsed.error.issues }, "invalid job payload: dead-lettered");
    return undefined;
  }
  const invalid = (job: Job<unknown>): JobResult => ({ id: job.id, status: "deadletter", output: { error: "invalid payload" } });

  async function runOne(name: JobName, job: Job<unknown>, handler: (p: unknown, c: JobContext) => Promise<unknown>): Promise<JobResult> {
    const jobLog = log.child({ job: name, jobId: job.id });
    const parsed = parse(name, job, jobLog);
    if (!parsed) return invalid(job);
    const [result] = await Promise.allSettled([handler(parsed.data, { ...ctx, log: jobLog })]);
    return judge(job, jobLog, result!);
  }

  /** A whole fetch to its batch handler (the valid payloads, in order), each result judged as `runOne` judges one. */
  async function runBatch(name: JobName, batch: Job<unknown>[], handler: BatchJobHandler<JobName>): Promise<JobResult[]> {
    const logs = batch.map((job) => log.child({ job: name, jobId: job.id }));
    const parsed = batch.map((job, i) => parse(name, job, logs[i]!));
    const valid = batch.flatMap((job, i) => (parsed[i] ? [{ job, data: parsed[i].data, log: logs[i]! }] : []));
    let settled: PromiseSettledResult<unknown>[];
    try {
      settled = await handler(
        valid.map((item) => item.data as never),
        { ...ctx, log: log.child({ job: name, jobIds: valid.map((item) => item.job.id) }) },
      );
    } catch (error) {
      settled = valid.map(() => ({ status: "rejected", reason: error }));
    }
    const byId = new Map(
      valid.map((item, i) => [
        item.job.id,
        judge(item.job, item.log, settled[i] ?? { status: "rejected", reason: new Error("no result") }),
      ]),
    );
    return batch.map((job) => byId.get(job.id) ?? invalid(job));
  }

  /** A handler's outcome as pg-boss's result: done, skipped (the state moved on), dead-lettered or retried. */
  function judge(job: Job<unknown>, jobLog: Logger, result: PromiseSettledResult<unknown>): JobResult {
    if (result.status === "fulfilled") return { id: job.id, status: "completed", output: (result.value ?? null) as never };
    const error: unknown = result.reason;
    const message = error instanceof Error ? error.message : String(error);
    const disposition = classifyJobError(error);
    if (disposition === "skip") {
      jobLog.info({ reason: message }, "job skipped: the state has moved on");
      return { id: job.id, status: "completed", output: { skipped: (error as AppError).error, reason: message } };
    }
    if (disposition === "dead-letter") {
      jobLog.error({ err: error }, "job failed permanently: dead-lettered");
      return { id: job.id, status: "deadletter", output: { error: message } };
    }
    jobLog.warn({ err: error }, "job failed: will retry");
    return { id: job.id, status: "failed", output: { error: message } };
  }

  // Dead letters that would leave a domain object stuck are handled (e.g. a transfer whose checks
  // never completed fails closed); the others stay in their queue for operators.
  for (const [name, onDeadLetter] of Object.entries(deadLetterHandlers) as [
    JobName,
    (p: unknown, c: JobContext, e?: string) => Promise<unknown>,
  ][]) {
    await boss.work(deadLetterQueue(name), { batchSize: 5, pollingIntervalSeconds: 2 }, async (batch: Job<unknown>[]) => {
      for (const job of batch) {
        const parsed = JOBS[name].payload.safeParse(job.data);
        if (!parsed.success) continue; // an invalid payload names no object to settle
        await onDeadLetter(parsed.data, { ...ctx, log: log.child({ job: deadLetterQueue(name), jobId: job.id }) }, lastErrorOf(job));
      }
    });
  }

  for (const schedule of options.schedules ?? defaultSchedules) {
    await boss.schedule(schedule.name, schedule.cron, schedule.payload, { tz: "UTC" });
  }

  const heartbeat = startHeartbeat({
    db: database.db,
    instanceId,
    queues,
    intervalSeconds: options.heartbeatSeconds ?? 5,
    version: options.version ?? "0.0.0",
    now,
    onError: (err) => log.error({ err }, "heartbeat failed"),
  });
  await heartbeat.beat();
  const webhooksDispatcher = startWebhooksDispatcher(ctx, { databaseUrl: options.databaseUrl, log });
  const auditCheckpointer = startAuditCheckpointer(ctx, { intervalSeconds: options.auditCheckpointSeconds ?? 300, log });
  const deposits = await startChainFollowers();
  const confirmations = startConfirmationWatchers();
  log.info(
    {
      queues,
      followedNetworks: deposits.followers.map((f) => f.networkCode),
      watchedNetworks: confirmations.map((w) => w.networkCode),
    },
    "daemon started",
  );

  /** A confirmation watcher per network with an RPC endpoint; one daemon at a time watches each (its lease). */
  function startConfirmationWatchers(): ConfirmationWatcher[] {
    const { enabled = true, ...tuning } = options.confirmations ?? {};
    if (!enabled) return [];
    const watchers = service.chain
      .networks()
      .map((networkCode) => createConfirmationWatcher(service, { networkCode, holder: instanceId, ...tuning }));
    for (const watcher of watchers) watcher.start();
    return watchers;
  }

  /**
   * A chain follower per network with an RPC endpoint, all matching through one wallet directory
   * (loaded before the first block is read, kept current by LISTEN). Each takes the network's lease
   * when no other instance holds it (docs/deposits.md).
   */
  async function startChainFollowers(): Promise<{ followers: ChainFollower[]; stop(): Promise<void> }> {
    const networks = options.deposits?.enabled === false ? [] : service.chain.networks();
    if (networks.length === 0) return { followers: [], stop: async () => {} };
    const directory = createWalletDirectory({ db: database.db, databaseUrl: options.databaseUrl, log });
    await directory.start();
    const { enabled: _enabled, ...tuning } = options.deposits ?? {};
    const followers = networks.map((networkCode) =>
      createChainFollower(service, {
        networkCode,
        holder: instanceId,
        matcher: directory,
        ...tuning,
        beforeCommit: ({ deposits }) => {
          if (deposits > 0) crashPoint("deposits.follow:block-written");
        },
      }),
    );
    for (const follower of followers) follower.start();
    return {
      followers,
      async stop() {
        await Promise.all(followers.map((f) => f.stop()));
        await directory.stop();
      },
    };
  }

  return {
    instanceId,
    boss,
    jobs,
    database,
    followers: deposits.followers,
    async stop({ timeoutMs = 30_000 } = {}) {
      log.info("daemon stopping");
      await Promise.all(confirmations.map((w) => w.stop()));
      await deposits.stop();
      await webhooksDispatcher.stop();
      await auditCheckpointer.stop();
      await boss.stop({ graceful: true, timeout: timeoutMs });
      await heartbeat.stop().catch((err: unknown) => log.error({ err }, "final heartbeat failed"));
      await service.close(); // the verify pool's threads (pg-boss, which it did not start, was stopped above)
      await database.close();
      log.info("daemon stopped");
    },
  };
}

/** The error a dead-lettered job last failed with, when pg-boss kept it. */
function lastErrorOf(job: Job<unknown>): string | undefined {
  const output = (job as { output?: unknown }).output;
  const error = output && typeof output === "object" ? (output as { error?: unknown }).error : undefined;
  return typeof error === "string" ? error : undefined;
}

/**
 * The service configuration of a daemon that does (or does not) start the networks' block
 * watchers: with them, its broadcasts and releases schedule no per-transaction `transfers.watch`
 * or `transfers.expire` backstop, the watcher does both (TransferConfig.blockWatchers).
 */
function withBlockWatchers(config: DaemonConfig, blockWatchers: boolean): DaemonConfig {
  return { ...config, transfers: { ...config.transfers, blockWatchers } };
}
