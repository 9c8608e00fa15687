import { createHmac } from "node:crypto";
import type { DatabaseHandle, Executor } from "@qc/db";
import { findApiKeyCredential, findSessionByTokenHash, listIpAllowlistEntries, notifyChannel, recordApiKeysLastUsed, touchSession } from "@qc/db/queries";
import pg from "pg";
import { RateLimiterPostgres, type RateLimiterRes } from "rate-limiter-flexible";
import type { BufferedAuditAction } from "../audit/actions";
import { AuditBuffer, type AuditBufferOptions } from "../audit/audit-buffer";
import type { AuditEventInput } from "../audit/record-audit-event";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import type { Scope } from "./scopes";
import { sourceKey } from "./source-key";
import { digestsEqual, hashApiSecret, hashToken, parseCredentials } from "./tokens";

export interface Principal {
  kind: "api_key" | "session";
  tenantId: string;
  /** Empty means full access (CONTRACT §3). Sessions are the tenant's admins: full access. */
  scopes: Scope[];
  keyId?: string;
  userId?: string;
  sessionId?: string;
}

export interface CredentialRequest {
  authorization?: string;
  cookie?: string;
  ip: string;
  requestId: string;
  userAgent?: string;
}

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
export const SESSION_TTL_MS = 12 * 3600_000;
/** However much it is used, a dashboard session ends this long after its login. */
export const SESSION_ABSOLUTE_TTL_MS = 7 * 24 * 3600_000;
/** A session's expiry slides forward at most this often (one write per minute, not per request). */
const SESSION_TOUCH_MS = 60_000;
const KEY_CACHE_TTL_MS = 60_000;
/** Reconnect backoff of the auth LISTEN connection. */
const LISTENER_RETRY_MIN_MS = 500;
const LISTENER_RETRY_MAX_MS = 15_000;
/** How long a source's "not locked out" answer is reused before asking the shared store again. */
const LOCKOUT_CACHE_MS = 1_000;
const AUTH_CHANNEL = "qc_auth";

interface CachedKey {
  tenantId: string;
  secretHash: string;
  scopes: Scope[];
  status: "ACTIVE" | "REVOKED";
  expiresAt: Date | null;
  graceEndsAt: Date | null;
  loadedAt: number;
}

/** How long an instance's caches skip a subject it changed itself (see `Authenticator.changing`). */
const LOCAL_CHANGE_MS = 10_000;

/**
 * Announces a credential or tenant-setting change to every instance's caches. Call inside the
 * transaction that makes the change: PostgreSQL delivers the notification only on commit. `local`
 * is the calling instance's authenticator (`ctx.deps.authenticator` in a router): its caches skip
 * the subject from now on, before the commit, until the notification has surely arrived.
 */
export async function announceAuthChange(tx: Executor, subject: AuthSubject, local: Pick<Authenticator, "changing">): Promise<void> {
  local.changing(subject);
  await notifyChannel(tx, { channel: AUTH_CHANNEL, payload: subject });
}

export type AuthSubject = `key:${string}` | `tenant:${string}`;

/**
 * What a service that changes credentials or tenant settings needs besides the database: the
 * calling instance's authenticator (the web's `ctx.deps` has it), told of the change.
 */
export interface AuthChangeDeps {
  authenticator: Pick<Authenticator, "changing">;
}

export interface AuthenticatorOptions {
  database: DatabaseHandle;
  /** For the LISTEN connection that keeps caches coherent across instances. */
  databaseUrl?: string;
  pepper: Buffer;
  now(): Date;
  log: Logger;
  lockout?: LockoutPolicy;
  /** Windows and caps of the refusal audit (tests shorten them). */
  audit?: Partial<AuditBufferOptions>;
}

/**
 * Authentication for every route: API keys (cached, constant-time HMAC check), dashboard
 * sessions, the per-source brute-force lockout, and each tenant's IP allowlist (cached).
 */
export class Authenticator {
  private readonly keys = new Map<string, CachedKey>();
  private readonly allowlists = new Map<string, { entries: string[]; loadedAt: number }>();
  private readonly lastUsed = new Map<string, Date>();
  /** Per source or account: locked until (ms epoch, 0 = not locked) and when that was read. */
  private readonly lockouts = new Map<string, { lockedUntil: number; readAt: number }>();
  private readonly audit: AuditBuffer;
  private readonly lockoutLimiter: RateLimiterPostgres;
  private readonly accountLimiter: RateLimiterPostgres;
  private readonly lockout: LockoutPolicy;
  private flushTimer: NodeJS.Timeout;
  private listener?: pg.Client;
  private listening = false;
  private closed = false;
  private relistenTimer?: NodeJS.Timeout;
  private relistenDelayMs = LISTENER_RETRY_MIN_MS;
  /**
   * Bumped by every invalidation: a read that was in flight when one arrived may hold the old
   * record, so it answers its request but is not cached.
   */
  private generation = 0;
  /** Subjects this instance changed → until when its caches skip them (ms epoch). */
  private readonly localChanges = new Map<string, number>();

