import { z } from "zod";

/**
 * Every background job, declared once: payload schema, retry policy, time limit and dead-letter
 * queue. The web process enqueues from it (inside the transaction that changes state) and the
 * daemon registers a handler for each entry (apps/daemon/src/catalog.ts).
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  payload: S;
  retryLimit: number;
  /** Seconds before the first retry; doubled on each with backoff. */
  retryDelay: number;
  retryBackoff: boolean;
  /** The most a retry waits, whatever the backoff says. */
  retryDelayMax?: number;
  /** How long one attempt may run before it counts as failed. */
  expireInSeconds: number;
  /** Jobs per fetch; the worker keeps fetching while batches come back full. */
  batchSize: number;
  localConcurrency: number;
}

const define = <S extends z.ZodType>(definition: JobDefinition<S>) => definition;

export const JOBS = {
  /** Housekeeping: forget daemon heartbeats not seen for a week (scheduled hourly). */
  "maintenance.prune-heartbeats": define({
    payload: z.object({ olderThanHours: z.number().int().positive().default(168) }),
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
    batchSize: 1,
    localConcurrency: 1,
  }),
  /**
   * Delivers one row of `emails` (SMTP, or the dev outbox). Retried for about half an hour
   * (10 s doubling, at most 10 min apart) so an SMTP outage loses nothing; the handler re-reads the
   * row and never sends one already sent.
   */
  "email.send": define({
    payload: z.object({ emailId: z.uuid() }),
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 60,
    batchSize: 5,
    localConcurrency: 2,
  }),
  /** The sandbox KYC provider's decision: approves the case once its delay has passed. */
  "kyc.sandbox-decide": define({
    payload: z.object({ tenantId: z.uuid(), reference: z.string().min(1).max(200) }),
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60,
    batchSize: 5,
    localConcurrency: 1,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.input<(typeof JOBS)[N]["payload"]>;
export type ParsedJobPayload<N extends JobName> = z.output<(typeof JOBS)[N]["payload"]>;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export const deadLetterQueue = (name: string) => `${name}.dead`;
