/**
 * A failure that retrying cannot fix (bad payload, a rule that refuses): the job goes straight
 * to its dead-letter queue. Any other error is retried with the queue's backoff.
 */
export class NonRetryableJobError extends Error {
  override readonly name = "NonRetryableJobError";
}
