import pg from "pg";

export interface NotificationListenerOptions {
  url: string;
  channel: string;
  /** Shown in pg_stat_activity: how operators and tests find the connection. */
  applicationName: string;
  /** One call per notification on the channel, with its payload ("" when it has none). */
  onNotification(payload: string): void;
  /** LISTEN is in place: after `start()` and after every reconnect. Notifications sent while nobody listened are lost. */
  onListening?(): void;
  /** The connection was lost (not by `close()`); a reconnect follows after the backoff. */
  onLost?(error: Error | undefined): void;
  /** A reconnect failed; the next one follows after a doubled backoff. */
  onReconnectFailed?(error: unknown): void;
  /** Delay before a reconnect: `minMs`, doubled after each failed attempt up to `maxMs`, `minMs` again once listening. */
  backoff?: { minMs: number; maxMs: number };
}

export interface NotificationListener {
  /** Connects and LISTENs; rejects when this first attempt fails (reconnects go on meanwhile). */
  start(): Promise<void>;
  /** Whether LISTEN is in place right now. */
  readonly listening: boolean;
  /** Ends the connection and every reconnect. */
  close(): Promise<void>;
}

const DEFAULT_BACKOFF = { minMs: 500, maxMs: 15_000 };

/**
 * LISTEN on one channel over a dedicated connection (LISTEN needs a session of its own; a pooled
 * connection would drop it), kept up across PostgreSQL restarts and cut connections: a lost
 * connection is reported, then replaced with backoff. While it is down notifications are lost,
 * so callers treat `onListening` as "anything may have changed meanwhile".
 */
export function createNotificationListener(options: NotificationListenerOptions): NotificationListener {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delayMs = backoff.minMs;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.url, application_name: options.applicationName });
    let lost = false;
    const onLost = (error?: Error) => {
      // Only an established connection is "lost"; a failed attempt is reported by its rejection.
      if (lost || client !== next) return;
      lost = true;
      listening = false;
      client = undefined;
      next.end().catch(() => {});
      if (closed) return;
      options.onLost?.(error);
      scheduleReconnect();
    };
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel === options.channel) options.onNotification(message.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(options.channel)}`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      next.end().catch(() => {});
      return;
    }
    client = next;
    listening = true;
    delayMs = backoff.minMs;
    options.onListening?.();
  }

  function attempt(): Promise<void> {
    return connect().catch((error: unknown) => {
      if (!closed) {
        delayMs = Math.min(delayMs * 2, backoff.maxMs);
        scheduleReconnect();
      }
      throw error;
    });
  }

  function scheduleReconnect(): void {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      attempt().catch((error: unknown) => {
        if (!closed) options.onReconnectFailed?.(error);
      });
    }, delayMs);
    retryTimer.unref();
  }

  return {
    start: attempt,
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
