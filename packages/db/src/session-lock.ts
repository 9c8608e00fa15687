import pg from "pg";

export interface SessionLockOptions {
  url: string;
  /** The lock's name; two holders of one name are never both `held`. */
  name: string;
  /** Shown in pg_stat_activity: how operators and tests find the connection. */
  applicationName: string;
}

export interface SessionLock {
  /**
   * Takes the lock without waiting, or confirms it is still held: true while this instance holds
   * it. Connects first when needed; a connection error is thrown (the caller tries again later).
   */
  tryAcquire(): Promise<boolean>;
  /** Whether the lock is held right now (false as soon as its connection is lost). */
  readonly held: boolean;
  /** Gives the lock up and closes the connection, so another instance takes it at once. */
  release(): Promise<void>;
}

/**
 * A PostgreSQL session-level advisory lock (`pg_try_advisory_lock`) on a dedicated connection: at
 * most one holder per name across processes, and a holder that dies — SIGKILL, a lost connection —
 * loses it with its session, so another instance can take it at its next attempt. A lost connection
 * is seen by the 'error'/'end' of the client, after which `held` is false; between the loss and that
 * notice two instances may both believe they hold it, so what the holder does must stay safe when
 * done twice (conditional updates), the lock only keeping the work from being done twice over.
 */
export function createSessionLock(options: SessionLockOptions): SessionLock {
  let client: pg.Client | undefined;
  let held = false;

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client({ connectionString: options.url, application_name: options.applicationName });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      held = false;
      next.end().catch(() => {});
    };
    next.on("error", lost);
    next.on("end", lost);
    await next.connect();
    client = next;
    return next;
  }

  return {
    get held() {
      return held;
    },
    async tryAcquire() {
      if (held && client) return true;
      const session = client ?? (await connect());
      const { rows } = await session.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtextextended($1, 0)) as locked", [
        options.name,
      ]);
      held = client === session && rows[0]?.locked === true;
      return held;
    },
    async release() {
      const session = client;
      client = undefined;
      held = false;
      if (!session) return;
      // Ending the session gives every lock of it back.
      await session.end().catch(() => {});
    },
  };
}
