import type { DatabaseHandle } from "@qc/db";
import type { BufferedAuditAction } from "../audit/actions";
import { AuditBuffer, type AuditBufferOptions } from "../audit/audit-buffer";
import type { AuditEventInput } from "../audit/record-audit-event";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import { AllowlistCache } from "./allowlist-cache";
import { ApiKeyVerifier, type ApiKeyCredential } from "./api-key-verifier";
import { AuthCacheInvalidation, type AuthSubject } from "./auth-cache-invalidation";
import { Lockout, type LockoutPolicy, type LoginAccount } from "./lockout";
import type { CredentialFailure, CredentialRequest, Principal, Verification } from "./principal";
import { parseCredentials } from "./tokens";
import { verifySession } from "./verify-session";

export { announceAuthChange, type AuthChangeDeps, type AuthSubject } from "./auth-cache-invalidation";
export { DEFAULT_LOCKOUT, type LockoutPolicy, type LoginAccount } from "./lockout";
export type { CredentialRequest, Principal } from "./principal";
export { SESSION_ABSOLUTE_TTL_MS, SESSION_TTL_MS } from "./verify-session";

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
 * Authentication for every route, as one object the web instance holds: API keys
 * (ApiKeyVerifier), dashboard sessions (verifySession), the brute-force lockout (Lockout), each
 * tenant's IP allowlist (AllowlistCache), the caches' cross-instance invalidation
 * (AuthCacheInvalidation) and the refusal audit (AuditBuffer).
 */
export class Authenticator {
  private readonly invalidation: AuthCacheInvalidation;
  private readonly keys: ApiKeyVerifier;
  private readonly allowlists: AllowlistCache;
  private readonly lockout: Lockout;
  private readonly audit: AuditBuffer;
  private closed = false;

  constructor(private readonly options: AuthenticatorOptions) {
    const { database, pepper, now, log } = options;
    this.invalidation = new AuthCacheInvalidation({ databaseUrl: options.databaseUrl, log });
    this.keys = new ApiKeyVerifier({
      db: database.db,
      pepper,
      now,
      log,
      cache: this.invalidation.cache<ApiKeyCredential>("key", (key) => key.createdByUserId),
    });
    this.allowlists = new AllowlistCache(database.db, this.invalidation.cache<string[]>("tenant"));
    this.lockout = new Lockout(database.pool, pepper, options.lockout);
    this.audit = new AuditBuffer(database.db, log, options.audit);
  }

  /** Subscribes to credential changes made by other instances (see AuthCacheInvalidation). */
  async listen(): Promise<void> {
    if (this.closed) return;
    await this.invalidation.listen();
  }

  /** Whether cross-instance invalidation is live (readiness, tests). */
  get listenerConnected(): boolean {
    return this.invalidation.listening;
  }

  /** A change to `subject` made through this instance: see `AuthCacheInvalidation.changing`. */
  changing(subject: AuthSubject): void {
    this.invalidation.changing(subject);
  }

  invalidate(subject: string): void {
    this.invalidation.invalidate(subject);
  }

  /** Resolves the caller or throws the contract's 401/429; records and counts failures. */
  async authenticate(request: CredentialRequest): Promise<Principal> {
    const credentials = parseCredentials(request.authorization, request.cookie);
    if (credentials.kind === "missing") {
      await this.fail(request, {
        reason: "missing",
        counts: false,
        error: new AppError("UNAUTHENTICATED", "authentication required: send Authorization: Bearer <keyId>:<secret>"),
      });
    }
    await this.lockout.refuseIfLockedOut(request.ip);
    if (credentials.kind === "malformed") {
      await this.fail(request, { reason: "malformed", counts: true, error: new AppError("UNAUTHENTICATED", "malformed credentials") });
    }
    let verified: Verification;
    if (credentials.kind === "api_key") verified = await this.keys.verify(credentials.keyId, credentials.secret);
    else if (credentials.kind === "session")
      verified = await verifySession({ db: this.options.database.db, now: this.options.now }, credentials.token);
    else throw new AppError("UNAUTHENTICATED", "authentication required");
    if ("failure" in verified) return this.fail(request, verified.failure);
    return verified.principal;
  }

  /** The tenant's allowlist CIDRs (empty: all allowed), cached and invalidated on change. */
  allowlist(tenantId: string): Promise<string[]> {
    return this.allowlists.entries(tenantId);
  }

  /**
   * Throws LOCKED_OUT while the source is locked (IPv6 by its /64), or, for a login, while the
   * account is, whatever the credentials.
   */
  refuseIfLockedOut(ip: string, account?: LoginAccount): Promise<void> {
    return this.lockout.refuseIfLockedOut(ip, account);
  }

  /** Counts a failed credential check against the source, and for a login against the account. */
  countFailure(ip: string, account?: LoginAccount): Promise<void> {
    return this.lockout.countFailure(ip, account);
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

  /** Writes the batched lastUsedAt values now (tests). */
  flushLastUsed(): Promise<void> {
    return this.keys.flushLastUsed();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.keys.close();
    await this.audit.close();
    await this.invalidation.close();
  }

  private async fail(request: CredentialRequest, failure: CredentialFailure): Promise<never> {
    if (failure.counts) await this.lockout.countFailure(request.ip);
    this.audit.add({
      action: "auth.failed",
      actorType: "anonymous",
      actorId: failure.keyId ?? failure.userId ?? null,
      tenantId: failure.tenantId ?? null,
      requestId: request.requestId,
      ip: request.ip,
      details: { reason: failure.reason, counted: failure.counts, ...(failure.keyId ? { keyId: failure.keyId } : {}) },
    });
    throw failure.error;
  }
}
