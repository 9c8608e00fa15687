import type { JobName, ParsedJobPayload } from "@qc/core";
import type { JobContext } from "./context";
import { announceAddressBookActivationJob } from "./jobs/address-book-announce-activation";
import { expireAddressBookApprovalJob } from "./jobs/address-book-expire-approval";
import { screenDepositJob } from "./jobs/deposits-screen";
import { decideSandboxKyc } from "./jobs/kyc-sandbox-decide";
import { requestPasswordResetJob } from "./jobs/identity-password-reset-request";
import { pruneHeartbeats } from "./jobs/prune-heartbeats";
import { sendEmail } from "./jobs/send-email";
import { broadcastTransferJob, broadcastTransfersJob } from "./jobs/transfers-broadcast";
import { checkTransferJob } from "./jobs/transfers-check";
import { checkExhaustedJob } from "./jobs/transfers-check-exhausted";
import { releaseNextTransferJob } from "./jobs/transfers-release-next";
import { purgeIdempotencyKeysJob } from "./jobs/purge-idempotency-keys";
import { purgeUsageBucketsJob } from "./jobs/purge-usage-buckets";
import { expireTransferJob } from "./jobs/transfers-expire";
import { watchTransferJob } from "./jobs/transfers-watch";
import { deliverWebhookJob } from "./jobs/webhooks-deliver";

export type JobHandler<N extends JobName> = (payload: ParsedJobPayload<N>, ctx: JobContext) => Promise<unknown>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Job name → handler. Schemas, retries and dead letters are declared in @qc/core's JOBS. */
export const handlers: JobHandlers = {
  "maintenance.prune-heartbeats": pruneHeartbeats,
  "email.send": sendEmail,
  "kyc.sandbox-decide": decideSandboxKyc,
  "identity.password-reset-request": requestPasswordResetJob,
  "webhooks.deliver": deliverWebhookJob,
  "maintenance.purge-idempotency-keys": purgeIdempotencyKeysJob,
  "maintenance.purge-usage-buckets": purgeUsageBucketsJob,
  "transfers.check": checkTransferJob,
  "transfers.release-next": releaseNextTransferJob,
  "transfers.broadcast": broadcastTransferJob,
  "transfers.watch": watchTransferJob,
  "transfers.expire": expireTransferJob,
  "address-book.announce-activation": announceAddressBookActivationJob,
  "deposits.screen": screenDepositJob,
  "address-book.expire-approval": expireAddressBookApprovalJob,
};

/**
 * A handler of a whole fetch, for a queue whose jobs share work when they run together (one
 * statement, one request for all): one settled result per payload, in order, each judged as a
 * single handler's would be (done, skipped, retried, dead-lettered). Used instead of the queue's
 * single handler, unless a daemon is given its own single handler for the queue.
 */
export type BatchJobHandler<N extends JobName> = (
  payloads: ParsedJobPayload<N>[],
  ctx: JobContext,
) => Promise<PromiseSettledResult<unknown>[]>;
export type BatchJobHandlers = { [N in JobName]?: BatchJobHandler<N> };

export const batchHandlers: BatchJobHandlers = {
  "transfers.broadcast": broadcastTransfersJob,
};

/**
 * What happens to a job that reached its dead-letter queue (its retries used up, or a final
 * error): the handler gets the original payload and the last error. Only jobs whose dead letter
 * would otherwise leave a domain object without anyone to move it have one.
 */
export type DeadLetterHandlers = {
  [N in JobName]?: (payload: ParsedJobPayload<N>, ctx: JobContext, lastError?: string) => Promise<unknown>;
};

export const deadLetterHandlers: DeadLetterHandlers = {
  "transfers.check": checkExhaustedJob,
};

/** Recurring jobs (cron, UTC), registered by every daemon; pg-boss runs each once per tick. */
export const schedules: { name: JobName; cron: string; payload: object }[] = [
  { name: "maintenance.prune-heartbeats", cron: "17 * * * *", payload: { olderThanHours: 168 } },
  { name: "maintenance.purge-idempotency-keys", cron: "23 * * * *", payload: {} },
  { name: "maintenance.purge-usage-buckets", cron: "41 3 * * *", payload: {} },
];
