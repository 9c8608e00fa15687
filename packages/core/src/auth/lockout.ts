import { createHmac } from "node:crypto";
import type { DatabaseHandle } from "@qc/db";
import { RateLimiterPostgres, type RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";
import { sourceKey } from "./source-key";

/**
 * What a failed or attempted login is counted against besides its source: the account, named by
 * its normalised address whether or not it exists (so a lock says nothing about existence).
 * `realm` keeps the operators' console apart from tenant logins.
 */
export interface LoginAccount {
  realm: "user" | "operator";
  email: string;
}

export interface LockoutPolicy {
  failures: number;
  windowSeconds: number;
  lockSeconds: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { failures: 10, windowSeconds: 600, lockSeconds: 900 };
/** How long a source's "not locked out" answer is reused before asking the shared store again. */
const LOCKOUT_CACHE_MS = 1_000;

interface LockState {
  /** Locked until (ms epoch, 0 = not locked). */
  lockedUntil: number;
  readAt: number;
}

/**
 * The brute-force lockout, per source (IPv6 by its /64) and, for logins, per account: counters
 * shared by every instance in PostgreSQL (rate-limiter-flexible), each instance reusing a
 * "not locked" answer for a second.
 */
export class Lockout {
  private readonly sources: RateLimiterPostgres;
  private readonly accounts: RateLimiterPostgres;
  private readonly states = new Map<string, LockState>();

  constructor(
    pool: DatabaseHandle["pool"],
    private readonly pepper: Buffer,
    private readonly policy: LockoutPolicy = DEFAULT_LOCKOUT,
  ) {
    const limiter = (keyPrefix: string) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        // The library blocks when consumption *exceeds* points: the Nth failure must exceed.
        points: policy.failures - 1,
        duration: policy.windowSeconds,
        blockDuration: policy.lockSeconds,
      });
    this.sources = limiter("lockout");
    this.accounts = limiter("lockout_account");
  }

  /**
   * Throws LOCKED_OUT while the source is locked (IPv6 by its /64), or, for a login, while the
   * account is, whatever the credentials.
   */
  async refuseIfLockedOut(ip: string, account?: LoginAccount): Promise<void> {
    const source = sourceKey(ip);
    const lockedUntil = await this.lockedUntil(this.sources, source, source);
    const now = Date.now();
    if (lockedUntil > now) {
      throw new AppError("LOCKED_OUT", "too many failed authentication attempts from this address", {
        retryAfter: (lockedUntil - now) / 1000,
      });
    }
    if (account === undefined) return;
    const key = this.accountKey(account);
    const accountLockedUntil = await this.lockedUntil(this.accounts, key, `account:${key}`);
    if (accountLockedUntil > now) {
      // The same answer for an address that has no account: unknown addresses are counted too.
      throw new AppError("LOCKED_OUT", "too many failed log-in attempts for this account; try again later", {
        retryAfter: (accountLockedUntil - now) / 1000,
      });
    }
  }

  /**
   * Counts a failed credential check from `ip` (its /64 for IPv6), and for a login against the
   * account as well: spreading guesses over many addresses does not get past the account's count.
   */
  async countFailure(ip: string, account?: LoginAccount): Promise<void> {
    const source = sourceKey(ip);
    await this.consumeFailure(this.sources, source, source);
    if (account !== undefined) {
      const key = this.accountKey(account);
      await this.consumeFailure(this.accounts, key, `account:${key}`);
    }
  }

  private async lockedUntil(limiter: RateLimiterPostgres, key: string, stateKey: string): Promise<number> {
    const now = Date.now();
    let state = this.states.get(stateKey);
    if (!state || (state.lockedUntil <= now && now - state.readAt > LOCKOUT_CACHE_MS)) {
      const stored = await limiter.get(key);
      const locked = stored !== null && stored.consumedPoints >= this.policy.failures && stored.msBeforeNext > 0;
      state = { lockedUntil: locked ? now + stored.msBeforeNext : 0, readAt: now };
      this.remember(stateKey, state);
    }
    return state.lockedUntil;
  }

  private async consumeFailure(limiter: RateLimiterPostgres, key: string, stateKey: string): Promise<void> {
    const res = await limiter.consume(key).catch((rejection: RateLimiterRes | Error) => {
      if (rejection instanceof Error) throw rejection;
      return rejection;
    });
    const now = Date.now();
    const locked = res.consumedPoints >= this.policy.failures && res.msBeforeNext > 0;
    this.remember(stateKey, { lockedUntil: locked ? now + res.msBeforeNext : 0, readAt: now });
  }

  /**
   * The account's counter key: a keyed hash of the address, so the shared rate_limits table holds
   * no addresses (people type passwords into the email field) and cannot be reversed offline.
   */
  private accountKey(account: LoginAccount): string {
    return createHmac("sha256", this.pepper)
      .update(`login-account:${account.realm}:${account.email.trim().toLowerCase()}`, "utf8")
      .digest("hex");
  }

  private remember(key: string, state: LockState) {
    if (this.states.size > 50_000) this.states.clear(); // bounded: a cache, not the source of truth
    this.states.set(key, state);
  }
}
