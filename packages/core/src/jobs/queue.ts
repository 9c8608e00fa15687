import { jobExecutor, prepareJobStatements, type Executor } from "@qc/db";
import { PgBoss } from "pg-boss";
import { deadLetterQueue, JOBS, type JobName, type JobPayload } from "./catalog";

export interface SendOptions {
  /** At most one queued job per key (pg-boss singleton). */
  singletonKey?: string;
  startAfter?: Date | number;
}

export interface JobQueue {
  /**
   * Enqueues inside `tx`, the transaction that makes the change the job follows from: the job
   * exists if and only if the change committed.
   */
  send<N extends JobName>(tx: Executor, name: N, payload: JobPayload<N>, options?: SendOptions): Promise<string | null>;
  /** Many jobs of one queue in one statement, inside `tx` (no per-job options: the queue's policy). */
  sendMany<N extends JobName>(tx: Executor, name: N, payloads: readonly JobPayload<N>[]): Promise<void>;
  /**
   * At most one waiting job per `singletonKey`, enqueued inside `tx`: a job of that key not yet
   * started is moved to `startAfter` (default now) instead of a second one being added. For
   * jobs that re-schedule themselves (a watcher) and for pulling a scheduled one forward.
   * (pg-boss's `singletonKey` alone deduplicates nothing on a standard queue.)
   */
  schedule<N extends JobName>(
    tx: Executor,
    name: N,
    payload: JobPayload<N>,
    options: { singletonKey: string; startAfter?: Date },
  ): Promise<void>;
  boss: PgBoss;
}

export function createJobQueue(boss: PgBoss): JobQueue {
  return {
    boss,
    async send(tx, name, payload, options = {}) {
      const data = JOBS[name].payload.parse(payload) as object;
      return boss.send(name, data, {
        db: jobExecutor(tx),
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfter !== undefined ? { startAfter: options.startAfter } : {}),
      });
    },
    async sendMany(tx, name, payloads) {
      if (payloads.length === 0) return;
      const jobs = payloads.map((payload) => ({ data: JOBS[name].payload.parse(payload) as object }));
      await boss.insert(name, jobs, { db: jobExecutor(tx) });
    },
    async schedule(tx, name, payload, options) {
      const data = JOBS[name].payload.parse(payload) as object;
      await boss.upsert(name, data, {
        db: jobExecutor(tx),
        singletonKey: options.singletonKey,
        startAfter: options.startAfter ?? new Date(),
      });
    },
  };
}

export interface CreateBossOptions {
  url: string;
  /** Daemons run maintenance and cron; web instances only send. */
  role: "daemon" | "web";
  applicationName?: string;
  max?: number;
}

/** A pg-boss instance on the service database, with every catalog queue created. */
export async function startBoss(options: CreateBossOptions): Promise<PgBoss> {
  const daemon = options.role === "daemon";
  const boss = new PgBoss({
    connectionString: options.url,
    application_name: options.applicationName ?? `qc-${options.role}-boss`,
    max: options.max ?? (daemon ? 10 : 4),
    supervise: daemon,
    // A job whose worker lost the database mid-run (a PostgreSQL restart) stays `active` until
    // its expireInSeconds and is only retried by the next monitor pass: pg-boss's default of a
    // pass every 60 s added up to a minute to every such recovery (chaos/postgres-restart.test.ts).
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    schedule: daemon,
    useListenNotify: daemon,
  });
  boss.on("error", () => {}); // surfaced through the owner's logger (see apps/daemon)
  prepareJobStatements(boss.getDb());
  await boss.start();
  await ensureQueues(boss);
  return boss;
}

/** How stale a running job's heartbeat may get before the supervisor fails it for a retry. */
export const JOB_HEARTBEAT_SECONDS = 15;

export async function ensureQueues(boss: PgBoss): Promise<void> {
  // `schedule` (boss.upsert: the transfer watcher, signing expiry) finds a key's waiting job with
  // `name = … AND state < 'active' AND singleton_key = …`, which no pg-boss index serves: each call
  // seq-scanned pgboss.job_common, every queue's retained jobs (~6 k rows a call after 1,000
  // transfers: most of the rows the database read, bench/pipeline.ts). Created once, under a lock so
  // daemons starting together do not race on it. Only an index on pg-boss's table: if a pg-boss
  // upgrade renames what it covers, the error goes to the owner's logger and jobs run as before.
  await boss
    .getDb()
    .executeSql(
      `DO $$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('qc_job_singleton_waiting_idx')); CREATE INDEX IF NOT EXISTS qc_job_singleton_waiting_idx ON pgboss.job (name, singleton_key) WHERE state < 'active'; END $$`,
    )
    .catch((error: unknown) => boss.emit("error", error instanceof Error ? error : new Error(String(error))));
  for (const name of Object.keys(JOBS) as JobName[]) {
    const job = JOBS[name];
    const dead = deadLetterQueue(name);
    if (!(await boss.getQueue(dead))) await boss.createQueue(dead, { retentionSeconds: 14 * 24 * 3600 });
    const policy = {
      retryLimit: job.retryLimit,
      retryDelay: job.retryDelay,
      retryBackoff: job.retryBackoff,
      ...(job.retryDelayMax ? { retryDelayMax: job.retryDelayMax } : {}),
      expireInSeconds: job.expireInSeconds,
      // A daemon killed mid-job (SIGKILL, OOM, power cut) leaves its claimed jobs `active`: without
      // a heartbeat they wait for expireInSeconds (a minute) before anyone retries them, and every
      // transfer queued behind them on the same wallet waits too (chaos/daemon-kill.test.ts). With
      // one, pg-boss refreshes it while the handler runs and the supervisor fails a job whose
      // heartbeat is older than this, so a dead worker's jobs are retried within ~25 s. Handlers are
      // idempotent (conditional updates), so a late heartbeat on a loaded machine costs a repeat,
      // never a double effect.
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
      deadLetter: dead,
      notify: true,
    };
    if (await boss.getQueue(name)) await boss.updateQueue(name, policy as never);
    else await boss.createQueue(name, policy as never);
  }
}
