import { RateLimiterRes, type RateLimiterPostgres } from "rate-limiter-flexible";

export interface ReservedTokenBucketOptions {
  /** The sustained window (points per duration), shared through PostgreSQL. */
  sustained: RateLimiterPostgres;
  /** The burst allowance drawn on once the sustained window is spent. */
  burst: RateLimiterPostgres;
  /** Tokens one reservation asks for (the last ones of a window may come fewer). */
  batch: number;
  /** Keys remembered at most (a cache: clearing it only costs a reservation). */
  maxKeys?: number;
}

/**
 * Tokens per reservation for a sustained rate: a twentieth of a second's worth (5 at the default
 * 100/s), at least 1 (then every request is its own reservation, exact as before) and at most
 * 100. It bounds what one instance can leave unused in a window: 5% of the limit at the default.
 */
export function tenantReservationBatch(perSecond: number): number {
  return Math.max(1, Math.min(100, Math.floor(perSecond / 20)));
}

interface Allowance {
  /** Tokens this instance reserved and has not handed out yet. */
  tokens: number;
  /** What the shared window had left right after the reservation (for RateLimit-Remaining). */
  sharedRemaining: number;
  /** When the window the tokens came from ends: unspent tokens are dropped then (ms epoch). */
  expiresAt: number;
  /** Set when the shared windows had nothing left: refuse locally until then (ms epoch). */
  refusedUntil: number;
  /** The reservation in flight; concurrent requests wait for it instead of asking again. */
  reserving?: Promise<void>;
}

/**
 * The per-tenant limit of CONTRACT §3 with one database round trip per `batch` requests instead
 * of one per request. Each instance reserves `batch` tokens at a time from the windows shared by
 * every instance in PostgreSQL (rate-limiter-flexible's store: a sustained window, then the burst
 * window) and hands them out from memory until they run out or their window ends.
 *
 * Exactness (docs/decisions/access-control.md): a window never grants more than its points,
 * however many instances reserve from it, because a reservation that overshoots keeps only the
 * part that was still free; reserved tokens die with their window. So instances together never
 * admit more than the limit. The tolerance is on the other side: tokens an instance reserved and
 * did not use before the window ended are lost, at most `batch` per instance per window.
 * Refusals are decided locally until the earliest window resets: a flood of refused requests
 * costs one round trip per window, not one write per request.
 */
export class ReservedTokenBucket {
  private readonly allowances = new Map<string, Allowance>();

  constructor(private readonly options: ReservedTokenBucketOptions) {}

  /** Consumes one token: resolves like rate-limiter-flexible's `consume`, rejects with its RateLimiterRes when refused. */
  async consume(key: string): Promise<RateLimiterRes> {
    for (;;) {
      const allowance = this.allowances.get(key);
      if (allowance?.reserving) {
        // Another request of this instance is reserving: its tokens may be enough for this one too.
        await allowance.reserving;
        continue;
      }
      const now = Date.now();
      if (allowance && allowance.expiresAt > now && allowance.tokens > 0) {
        allowance.tokens--;
        return new RateLimiterRes(allowance.sharedRemaining + allowance.tokens, allowance.expiresAt - now, 0, false);
      }
      if (allowance && allowance.refusedUntil > now) throw new RateLimiterRes(0, allowance.refusedUntil - now, 0, false);
      // Ends: a reservation either grants tokens (taken by this request or one beside it) or
      // sets `refusedUntil` in the future.
      await this.reserve(key);
    }
  }

  private reserve(key: string): Promise<void> {
    if (this.allowances.size >= (this.options.maxKeys ?? 100_000)) this.allowances.clear();
    const allowance: Allowance = this.allowances.get(key) ?? { tokens: 0, sharedRemaining: 0, expiresAt: 0, refusedUntil: 0 };
    this.allowances.set(key, allowance);
    allowance.reserving = (async () => {
      try {
        const sustained = await take(this.options.sustained, key, this.options.batch);
        const grant = sustained.granted > 0 ? sustained : await take(this.options.burst, key, this.options.batch);
        const now = Date.now();
        // Tokens live as long as the sustained window they were reserved in, burst ones too:
        // they are meant for this moment's overflow, not for later.
        allowance.expiresAt = now + sustained.msBeforeNext;
        allowance.tokens = grant.granted;
        allowance.sharedRemaining = grant.remaining;
        allowance.refusedUntil = grant.granted > 0 ? 0 : now + Math.max(1, Math.min(sustained.msBeforeNext, grant.msBeforeNext));
      } finally {
        allowance.reserving = undefined;
      }
    })();
    return allowance.reserving;
  }
}

/**
 * Takes up to `wanted` points from a shared window in one upsert. The store adds all of them
 * even when that goes past the window's points; the part that fit (before the upsert, the
 * window had `points - (consumed - wanted)` left) is this instance's, and the rest only marks
 * the window as spent, which it is.
 */
async function take(
  limiter: RateLimiterPostgres,
  key: string,
  wanted: number,
): Promise<{ granted: number; remaining: number; msBeforeNext: number }> {
  let res: RateLimiterRes;
  try {
    res = await limiter.consume(key, wanted);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    res = rejection;
  }
  const freeBefore = limiter.points - (res.consumedPoints - wanted);
  const granted = Math.max(0, Math.min(wanted, freeBefore));
  return { granted, remaining: Math.max(0, res.remainingPoints), msBeforeNext: Math.max(0, res.msBeforeNext) };
}
