import { createNotificationListener, type Executor, type NotificationListener } from "@qc/db";
import { notifyChannel } from "@qc/db/queries";
import type { Logger } from "../logger";
import { CredentialCache, type CacheCoherence } from "./credential-cache";

const AUTH_CHANNEL = "qc_auth";
/** How long an instance's caches skip a subject it changed itself (see `changing`). */
const LOCAL_CHANGE_MS = 10_000;

/**
 * What a change names: an API key (`key:<keyId>`), a tenant's settings (`tenant:<id>`), or a member
 * (`user:<userId>`: a role change, which every cached key the member created carries).
 */
export type AuthSubject = `key:${string}` | `tenant:${string}` | `user:${string}`;

/**
 * What a service that changes credentials or tenant settings needs besides the database: the
 * calling instance's authenticator (the web's `ctx.deps` has it), told of the change.
 */
export interface AuthChangeDeps {
  authenticator: { changing(subject: AuthSubject): void };
}

/**
 * Announces a credential or tenant-setting change to every instance's caches. Call inside the
 * transaction that makes the change: PostgreSQL delivers the notification only on commit. `local`
 * is the calling instance's authenticator (`ctx.deps.authenticator` in a router): its caches skip
 * the subject from now on, before the commit, until the notification has surely arrived.
 */
export async function announceAuthChange(tx: Executor, subject: AuthSubject, local: AuthChangeDeps["authenticator"]): Promise<void> {
  local.changing(subject);
  await notifyChannel(tx, { channel: AUTH_CHANNEL, payload: subject });
}

/**
 * Keeps the credential caches of every instance coherent: a notification on `qc_auth` per change
 * (`announceAuthChange`) drops the record it names. The caches are only read while the LISTEN is
 * up: a revocation made elsewhere while it is down (a PostgreSQL restart, a cut connection) would
 * otherwise be missed until the entry's TTL. So a lost listener turns the caches off (every
 * request reads the database, failing closed on revocation), reconnects with backoff, and clears
 * them once it listens again (notifications sent meanwhile are lost). Without a database URL
 * (one instance) the caches are always on.
 */
export class AuthCacheInvalidation implements CacheCoherence {
  /** Bumped by every invalidation (see CredentialCache). */
  generation = 0;
  private readonly caches: CredentialCache<unknown>[] = [];
  /** Subjects this instance changed → until when its caches skip them (ms epoch). */
  private readonly localChanges = new Map<string, number>();
  private listener?: NotificationListener;
  private closed = false;

  constructor(private readonly options: { databaseUrl?: string; log: Logger }) {}

  /** A cache kept coherent by these notifications; `memberOf` names the member a record belongs to (see CredentialCache). */
  cache<T>(prefix: "key" | "tenant", memberOf?: (value: T) => string | null): CredentialCache<T> {
    const cache = new CredentialCache<T>(this, prefix, memberOf);
    this.caches.push(cache as CredentialCache<unknown>);
    return cache;
  }

  /** Subscribes to changes made by other instances; rejects when the first attempt fails (it keeps retrying). */
  async listen(): Promise<void> {
    if (!this.options.databaseUrl || this.closed || this.listener) return;
    const { log } = this.options;
    this.listener = createNotificationListener({
      url: this.options.databaseUrl,
      channel: AUTH_CHANNEL,
      applicationName: "qc-auth-listener",
      onNotification: (subject) => this.invalidate(subject),
      onListening: () => {
        for (const cache of this.caches) cache.clear();
        this.generation++;
      },
      onLost: (err) => log.warn({ err }, "auth listener lost; credential caches off until it reconnects"),
      onReconnectFailed: (err) => log.warn({ err }, "auth listener reconnect failed; retrying"),
    });
    await this.listener.start();
  }

  /** Whether cross-instance invalidation is live. */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  /** Cached records may be used: single-instance (no listener configured) or listening now. */
  usable(): boolean {
    return !this.options.databaseUrl || this.listening;
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
    if (this.localChanges.size >= 10_000)
      for (const [changed, until] of this.localChanges) if (until <= now) this.localChanges.delete(changed);
    this.localChanges.set(subject, now + LOCAL_CHANGE_MS);
    this.invalidate(subject);
  }

  changedHere(subject: string): boolean {
    const until = this.localChanges.get(subject);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.localChanges.delete(subject);
    return false;
  }

  invalidate(subject: string): void {
    this.generation++;
    for (const cache of this.caches) cache.forget(subject);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.close();
  }
}