  constructor(private readonly options: AuthenticatorOptions) {
    this.lockout = options.lockout ?? DEFAULT_LOCKOUT;
    const limiter = (keyPrefix: string) =>
      new RateLimiterPostgres({
        storeClient: options.database.pool,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        // The library blocks when consumption *exceeds* points: the Nth failure must exceed.
        points: this.lockout.failures - 1,
        duration: this.lockout.windowSeconds,
        blockDuration: this.lockout.lockSeconds,
      });
    this.lockoutLimiter = limiter("lockout");
    this.accountLimiter = limiter("lockout_account");
    this.audit = new AuditBuffer(options.database.db, options.log, options.audit);
    this.flushTimer = setInterval(() => void this.flushLastUsed().catch((err: unknown) => options.log.error({ err }, "lastUsedAt flush failed")), 10_000);
    this.flushTimer.unref();
  }

  /**
   * Subscribes to credential changes made by other instances. The caches are only read while
   * this subscription is up: a revocation made elsewhere while it is down (a PostgreSQL restart,
   * a cut connection) would otherwise be missed until the entry's TTL. So a lost listener turns
   * the caches off (every request reads the database, failing closed on revocation), reconnects
   * with backoff, and clears them once it listens again (notifications sent meanwhile are lost).
   */
  async listen(): Promise<void> {
    if (!this.options.databaseUrl || this.closed) return;
    const client = new pg.Client({ connectionString: this.options.databaseUrl, application_name: "qc-auth-listener" });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      this.listening = false;
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.options.log.warn({ err }, "auth listener lost; credential caches off until it reconnects");
      this.scheduleRelisten();
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (message) => this.invalidate(message.payload ?? ""));
    await client.connect();
    await client.query(`listen ${AUTH_CHANNEL}`);
    this.listener = client;
    this.keys.clear();
    this.allowlists.clear();
    this.generation++;
    this.listening = true;
    this.relistenDelayMs = LISTENER_RETRY_MIN_MS;
  }

  private scheduleRelisten(): void {
    clearTimeout(this.relistenTimer);
    this.relistenTimer = setTimeout(() => {
      this.listen().catch((err: unknown) => {
        this.options.log.warn({ err }, "auth listener reconnect failed; retrying");
        this.relistenDelayMs = Math.min(this.relistenDelayMs * 2, LISTENER_RETRY_MAX_MS);
        this.scheduleRelisten();
      });
    }, this.relistenDelayMs);
    this.relistenTimer.unref();
  }

  /** Cached credentials may be used: single-instance (no listener configured) or listening now. */
  private cacheUsable(): boolean {
    return !this.options.databaseUrl || this.listening;
  }

  /** Whether cross-instance invalidation is live (readiness, tests). */
  get listenerConnected(): boolean {
    return this.listening;
  }

  /**
   * A change to `subject` made through this instance (`announceAuthChange`, before the commit).
   * Its notification reaches this instance's own LISTEN connection a moment after the commit,
   * which can be after the caller has the answer and sent its next request: the caches skip the
   * subject for LOCAL_CHANGE_MS, so a revocation or a new allowlist applies to the very next
   * request on the instance that made it (read your own writes). Other instances rely on the
   * notification.
   */
  changing(subject: AuthSubject): void {
    const now = Date.now();
    if (this.localChanges.size >= 10_000) for (const [changed, until] of this.localChanges) if (until <= now) this.localChanges.delete(changed);
    this.localChanges.set(subject, now + LOCAL_CHANGE_MS);
    this.invalidate(subject);
  }

  private changedHere(subject: string): boolean {
    const until = this.localChanges.get(subject);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.localChanges.delete(subject);
    return false;
  }

  invalidate(subject: string): void {
    this.generation++;
    if (subject.startsWith("key:")) this.keys.delete(subject.slice(4));
    else if (subject.startsWith("tenant:")) this.allowlists.delete(subject.slice(7));
  }

  /**
   * Records a refused request that changed no state (bad credentials, an address outside the
   * allowlist, a missing scope, key material in a body) through the audit buffer: batched, and
   * bounded: refusals naming no tenant are counted per source and minute, those naming one are
   * rows of their own up to a cap, so a flood of refusals can neither become a flood of writes
   * nor fill the append-only table (AuditBuffer; docs/decisions/access-control.md, "Audit").
   */
  recordRefusal(event: AuditEventInput & { action: BufferedAuditAction }): void {
    this.audit.add(event);
  }

  /** Writes the buffered authentication-failure audit rows now (tests, shutdown). */
  flushAudit(): Promise<void> {
    return this.audit.flush();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.flushTimer);
    clearTimeout(this.relistenTimer);
    await this.flushLastUsed().catch(() => {});
    await this.audit.close();
    await this.listener?.end().catch(() => {});
  }

  /** Resolves the caller or throws the contract's 401/429; records and counts failures. */
  async authenticate(request: CredentialRequest): Promise<Principal> {
    const credentials = parseCredentials(request.authorization, request.cookie);
    if (credentials.kind === "missing") {
      await this.fail(request, "missing", false, new AppError("UNAUTHENTICATED", "authentication required: send Authorization: Bearer <keyId>:<secret>"));
    }
    await this.refuseIfLockedOut(request.ip);
    if (credentials.kind === "malformed") {
      await this.fail(request, "malformed", true, new AppError("UNAUTHENTICATED", "malformed credentials"));
    }
    if (credentials.kind === "api_key") return this.authenticateKey(request, credentials.keyId, credentials.secret);
    if (credentials.kind === "session") return this.authenticateSession(request, credentials.token);
    throw new AppError("UNAUTHENTICATED", "authentication required");
  }

  private async authenticateKey(request: CredentialRequest, keyId: string, secret: string): Promise<Principal> {
    const key = await this.loadKey(keyId);
    const presented = hashApiSecret(this.options.pepper, secret);
    // The same comparison runs whether or not the key exists, so timing does not tell them apart.
    const matches = digestsEqual(presented, key?.secretHash ?? "0".repeat(64)) && key !== undefined;
    if (!key || !matches) {
      return this.fail(request, "bad_key_or_secret", true, new AppError("UNAUTHENTICATED", "invalid credentials"), { keyId });
    }
    const now = this.options.now();
    if (key.status === "REVOKED") return this.fail(request, "revoked", false, new AppError("CREDENTIAL_REVOKED", "credential revoked"), { keyId, tenantId: key.tenantId });
    if (key.graceEndsAt && key.graceEndsAt <= now) {
      return this.fail(request, "rotated", false, new AppError("CREDENTIAL_ROTATED", "credential rotated and grace period expired"), { keyId, tenantId: key.tenantId });
    }
    if (key.expiresAt && key.expiresAt <= now) return this.fail(request, "expired", false, new AppError("CREDENTIAL_EXPIRED", "credential expired"), { keyId, tenantId: key.tenantId });
    this.lastUsed.set(keyId, now);
    return { kind: "api_key", tenantId: key.tenantId, scopes: key.scopes, keyId };
  }

  private async loadKey(keyId: string): Promise<CachedKey | undefined> {
    const subject = `key:${keyId}`;
    const cached = this.keys.get(keyId);
    if (cached && this.cacheUsable() && Date.now() - cached.loadedAt < KEY_CACHE_TTL_MS && !this.changedHere(subject)) return cached;
    const generation = this.generation;
    const row = await findApiKeyCredential(this.options.database.db, { keyId });
    if (!row) {
      this.keys.delete(keyId);
      return undefined;
    }
    const entry: CachedKey = { ...row, scopes: row.scopes as Scope[], loadedAt: Date.now() };
    if (generation === this.generation && !this.changedHere(subject)) this.keys.set(keyId, entry);
    return entry;
  }

  private async authenticateSession(request: CredentialRequest, token: string): Promise<Principal> {
    const { db } = this.options.database;
    const row = await findSessionByTokenHash(db, { tokenHash: hashToken(token) });
    if (!row) return this.fail(request, "unknown_session", true, new AppError("UNAUTHENTICATED", "invalid credentials"));
    const now = this.options.now();
    const absoluteEnd = row.createdAt.getTime() + SESSION_ABSOLUTE_TTL_MS;
    if (row.revokedAt || row.expiresAt <= now || absoluteEnd <= now.getTime()) {
      // Expired or logged-out sessions are audited but are not password guessing.
      return this.fail(request, "session_expired", false, new AppError("UNAUTHENTICATED", "session expired; log in again"), { tenantId: row.tenantId, userId: row.userId });
    }
    if (now.getTime() - row.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
      // Sliding, but never past the absolute end: a session polled forever still ends.
      const expiresAt = new Date(Math.min(now.getTime() + SESSION_TTL_MS, absoluteEnd));
      await touchSession(db, { tenantId: row.tenantId, sessionId: row.id, lastSeenAt: now, expiresAt });
    }
    return { kind: "session", tenantId: row.tenantId, scopes: [], userId: row.userId, sessionId: row.id };
  }

  /**
   * Throws LOCKED_OUT while the source is locked (IPv6 by its /64), or, for a login, while the
   * account is, whatever the credentials.
   */
  async refuseIfLockedOut(ip: string, account?: LoginAccount): Promise<void> {
    const source = sourceKey(ip);
    const lockedUntil = await this.lockedUntil(this.lockoutLimiter, source, source);
    const now = Date.now();
    if (lockedUntil > now) {
      throw new AppError("LOCKED_OUT", "too many failed authentication attempts from this address", { retryAfter: (lockedUntil - now) / 1000 });
    }
    if (account === undefined) return;
    const key = this.accountKey(account);
    const accountLockedUntil = await this.lockedUntil(this.accountLimiter, key, `account:${key}`);
    if (accountLockedUntil > now) {
      // The same answer for an address that has no account: unknown addresses are counted too.
      throw new AppError("LOCKED_OUT", "too many failed log-in attempts for this account; try again later", { retryAfter: (accountLockedUntil - now) / 1000 });
    }
  }

  private async lockedUntil(limiter: RateLimiterPostgres, key: string, cacheKey: string): Promise<number> {
    const now = Date.now();
    let entry = this.lockouts.get(cacheKey);
    if (!entry || (entry.lockedUntil <= now && now - entry.readAt > LOCKOUT_CACHE_MS)) {
      const state = await limiter.get(key);
      const locked = state !== null && state.consumedPoints >= this.lockout.failures && state.msBeforeNext > 0;
      entry = { lockedUntil: locked ? now + state.msBeforeNext : 0, readAt: now };
      this.rememberLockout(cacheKey, entry);
    }
    return entry.lockedUntil;
  }

  /**
   * Counts a failed credential check from `ip` (its /64 for IPv6), and for a login against the
   * account as well: spreading guesses over many addresses does not get past the account's count.
   */
  async countFailure(ip: string, account?: LoginAccount): Promise<void> {
    const source = sourceKey(ip);
    await this.consumeFailure(this.lockoutLimiter, source, source);
    if (account !== undefined) {
      const key = this.accountKey(account);
      await this.consumeFailure(this.accountLimiter, key, `account:${key}`);
    }
  }

  private async consumeFailure(limiter: RateLimiterPostgres, key: string, cacheKey: string): Promise<void> {
    const res = await limiter.consume(key).catch((rejection: RateLimiterRes | Error) => {
      if (rejection instanceof Error) throw rejection;
      return rejection;
    });
    const now = Date.now();
    const locked = res.consumedPoints >= this.lockout.failures && res.msBeforeNext > 0;
    this.rememberLockout(cacheKey, { lockedUntil: locked ? now + res.msBeforeNext : 0, readAt: now });
  }

  /**
   * The account's counter key: a keyed hash of the address, so the shared rate_limits table holds
   * no addresses (people type passwords into the email field) and cannot be reversed offline.
   */
  private accountKey(account: LoginAccount): string {
    return createHmac("sha256", this.options.pepper).update(`login-account:${account.realm}:${account.email.trim().toLowerCase()}`, "utf8").digest("hex");
  }

  private rememberLockout(key: string, entry: { lockedUntil: number; readAt: number }) {
    if (this.lockouts.size > 50_000) this.lockouts.clear(); // bounded: a cache, not the source of truth
    this.lockouts.set(key, entry);
  }

  private async fail(
    request: CredentialRequest,
    reason: string,
    counts: boolean,
    error: AppError,
    extra: { keyId?: string; tenantId?: string; userId?: string } = {},
  ): Promise<never> {
    if (counts) await this.countFailure(request.ip);
    this.audit.add({
      action: "auth.failed",
      actorType: "anonymous",
      actorId: extra.keyId ?? extra.userId ?? null,
      tenantId: extra.tenantId ?? null,
      requestId: request.requestId,
      ip: request.ip,
      details: { reason, counted: counts, ...(extra.keyId ? { keyId: extra.keyId } : {}) },
    });
    throw error;
  }

  /** The tenant's allowlist CIDRs (empty: all allowed), cached and invalidated on change. */
  async allowlist(tenantId: string): Promise<string[]> {
    const subject = `tenant:${tenantId}`;
    const cached = this.allowlists.get(tenantId);
    if (cached && this.cacheUsable() && Date.now() - cached.loadedAt < KEY_CACHE_TTL_MS && !this.changedHere(subject)) return cached.entries;
    const generation = this.generation;
    const entries = (await listIpAllowlistEntries(this.options.database.db, { tenantId })).map((entry) => entry.cidr);
    if (generation === this.generation && !this.changedHere(subject)) this.allowlists.set(tenantId, { entries, loadedAt: Date.now() });
    return entries;
  }

  /** Writes the batched lastUsedAt values: one UPDATE for every key used since the last flush. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    await recordApiKeysLastUsed(
      this.options.database.db,
      batch.map(([keyId, usedAt]) => ({ keyId, usedAt })),
    );
  }
}
