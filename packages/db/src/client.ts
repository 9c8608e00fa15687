import { neonConfig, Pool as NeonPool } from "@neondatabase/serverless";
import { drizzle as drizzleNeon, NeonSession, NeonTransaction } from "drizzle-orm/neon-serverless";
import { drizzle as drizzleNodePg, NodePgSession, NodePgTransaction, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { is } from "drizzle-orm";
import { PgTransaction, type PgDialect } from "drizzle-orm/pg-core";
import ws from "ws";
import { readDbEnv } from "./env";
import { PipelinedReads } from "./hot-path/pipelined-reads";

/**
 * Both drivers expose the same drizzle PostgreSQL API; the node-postgres type is the common one.
 * Made without the schema: queries name their tables, and drizzle's relational `db.query.*`
 * (unused) would otherwise be built again for every transaction (docs/performance/create.md).
 */
export type Database = NodePgDatabase;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Anything that can run a drizzle query: the database or an open transaction. */
export type Executor = Database | Transaction;

export type DbDriver = "pg" | "neon";

/** What both drivers' pools and pooled connections answer: node-postgres's `query(text, values)`. */
export interface DriverConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** With a name: a named prepared statement, parsed once per connection. */
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * The driver object a drizzle executor runs on: the pool for a database handle, the pooled
 * connection an open transaction holds (which outlives the transaction). Undefined for a driver
 * that keeps it elsewhere; callers then go through drizzle.
 */
export function driverConnection(db: Executor): DriverConnection | undefined {
  const session: unknown = db._.session;
  const client = is(db, PgTransaction)
    ? typeof session === "object" && session !== null
      ? (session as { client?: unknown }).client
      : undefined
    : (db as { $client?: unknown }).$client;
  return typeof client === "object" && client !== null && typeof (client as { query?: unknown }).query === "function"
    ? (client as DriverConnection)
    : undefined;
}

/**
 * The drizzle handle over a database's pipelined read connections (./hot-path/pipelined-reads), for the
 * request path's standalone reads (`defineRead`). Absent for the Neon driver, whose
 * pg-compatible client has no pipeline mode, and when DB_PIPELINED_READS is 0: those reads then
 * run on the pool.
 */
const pipelinedReadHandles = new WeakMap<Database, Database>();
export function pipelinedReadHandle(db: Database): Database | undefined {
  return pipelinedReadHandles.get(db);
}

/** A pooled connection as both drivers hand it out (node-postgres's `PoolClient`). */
export interface PooledConnection {
  query(config: { text: string; name?: string; values?: unknown[] }): Promise<{ command?: string | null; rows: unknown[] }>;
  release(error?: Error | boolean): void;
  /** node-postgres 8.23+ made with `pipeline: true`: a query is written at once, not after the answer before it. */
  readonly pipeline?: boolean;
}

/** How `pipelinedTransaction` (./hot-path/pipelined-transaction) opens a transaction on a handle `createDatabase` made. */
export interface TransactionOpener {
  connect(): Promise<PooledConnection>;
  /** A drizzle transaction whose statements run on `connection` (BEGIN and COMMIT are the caller's). */
  on(connection: PooledConnection): Transaction;
}
const transactionOpeners = new WeakMap<Database, TransactionOpener>();
export function transactionOpener(db: Database): TransactionOpener | undefined {
  return transactionOpeners.get(db);
}

/** The session settings a drizzle database handle was made with, for a transaction's own session. */
function sessionOf(db: Database): { dialect: PgDialect; options: Record<string, unknown> } {
  return db._.session as unknown as { dialect: PgDialect; options: Record<string, unknown> };
}

export interface DatabaseHandle {
  db: Database;
  driver: DbDriver;
  /** The driver's pool (node-postgres or neon, same API), for libraries that take one. */
  pool: pg.Pool;
  /** Raw SQL on the pool (pg-boss, health checks). */
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  close(): Promise<void>;
}

export interface CreateDatabaseOptions {
  url: string;
  driver?: DbDriver;
  poolMax?: number;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string;
  /** Connections for pipelined reads (node-postgres only; 0: none, those reads use the pool). */
  pipelinedReads?: number;
}

/** Neon is chosen for neon.tech hosts or when DB_DRIVER=neon; node-postgres otherwise. */
export function resolveDriver(url: string, explicit?: DbDriver): DbDriver {
  if (explicit) return explicit;
  const host = new URL(url).hostname;
  return host.endsWith(".neon.tech") || host.endsWith(".neon.build") ? "neon" : "pg";
}

function configureNeonTransport(proxy: string | undefined) {
  neonConfig.webSocketConstructor = ws;
  if (proxy) {
    // A plain WebSocket-to-TCP proxy in front of an ordinary PostgreSQL (tests, offline work).
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineConnect = false;
    neonConfig.pipelineTLS = false;
    neonConfig.forceDisablePgSSL = true;
  }
}

export function createDatabase(options: CreateDatabaseOptions): DatabaseHandle {
  const env = readDbEnv();
  const driver = resolveDriver(options.url, options.driver ?? env.DB_DRIVER);
  const max = options.poolMax ?? env.DB_POOL_MAX;
  if (driver === "neon") {
    configureNeonTransport(env.NEON_WS_PROXY);
    const pool = new NeonPool({ connectionString: options.url, max });
    pool.on("error", () => {}); // idle-client errors surface on the next query instead of crashing
    pool.on("connect", (client: { on(event: "error", listener: () => void): unknown }) => client.on("error", () => {}));
    const db = drizzleNeon({ client: pool }) as unknown as Database;
    const { dialect, options: sessionOptions } = sessionOf(db);
    transactionOpeners.set(db, {
      connect: () => pool.connect() as unknown as Promise<PooledConnection>,
      on: (connection) =>
        new NeonTransaction(
          dialect,
          new NeonSession(connection as never, dialect, undefined, sessionOptions),
          undefined,
        ) as unknown as Transaction,
    });
    return {
      db,
      driver,
      pool: pool as unknown as pg.Pool,
      query: async (text, values) => (await pool.query(text, values as unknown[])) as never,
      close: () => pool.end(),
    };
  }
  const applicationName = options.applicationName ?? "quantum-custody";
  // Pipeline mode: a transaction's BEGIN and COMMIT travel with its first and last statements
  // (./hot-path/pipelined-transaction). Statements awaited one by one, as everywhere else, behave as
  // without it: each is written when the one before it has been answered.
  const pool = new pg.Pool({
    connectionString: options.url,
    max,
    application_name: applicationName,
    connectionTimeoutMillis: 5_000,
    pipeline: true,
  });
  pool.on("error", () => {});
  // An error on a checked-out connection (server restart, admin shutdown) must fail that
  // query, not the process: without a listener node-postgres rethrows it as uncaught.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzleNodePg({ client: pool });
  const { dialect, options: sessionOptions } = sessionOf(db);
  transactionOpeners.set(db, {
    connect: () => pool.connect() as unknown as Promise<PooledConnection>,
    on: (connection) =>
      new NodePgTransaction(
        dialect,
        new NodePgSession(connection as unknown as pg.PoolClient, dialect, undefined, sessionOptions),
        undefined,
      ) as unknown as Transaction,
  });
  const readConnections = options.pipelinedReads ?? env.DB_PIPELINED_READS;
  const reads =
    readConnections > 0
      ? new PipelinedReads({
          connectionString: options.url,
          connections: readConnections,
          applicationName: `${applicationName}/reads`,
          connectionTimeoutMillis: 5_000,
        })
      : undefined;
  if (reads) pipelinedReadHandles.set(db, drizzleNodePg({ client: reads as unknown as pg.Pool }));
  return {
    db,
    driver,
    pool,
    query: async (text, values) => (await pool.query(text, values)) as never,
    close: async () => {
      await Promise.all([pool.end(), reads?.end()]);
    },
  };
}
