import type pg from "pg";
import { BurstyRateLimiter, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";

export interface RateLimitPolicy {
  /** Per-tenant sustained requests per second and burst on top (CONTRACT §3: 100/s, burst 200). */
  tenantPerSecond: number;
  tenantBurst: number;
  /** Signups per IP per hour, then a lockout (CONTRACT §3: 30/h, 10 min). */
  signupPerHour: number;
  signupLockSeconds: number;
  /** resend-verification: per IP and per address, per hour. */
  resendPerHourPerIp: number;
  resendPerHourPerEmail: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitPolicy = {
  tenantPerSecond: 100,
  tenantBurst: 100,
  signupPerHour: 30,
  signupLockSeconds: 600,
  resendPerHourPerIp: 20,
  resendPerHourPerEmail: 5,
};

export interface RateLimitHeaders {
  "RateLimit-Limit": string;
  "RateLimit-Remaining": string;
  "RateLimit-Reset": string;
}

/**
 * Limits shared by every instance: counters live in PostgreSQL (rate-limiter-flexible's
 * Postgres store), never in one process's memory.
 */
export class RateLimits {
  private readonly tenant: BurstyRateLimiter;
  private readonly signup: RateLimiterPostgres;
  private readonly resendIp: RateLimiterPostgres;
  private readonly resendEmail: RateLimiterPostgres;

  constructor(pool: pg.Pool, readonly policy: RateLimitPolicy = DEFAULT_RATE_LIMITS) {
    const store = (keyPrefix: string, points: number, duration: number, blockDuration = 0) =>
      new RateLimiterPostgres({ storeClient: pool, storeType: "pool", tableName: "rate_limits", tableCreated: true, clearExpiredByTimeout: false, keyPrefix, points, duration, blockDuration });
    // The token bucket as two windows: the sustained rate per second, and on top of it a burst
    // allowance that refills over ten seconds.
    this.tenant = new BurstyRateLimiter(store("tenant", policy.tenantPerSecond, 1), store("tenant_burst", policy.tenantBurst, 10));
    this.signup = store("signup", policy.signupPerHour, 3600, policy.signupLockSeconds);
    this.resendIp = store("resend_ip", policy.resendPerHourPerIp, 3600);
    this.resendEmail = store("resend_email", policy.resendPerHourPerEmail, 3600);
  }

  /** Consumes one request of the tenant's budget; 429 RATE_LIMITED when it is spent. */
  async consumeTenant(tenantId: string): Promise<RateLimitHeaders> {
    try {
      const res = await this.tenant.consume(tenantId);
      return this.headers(res);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      throw new AppError("RATE_LIMITED", "rate limit exceeded for this tenant", { retryAfter: res.msBeforeNext / 1000 });
    }
  }

  async consumeSignup(ip: string): Promise<void> {
    await consumeOr429(this.signup, ip, "too many signups from this address");
  }

  /** False when over the limit: resend-verification answers 202 regardless (no enumeration). */
  async allowResend(ip: string, email: string): Promise<boolean> {
    try {
      await this.resendIp.consume(ip);
      await this.resendEmail.consume(email);
      return true;
    } catch (res) {
      if (res instanceof RateLimiterRes) return false;
      throw res;
    }
  }

  private headers(res: RateLimiterRes): RateLimitHeaders {
    return {
      "RateLimit-Limit": String(this.policy.tenantPerSecond),
      "RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
      "RateLimit-Reset": String(Math.max(1, Math.ceil(res.msBeforeNext / 1000))),
    };
  }
}

async function consumeOr429(limiter: RateLimiterPostgres, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
    throw new AppError("RATE_LIMITED", message, { retryAfter: res.msBeforeNext / 1000 });
  }
}
