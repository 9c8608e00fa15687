import pg from "pg";

/**
 * The request path's standalone reads by key (an API key, a session, a tenant's status, a vault,
 * a transaction) on a few long-lived node-postgres connections in pipeline mode (node-postgres 8.23+,
 * `pipeline: true`), shared by every request instead of checked out from the pool one query at a
 * time. Reads issued while others are in flight go out without waiting for the answers before
 * them, and PostgreSQL answers them in order: under load one socket write and one wake-up of the
 * server process carry many reads (on this project's 2-core machine the pool's write per query
 * cost ~70 µs of the web's CPU, a fifth of an authenticated read; docs/performance/reads.md).
 *
 * Only single read-only statements outside any transaction belong here (`defineRead` in
 * ./define-query.ts is the way in). Each carries its own Sync, so each is its own implicit
 * transaction and an error fails that read alone; none of them waits on row locks (a plain
 * SELECT never does), so a read cannot queue behind a write held up by a transaction that in
 * turn waits for a read. Writes and transactions stay on the pool.
 *
 * Connections are opened on first use, a read goes to the one with the fewest reads in flight,
 * a connection that fails (server restart, terminated backend) fails its reads in flight as a
 * pooled one would and is replaced on the next read, and one idle for `idleMillis` is closed, as
 * the pool closes its idle connections.
 */
export interface PipelinedReadsOptions {
  connectionString: string;
  /** How many connections to spread reads over (each one a PostgreSQL backend). */
  connections: number;
  applicationName: string;
  connectionTimeoutMillis: number;
  /** A connection with nothing in flight for this long is closed (pg-pool's default, 10 s). */
  idleMillis?: number;
}

interface Slot {
  client: pg.Client;
  inFlight: number;
  idleTimer: NodeJS.Timeout;
  closing: boolean;
  /** Writes held until the event loop's turn ends (see `holdWrites`). */
  corked: boolean;
  /** Takes the connection out of use (it is broken or closing). */
  forget(): void;
}

/**
 * A read's error that says its connection is gone: anything but an ordinary SQL error, e.g. the
 * server's FATAL "terminating connection" (which arrives before the socket closes), a reset
 * socket, "Connection terminated".
 */
function connectionLost(error: unknown): boolean {
  return !(error instanceof pg.DatabaseError) || error.severity === "FATAL" || error.severity === "PANIC";
}

/** The connection's socket, as node-postgres holds it (`client.connection.stream`). */
function socketOf(client: pg.Client): { cork?(): void; uncork?(): void; destroy?(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void; destroy?(): void } } }).connection?.stream;
}

export class PipelinedReads {
  private readonly slots: (Slot | undefined)[];
  private ended = false;

  constructor(private readonly options: PipelinedReadsOptions) {
    this.slots = new Array<Slot | undefined>(Math.max(1, options.connections)).fill(undefined);
  }

  /** node-postgres's `query(config, values)`, as drizzle's prepared queries call it. */
  query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    if (this.ended) return Promise.reject(new Error("the database handle is closed"));
    const slot = this.pick();
    slot.inFlight++;
    const settle = () => {
      if (--slot.inFlight === 0) slot.idleTimer.refresh();
    };
    if (!slot.corked) this.holdWrites(slot);
    const result = slot.client.query(config, values) as unknown as Promise<pg.QueryResult>;
    // A connection that failed a read for its own sake takes no more: a pool discards a client
    // released with an error the same way. Ordinary SQL errors leave it in use.
    result.then(settle, (error: unknown) => {
      settle();
      if (connectionLost(error)) slot.forget();
    });
    return result;
  }

  /** How many connections are open now (tests, metrics). */
  get openConnections(): number {
    return this.slots.filter((slot) => slot !== undefined).length;
  }

  async end(): Promise<void> {
    this.ended = true;
    const open = this.slots.filter((slot): slot is Slot => slot !== undefined);
    this.slots.fill(undefined);
    await Promise.all(open.map((slot) => this.close(slot)));
  }

  /**
   * node-postgres writes each pipelined read as it is queued (one socket write each). Requests
   * that arrive in the same turn of the event loop each queue their read in their own callback,
   * so the connection's socket is corked at the first read of a turn and uncorked after the
   * turn's I/O callbacks (setImmediate): their reads leave in one write. Measured on the bare
   * SELECT handler: 0.53 → 0.73–0.85 of `/healthz` (docs/performance/reads.md).
   */
  private holdWrites(slot: Slot): void {
    const stream = socketOf(slot.client);
    if (typeof stream?.cork !== "function" || typeof stream.uncork !== "function") return;
    stream.cork();
    slot.corked = true;
    setImmediate(() => {
      slot.corked = false;
      stream.uncork!();
    });
  }

  /** The open connection with the fewest reads in flight; an empty place gets a new one. */
  private pick(): Slot {
    let best: Slot | undefined;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (slot === undefined) return (this.slots[i] = this.open(i));
      if (best === undefined || slot.inFlight < best.inFlight) best = slot;
    }
    return best!;
  }

  private open(index: number): Slot {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      connectionTimeoutMillis: this.options.connectionTimeoutMillis,
      pipeline: true,
    } as pg.ClientConfig);
    const slot: Slot = {
      client,
      inFlight: 0,
      closing: false,
      corked: false,
      idleTimer: setTimeout(() => {
        if (slot.inFlight === 0) slot.forget();
      }, this.options.idleMillis ?? 10_000).unref(),
      // Out of use at once; closed (a broken one's reads in flight fail, as node-postgres fails
      // them) and the next read opens a new connection.
      forget: () => {
        if (this.slots[index] === slot) this.slots[index] = undefined;
        void this.close(slot);
      },
    };
    // Without a listener a connection's error would be uncaught.
    client.on("error", slot.forget);
    client.on("end", slot.forget);
    // Reads queue on the client until it is connected; a failed connect fails them.
    client.connect().catch(slot.forget);
    return slot;
  }

  private async close(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    // Once: a second end() would wait for an 'end' that has already been.
    if (slot.closing) return;
    slot.closing = true;
    // node-postgres ends a pipelined connection once the reads on its wire are answered; one whose
    // answers do not come (a read stuck on the server, a peer that stopped answering) is cut
    // after the connect timeout, failing those reads, so closing the handle cannot hang on it.
    const cut = setTimeout(() => socketOf(slot.client)?.destroy?.(), this.options.connectionTimeoutMillis);
    cut.unref();
    await slot.client.end().catch(() => {});
    clearTimeout(cut);
  }
}
