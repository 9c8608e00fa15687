import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { operators, operatorSessions } from "../schema/operators";
import { daemonHeartbeats } from "../schema/system";

/**
 * The operators' console: its own accounts and sessions, and read-only views of the pg-boss
 * tables and the daemons' heartbeats. pg-boss lives in its default schema on the service
 * database (packages/core/src/jobs/queue.ts starts it without another one).
 */
const BOSS = sql.identifier("pgboss");

export type OperatorRow = typeof operators.$inferSelect;
export type OperatorSessionRow = typeof operatorSessions.$inferSelect;

/** Inserts an operator; null when the address already has one (the unique index decides). */
export async function insertOperator(
  db: Executor,
  row: { email: string; name: string | null; passwordHash: string },
): Promise<OperatorRow | null> {
  const [created] = await db.insert(operators).values(row).onConflictDoNothing({ target: operators.email }).returning();
  return created ?? null;
}

/** Sets a new password hash for the operator with this address; null when there is none. */
export async function updateOperatorPassword(
  db: Executor,
  params: { email: string; passwordHash: string; at: Date },
): Promise<OperatorRow | null> {
  const [updated] = await db
    .update(operators)
    .set({ passwordHash: params.passwordHash, updatedAt: params.at })
    .where(eq(operators.email, params.email))
    .returning();
  return updated ?? null;
}

export async function findOperatorById(db: Executor, id: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.id, id));
  return row;
}

export async function findOperatorByEmail(db: Executor, email: string): Promise<OperatorRow | null> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email));
  return row ?? null;
}

export async function insertOperatorSession(
  db: Executor,
  row: {
    operatorId: string;
    tokenHash: string;
    expiresAt: Date;
    lastSeenAt: Date;
    createdAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<OperatorSessionRow> {
  const [created] = await db.insert(operatorSessions).values(row).returning();
  return created!;
}

/** The live session with this token hash and its (enabled) operator, or null. */
export async function findLiveOperatorSession(db: Executor, params: { tokenHash: string; now: Date }) {
  const [row] = await db
    .select({
      sessionId: operatorSessions.id,
      expiresAt: operatorSessions.expiresAt,
      lastSeenAt: operatorSessions.lastSeenAt,
      createdAt: operatorSessions.createdAt,
      operatorId: operators.id,
      email: operators.email,
      name: operators.name,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(
        eq(operatorSessions.tokenHash, params.tokenHash),
        isNull(operatorSessions.revokedAt),
        isNull(operators.disabledAt),
        sql`${operatorSessions.expiresAt} > ${params.now.toISOString()}::timestamptz`,
      ),
    );
  return row ?? null;
}

export async function extendOperatorSession(db: Executor, params: { sessionId: string; lastSeenAt: Date; expiresAt: Date }): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ lastSeenAt: params.lastSeenAt, expiresAt: params.expiresAt })
    .where(eq(operatorSessions.id, params.sessionId));
}

/** Ends every open session of the operator (a new password was set); how many it ended. */
export async function revokeAllOperatorSessions(db: Executor, params: { operatorId: string; at: Date }): Promise<number> {
  const ended = await db
    .update(operatorSessions)
    .set({ revokedAt: params.at })
    .where(and(eq(operatorSessions.operatorId, params.operatorId), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });
  return ended.length;
}

export async function revokeOperatorSession(db: Executor, params: { sessionId: string; at: Date }): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ revokedAt: params.at })
    .where(and(eq(operatorSessions.id, params.sessionId), isNull(operatorSessions.revokedAt)));
}

export interface QueueCountsRow {
  name: string;
  deadLetter: string | null;
  /** Waiting, ready or not yet due (created or retry). */
  queued: number;
  /** Waiting and due now: the real backlog. */
  ready: number;
  active: number;
  failed: number;
  /** Waiting jobs of this queue's dead-letter queue. */
  deadLettered: number;
  /** created_on of the oldest job that is due and not started. */
  oldestReadyAt: Date | null;
}

/**
 * Every pg-boss queue that is not itself a dead-letter queue, with live counts read from the job
 * table (pg-boss's own cached counts lag by its monitor interval).
 */
export async function readQueueCounts(db: Executor, params: { now: Date }): Promise<QueueCountsRow[]> {
  const now = params.now.toISOString();
  const result = await db.execute<{
    name: string;
    dead_letter: string | null;
    queued: string;
    ready: string;
    active: string;
    failed: string;
    dead_lettered: string;
    oldest_ready_at: string | null;
  }>(sql`
    with counts as (
      select j.name,
        count(*) filter (where j.state in ('created', 'retry')) as queued,
        count(*) filter (where j.state in ('created', 'retry') and j.start_after <= ${now}::timestamptz) as ready,
        count(*) filter (where j.state = 'active') as active,
        count(*) filter (where j.state = 'failed') as failed,
        min(j.created_on) filter (where j.state in ('created', 'retry') and j.start_after <= ${now}::timestamptz) as oldest_ready_at
      from ${BOSS}.job j
      group by j.name
    )
    select q.name, q.dead_letter,
      coalesce(c.queued, 0) as queued, coalesce(c.ready, 0) as ready, coalesce(c.active, 0) as active,
      coalesce(c.failed, 0) as failed, coalesce(d.queued, 0) as dead_lettered, c.oldest_ready_at
    from ${BOSS}.queue q
    left join counts c on c.name = q.name
    left join counts d on d.name = q.dead_letter
    where not exists (select 1 from ${BOSS}.queue p where p.dead_letter = q.name)
      -- pg-boss's own internal queues (__pgboss__…) are its business, not the service's.
      and left(q.name, 10) <> '__pgboss__'
    order by q.name
  `);
  return result.rows.map((row) => ({
    name: row.name,
    deadLetter: row.dead_letter,
    queued: Number(row.queued),
    ready: Number(row.ready),
    active: Number(row.active),
    failed: Number(row.failed),
    deadLettered: Number(row.dead_lettered),
    oldestReadyAt: row.oldest_ready_at === null ? null : new Date(row.oldest_ready_at),
  }));
}

