import { AppError, MOVED_ON_ERRORS, TRANSIENT_ERRORS, type ErrorName } from "../errors";

/**
 * A failure retrying cannot fix, raised by a job on purpose (bad payload, a rule that refuses):
 * the job goes straight to its dead-letter queue.
 */
export class FinalJobError extends Error {
  override readonly name = "FinalJobError";
}

/** AppErrors that describe a passing condition (the table's `transient`): the job is retried with its queue's backoff. */
const TRANSIENT: ReadonlySet<ErrorName> = new Set(TRANSIENT_ERRORS);

/** AppErrors that say the state has moved on since the job was enqueued (category `moved-on`): nothing left to do. */
const MOVED_ON: ReadonlySet<ErrorName> = new Set(MOVED_ON_ERRORS);

/**
 * - `retry`: again later, with the queue's backoff;
 * - `skip`: the job's premise no longer holds (someone else moved the state first): completed,
 *   with the reason as its output, nothing to alert on;
 * - `dead-letter`: retrying cannot fix it; kept in the queue's dead-letter queue for operators.
 */
export type JobErrorDisposition = "retry" | "skip" | "dead-letter";

/**
 * The one rule for what a failed job does next, applied by the daemon's runner so no job picks
 * error codes apart: a state conflict is skipped; a FinalJobError or an AppError with another
 * final code (a refusal, NOT_FOUND) is dead-lettered; a dependency failure (UNAVAILABLE, a
 * database or network error, anything unexpected) is retried.
 */
export function classifyJobError(error: unknown): JobErrorDisposition {
  if (error instanceof FinalJobError) return "dead-letter";
  if (error instanceof AppError) {
    if (TRANSIENT.has(error.error)) return "retry";
    return MOVED_ON.has(error.error) ? "skip" : "dead-letter";
  }
  return "retry";
}
