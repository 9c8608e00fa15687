/** When and how long the client waits before trying a request again. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** The backoff's first step (default 500 ms); it doubles each attempt, with full jitter. */
  baseDelayMs?: number;
  /** The backoff's cap (default 8 s). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** Statuses worth another attempt: the request was refused for now, not for what it is. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** `Retry-After` in seconds: delta-seconds, or an HTTP date relative to `now`; undefined when absent or malformed. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1). Without `Retry-After`: full
 * jitter over an exponential step, so clients that failed together do not return together.
 * With it: at least what the server asked, plus up to one base step of jitter.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterSeconds: number | undefined,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  const jitter = random() * options.baseDelayMs;
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000 + jitter;
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return random() * step;
}
