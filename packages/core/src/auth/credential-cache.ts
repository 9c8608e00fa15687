/** How long a cached record is used at most, notification or not. */
const CACHE_TTL_MS = 60_000;

/** What a cache asks of the invalidation that keeps it coherent (see AuthCacheInvalidation). */
export interface CacheCoherence {
  /** Bumped by every invalidation. */
  readonly generation: number;
  /** Whether cached records may be used at all right now. */
  usable(): boolean;
  /** Whether this instance changed `subject` a moment ago (its notification may not have arrived). */
  changedHere(subject: string): boolean;
}

/**
 * Records read from the database by id (`key:<id>`, `tenant:<id>` as subjects), reused for at most
 * a minute, and only while `coherence` says so. A read that was in flight when an invalidation
 * arrived may hold the old record: it answers its request but is not cached.
 *
 * A record may also belong to a member (`memberOf`: an API key to its creator, whose role it
 * carries): a change to the member (`user:<id>`, a role change) drops every record of theirs.
 */
export class CredentialCache<T> {
  private readonly entries = new Map<string, { value: T; loadedAt: number }>();

  constructor(
    private readonly coherence: CacheCoherence,
    private readonly prefix: "key" | "tenant",
    private readonly memberOf: (value: T) => string | null = () => null,
  ) {}

  /** The cached record, or `load()`'s; `undefined` (no such record) is never cached. */
  async get(id: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const subject = `${this.prefix}:${id}`;
    const cached = this.entries.get(id);
    if (cached && this.coherence.usable() && Date.now() - cached.loadedAt < CACHE_TTL_MS && !this.changedHere(subject, cached.value))
      return cached.value;
    const generation = this.coherence.generation;
    const value = await load();
    if (value === undefined) {
      this.entries.delete(id);
      return undefined;
    }
    if (generation === this.coherence.generation && !this.changedHere(subject, value))
      this.entries.set(id, { value, loadedAt: Date.now() });
    return value;
  }

  /** Drops the record `subject` names, when it is one of this cache's, or every record of the member it names. */
  forget(subject: string): void {
    if (subject.startsWith(`${this.prefix}:`)) this.entries.delete(subject.slice(this.prefix.length + 1));
    else if (subject.startsWith("user:")) {
      const userId = subject.slice("user:".length);
      for (const [id, entry] of this.entries) if (this.memberOf(entry.value) === userId) this.entries.delete(id);
    }
  }

  /** Whether this instance changed the record, or the member it belongs to, a moment ago. */
  private changedHere(subject: string, value: T): boolean {
    const member = this.memberOf(value);
    return this.coherence.changedHere(subject) || (member !== null && this.coherence.changedHere(`user:${member}`));
  }

  clear(): void {
    this.entries.clear();
  }
}
