import { z } from "zod";
import { networkCodeSchema } from "../records/record-schemas";

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
  /**
   * Jobs per fetch; the worker keeps fetching while batches come back full, which pg-boss does only
   * for batches of more than one job (at one job a fetch, a worker woken by nothing waits its poll,
   * so a backlog left when a burst's NOTIFYs stop drains at one job a worker a poll).
   */
  batchSize: number;
  localConcurrency: number;
  /**
   * Seconds a worker waits between fetches when no NOTIFY woke it (default 2). NOTIFY announces
   * only jobs runnable at once, so this bounds the lateness of jobs scheduled for later
   * (`startAfter`) and of retries: a queue that re-schedules itself at short intervals sets it low.
   */
  pollingIntervalSeconds?: number;
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
  /** Housekeeping: delete idempotency keys past their 24 h retention (scheduled hourly). */
  "maintenance.purge-idempotency-keys": define({
    payload: z.object({}),
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
    batchSize: 1,
    localConcurrency: 1,
  }),
  /** Housekeeping: delete usage buckets older than every window (docs/decisions/usage-buckets.md; scheduled daily). */
  "maintenance.purge-usage-buckets": define({
    payload: z.object({}),
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 600,
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
  /**
   * A password-reset request, taken off the web request so that its answer (202) costs the same
   * whether or not the address has an account; durable, so a crash loses no request. The handler
   * looks the account up and queues the email (or does nothing).
   */
  "identity.password-reset-request": define({
    payload: z.object({ email: z.string().min(3).max(254), requestId: z.string().max(128).optional(), ip: z.string().max(64).optional() }),
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
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
  /**
   * SUBMITTED → policy, screening, quotas, balance → BLOCKED / FAILED, or released for signing
   * (PENDING_SIGNATURE with nonce and fees) or QUEUED behind an earlier transfer of the source.
   * Retried on dependency failures (RPC down); the screening provider's outages are counted on
   * the row and fail closed after a bound.
   */
  "transfers.check": define({
    payload: z.object({ tenantId: z.uuid(), transactionId: z.uuid() }),
    // 11 attempts: more than SCREENING_MAX_ATTEMPTS may ask for (10), so a provider outage
    // always ends in the fail-closed BLOCKED, never in the dead-letter queue.
    retryLimit: 10,
    retryDelay: 1,
    retryBackoff: true,
    retryDelayMax: 120,
    expireInSeconds: 60,
    batchSize: 5,
    localConcurrency: 4,
  }),
  /**
   * Releases the oldest QUEUED transfer of a source once the one ahead of it is broadcast or
   * ended, its policy and screening taken again first when stale. 11 attempts: more than
   * SCREENING_MAX_ATTEMPTS (≤ 10), so a provider outage at that re-run ends in the fail-closed
   * BLOCKED, never in the dead-letter queue.
   */
  "transfers.release-next": define({
    payload: z.object({ tenantId: z.uuid(), sourceWalletId: z.uuid(), networkCode: networkCodeSchema }),
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 120,
    expireInSeconds: 60,
    batchSize: 5,
    localConcurrency: 2,
  }),
  /**
   * SIGNED → rebuild from the stored intent, verify again (fail closed), re-check wallet and
   * tenant, policy and screening when stale (provider outage: retried, ≤ 10 attempts of these
   * 21, then BLOCKED), store the raw transaction → BROADCASTING; sends it (re-sending the same raw
   * transaction after a crash is harmless: that is how recovery works).
   */
  "transfers.broadcast": define({
    payload: z.object({ tenantId: z.uuid(), transactionId: z.uuid() }),
    retryLimit: 20,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 60,
    expireInSeconds: 60,
    // Eight in flight: two workers of four jobs a fetch, each fetch run together (the daemon's batch
    // handler: decided side by side, moved and sent together), so a signature never waits behind
    // another transfer's verification and send, and a backlog left by a burst of signatures drains
    // at once (docs/performance/nonce-window.md, "A stall").
    batchSize: 4,
    localConcurrency: 2,
  }),
  /**
   * Watches a broadcast transaction: acceptance, confirmations, reorgs, drops, reverts. A backstop:
   * the daemon's block-driven watcher (`createConfirmationWatcher`) looks at every broadcast
   * transaction of a network once per block; this job looks at one every `watchIntervalMs` (each
   * look schedules the next, one waiting job per transaction), so a transaction is followed even
   * when no watcher runs. Scheduled by the move to BROADCASTING only in a process without block
   * watchers (TransferConfig.blockWatchers), and after a refused send. The queue is polled at
   * pg-boss's shortest interval.
   */
  "transfers.watch": define({
    payload: z.object({ tenantId: z.uuid(), transactionId: z.uuid() }),
    retryLimit: 50,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 60,
    expireInSeconds: 60,
    batchSize: 10,
    localConcurrency: 4,
    pollingIntervalSeconds: 0.5,
  }),
  /**
   * PENDING_SIGNATURE → EXPIRED (SIGNING_TIMEOUT) at the signing deadline, unless it moved on (and
   * the approval deadline's APPROVAL_TIMEOUT). Scheduled at release only in a process without block
   * watchers: a daemon's watcher step expires overdue signatures itself (TransferConfig.blockWatchers).
   */
  "transfers.expire": define({
    payload: z.object({ tenantId: z.uuid(), transactionId: z.uuid() }),
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60,
    batchSize: 10,
    localConcurrency: 2,
  }),
  /**
   * Sends `address_book.entry_activated` at an entry's `activatesAt` (scheduled with `startAfter`
   * by the creation, one per entry); the handler re-reads the row and sends it once, never for a
   * removed entry. It decides nothing: policies read `activatesAt` against the clock.
   */
  "address-book.announce-activation": define({
    payload: z.object({ tenantId: z.uuid(), entryId: z.uuid() }),
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60,
    batchSize: 10,
    localConcurrency: 1,
  }),
  /**
   * Removes an address-book entry still AWAITING_APPROVAL at its approval deadline (scheduled with
   * `startAfter` by the creation, one per entry); the handler's conditional UPDATE does nothing for
   * an entry decided meanwhile.
   */
  "address-book.expire-approval": define({
    payload: z.object({ tenantId: z.uuid(), entryId: z.uuid() }),
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60,
    batchSize: 10,
    localConcurrency: 1,
  }),
  /**
   * Screens a deposit's sender (CONTRACT §21), enqueued by the chain follower in the block's
   * database transaction; writes `screening` once. A provider that gives no verdict is retried
   * for about an hour; the deposit is recorded whatever the verdict.
   */
  "deposits.screen": define({
    payload: z.object({ tenantId: z.uuid(), transactionId: z.uuid() }),
    retryLimit: 20,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60,
    batchSize: 10,
    localConcurrency: 2,
  }),
  /**
   * One attempt of one webhook delivery (@qc/core attemptWebhookDelivery). The retry schedule of
   * CONTRACT §7 is the service's own (each failed attempt enqueues the next with `startAfter`);
   * these retries only cover the handler itself failing (database down). A worker runs its
   * batch one job after another, so batches stay small (a slow receiver holds up at most three
   * other deliveries) and expiry outlasts a whole batch of 15 s attempts. A worker that dies
   * mid-attempt is recovered by its lease running out, well before this expiry.
   */
  "webhooks.deliver": define({
    payload: z.object({ tenantId: z.uuid(), deliveryId: z.uuid() }),
    retryLimit: 20,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 120,
    batchSize: 4,
    localConcurrency: 8,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.input<(typeof JOBS)[N]["payload"]>;
export type ParsedJobPayload<N extends JobName> = z.output<(typeof JOBS)[N]["payload"]>;

export const deadLetterQueue = (name: string) => `${name}.dead`;