export interface QueueThroughputRow {
  name: string;
  /** Start of the bucket. */
  at: Date;
  created: number;
  completed: number;
  failed: number;
}

/**
 * Jobs created, completed and failed per queue and per bucket since `since`, from the job rows
 * pg-boss still keeps (its retention outlasts the hour the console shows). Empty buckets are
 * left out; the caller fills them.
 */
export async function readQueueThroughput(db: Executor, params: { since: Date; bucketSeconds: number }): Promise<QueueThroughputRow[]> {
  const since = params.since.toISOString();
  const bucket = `${Math.max(1, Math.floor(params.bucketSeconds))} seconds`;
  const result = await db.execute<{ name: string; at: string; created: string; completed: string; failed: string }>(sql`
    with events as (
      select name, created_on as at, 1 as created, 0 as completed, 0 as failed
        from ${BOSS}.job where created_on >= ${since}::timestamptz
      union all
      select name, completed_on, 0, case when state = 'completed' then 1 else 0 end, case when state = 'failed' then 1 else 0 end
        from ${BOSS}.job where completed_on >= ${since}::timestamptz and state in ('completed', 'failed')
    )
    select name, date_bin(${bucket}::interval, at, ${since}::timestamptz) as at,
      sum(created) as created, sum(completed) as completed, sum(failed) as failed
    from events
    group by 1, 2
    order by 1, 2
  `);
  return result.rows.map((row) => ({
    name: row.name,
    at: new Date(row.at),
    created: Number(row.created),
    completed: Number(row.completed),
    failed: Number(row.failed),
  }));
}

export type DaemonHeartbeatRow = typeof daemonHeartbeats.$inferSelect;

export function listDaemonHeartbeats(db: Executor): Promise<DaemonHeartbeatRow[]> {
  return db.select().from(daemonHeartbeats).orderBy(desc(daemonHeartbeats.lastBeatAt));
}

export interface FailedJobRow {
  id: string;
  /** The queue the job is in now (a dead-letter queue for dead-lettered jobs). */
  queue: string;
  state: "retry" | "failed" | "created";
  /** The queue the job failed in (the source of a dead-lettered job). */
  sourceQueue: string;
  deadLettered: boolean;
  retryCount: number;
  createdOn: Date;
  failedOn: Date | null;
  /** Next attempt, for a job waiting to be retried. */
  startAfter: Date;
  /** What the worker left: the job's own output, or for a dead-lettered copy the failed original's. */
  output: unknown;
}

/**
 * Jobs that need an operator's eye, newest first: those in a dead-letter queue (pg-boss copies a
 * job there when it fails for good, and nothing works those queues), jobs that failed in a queue
 * without a dead-letter queue, and jobs waiting for their next retry after a failed attempt.
 */
export async function listFailedJobs(db: Executor, params: { limit: number }): Promise<FailedJobRow[]> {
  const result = await db.execute<{
    id: string;
    name: string;
    state: "retry" | "failed" | "created";
    source_name: string | null;
    dead_lettered: boolean;
    retry_count: number;
    created_on: string;
    failed_on: string | null;
    start_after: string;
    output: unknown;
  }>(sql`
    select j.id, j.name, j.state, j.source_name, (dl.name is not null) as dead_lettered, j.retry_count,
      j.created_on, j.completed_on as failed_on, j.start_after, coalesce(j.output, j.source_output) as output
    from ${BOSS}.job j
    join ${BOSS}.queue q on q.name = j.name
    left join lateral (select p.name from ${BOSS}.queue p where p.dead_letter = j.name limit 1) dl on true
    where (dl.name is not null and j.state = 'created')
       or j.state = 'retry'
       or (j.state = 'failed' and q.dead_letter is null)
    order by coalesce(j.completed_on, j.created_on) desc, j.id desc
    limit ${params.limit}
  `);
  return result.rows.map((row) => ({
    id: row.id,
    queue: row.name,
    state: row.state,
    sourceQueue: row.source_name ?? row.name,
    deadLettered: row.dead_lettered,
    retryCount: Number(row.retry_count),
    createdOn: new Date(row.created_on),
    failedOn: row.failed_on === null ? null : new Date(row.failed_on),
    startAfter: new Date(row.start_after),
    output: row.output,
  }));
}

/** One job by id, in whichever queue it is (ids are unique across pg-boss's job table). */
export async function findJobById(
  db: Executor,
  jobId: string,
): Promise<{ id: string; queue: string; sourceQueue: string | null; state: string; deadLettered: boolean } | null> {
  const result = await db.execute<{ id: string; name: string; source_name: string | null; state: string; dead_lettered: boolean }>(sql`
    select j.id, j.name, j.source_name, j.state,
      exists (select 1 from ${BOSS}.queue p where p.dead_letter = j.name) as dead_lettered
    from ${BOSS}.job j
    where j.id = ${jobId}::uuid
    limit 1
  `);
  const row = result.rows[0];
  return row ? { id: row.id, queue: row.name, sourceQueue: row.source_name, state: row.state, deadLettered: row.dead_lettered } : null;
}
