/**
 * The retry schedule of CONTRACT §7: after a failed attempt the next one comes 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h later (eight attempts in all, about 27.5 h), each delay
 * jittered so endpoints that failed together do not all retry in the same second.
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** ±10 %: enough to spread a burst, small enough that "about 5 minutes" stays true. */
export const RETRY_JITTER_RATIO = 0.1;
/** A receiver's `Retry-After` can push a retry later, but no later than the longest step. */
export const MAX_RETRY_AFTER_SECONDS = 10 * 3600;
/** CONTRACT §7: an endpoint failing for 5 days is disabled and its owner emailed. */
export const ENDPOINT_FAILING_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

export interface NextAttemptAtParameters {
  /** Attempts already made for this delivery, the failed one included (1 after the first). */
  attemptsMade: number;
  /** When the failed attempt finished. */
  now: Date;
  /** The receiver's `Retry-After`, in seconds, when it sent one. */
  retryAfterSeconds?: number | null;
  /** Uniform in [0, 1); `Math.random` unless a test seeds it. */
  random?: () => number;
}

/** When to try again after a failed attempt, or null when the schedule is exhausted. */
export function nextAttemptAt(parameters: NextAttemptAtParameters): Date | null {
  const { attemptsMade, now, retryAfterSeconds } = parameters;
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError("attemptsMade must be a positive integer");
  const base = RETRY_DELAYS_SECONDS[attemptsMade - 1];
  if (base === undefined) return null;
  const random = (parameters.random ?? Math.random)();
  const jittered = base * (1 + RETRY_JITTER_RATIO * (2 * random - 1));
  const requested = retryAfterSeconds && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) : 0;
  return new Date(now.getTime() + Math.round(Math.max(jittered, requested) * 1000));
}

/**
 * True once an endpoint has failed without a single success for 5 days. `failingSince` is the
 * first failure after the last success (null when the last attempt succeeded).
 */
export function shouldDisableFailingEndpoint(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= ENDPOINT_FAILING_DISABLE_AFTER_MS;
}
