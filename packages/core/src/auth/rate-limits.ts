import { createHash } from "node:crypto";
import type { DatabaseHandle } from "@qc/db";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";
import { ReservedTokenBucket, tenantReservationBatch } from "./reserved-token-bucket";

export interface RateLimitPolicy {
  /**
   * Per-tenant sustained requests per second, and the extra requests a burst may add on top of
   * them (env RATE_LIMIT_BURST). CONTRACT §3's "100/s, burst 200" is 100 sustained + 100 extra.
   */
  tenantPerSecond: number;
  tenantBurstExtra: number;
  /** Signups per IP per hour, then a lockout (CONTRACT §3: 30/h, 10 min). */
  signupPerHour: number;
  signupLockSeconds: number;
  /** resend-verification: per IP and per address, per hour. */
  resendPerHourPerIp: number;
  resendPerHourPerEmail: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitPolicy = {
  tenantPerSecond: 100,
  tenantBurstExtra: 100,
  signupPerHour: 30,
  signupLockSeconds: 600,
  resendPerHourPerIp: 20,
  resendPerHourPerEmail: 5,
};

/** The tenant's bucket after a request was counted (the api layer reports it as RateLimit-*). */
export interface TenantRateLimit {
  /** Requests per second the bucket refills with. */
  limit: number;
  /** Requests left right now. */
  remaining: number;
  /** Whole seconds (at least 1) until the bucket is full again. */
  resetSeconds: number;
}

/**
 * Limits shared by every instance: counters live in PostgreSQL (rate-limiter-flexible's
 * Postgres store), never in one process's memory.
 */
export class RateLimits {
  private readonly tenant: ReservedTokenBucket;
  private readonly signup: RateLimiterPostgres;
  private readonly resendIp: RateLimiterPostgres;
  private readonly resendEmail: RateLimiterPostgres;
  private readonly passwordResetIp: RateLimiterPostgres;
  private readonly passwordResetEmail: RateLimiterPostgres;

  constructor(
    pool: DatabaseHandle["pool"],
    readonly policy: RateLimitPolicy = DEFAULT_RATE_LIMITS,
  ) {
    const store = (keyPrefix: string, points: number, duration: number, blockDuration = 0) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        points,
        duration,
        blockDuration,
      });
    // The token bucket as two windows: the sustained rate per second, and on top of it a burst
    // allowance that refills over ten seconds.
    // Reserved by each instance a few tokens at a time, not one write per request (see ReservedTokenBucket).
    this.tenant = new ReservedTokenBucket({
      sustained: store("tenant", policy.tenantPerSecond, 1),
      burst: store("tenant_burst", policy.tenantBurstExtra, 10),
      batch: tenantReservationBatch(policy.tenantPerSecond),
    });
    this.signup = store("signup", policy.signupPerHour, 3600, policy.signupLockSeconds);
    this.resendIp = store("resend_ip", policy.resendPerHourPerIp, 3600);
    this.resendEmail = store("resend_email", policy.resendPerHourPerEmail, 3600);
    // Password-reset requests: the signup limit per source address, the resend limit per address.
    this.passwordResetIp = store("password_reset_ip", policy.signupPerHour, 3600, policy.signupLockSeconds);
    this.passwordResetEmail = store("password_reset_email", policy.resendPerHourPerEmail, 3600);
  }

  /** Consumes one request of the tenant's budget; 429 RATE_LIMITED when it is spent. */
  async consumeTenant(tenantId: string): Promise<TenantRateLimit> {
    try {
      const res = await this.tenant.consume(tenantId);
      return {
        limit: this.policy.tenantPerSecond,
        remaining: Math.max(0, res.remainingPoints),
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      };
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
      await this.resendEmail.consume(emailKey(email));
      return true;
    } catch (res) {
      if (res instanceof RateLimiterRes) return false;
      throw res;
    }
  }

  /** Password-reset requests from one source address, limited like signups: 429 past the limit. */
  async consumePasswordReset(ip: string): Promise<void> {
    await consumeOr429(this.passwordResetIp, ip, "too many password reset requests from this address");
  }

  /** False past the per-address limit: the request still answers 202 and nothing is sent. */
  async allowPasswordResetEmail(email: string): Promise<boolean> {
    try {
      await this.passwordResetEmail.consume(emailKey(email));
      return true;
    } catch (res) {
      if (res instanceof RateLimiterRes) return false;
      throw res;
    }
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

/**
 * Per-address limiter keys are the address's SHA-256: a 254-character address would overflow the
 * limiter's key column, and addresses stay out of that table.
 */
function emailKey(email: string): string {
  return createHash("sha256").update(email, "utf8").digest("hex");
}
