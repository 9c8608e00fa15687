import {
  createQuantumPublicClient,
  createVerifyPool,
  VerifyPoolBusyError,
  type NetworkCode,
  type QuantumPublicClient,
  type VerifyRequest,
} from "@qc/chain";
import type { DatabaseHandle, Executor } from "@qc/db";
import type { PgBoss } from "pg-boss";
import { AppError } from "../errors";
import { createJobQueue, startBoss, type JobQueue } from "../jobs/queue";
import type { Logger } from "../logger";
import type { ServiceConfig } from "./service-config";

/** A viem public client per configured network; 503 UNAVAILABLE for one that is not. */
export interface ChainClients {
  client(networkCode: NetworkCode): QuantumPublicClient;
  /**
   * The same network's client with JSON-RPC batching: the reads a caller starts in one tick go
   * as one HTTP request of at most RPC_BATCH_SIZE calls. For many independent reads at once
   * (the overview's balances); every other caller keeps one call per request.
   */
  batchClient(networkCode: NetworkCode): QuantumPublicClient;
  /** The networks with an RPC endpoint. */
  networks(): NetworkCode[];
}

/** Calls per JSON-RPC batch: public providers commonly cap a batch at 100 to 1,000. */
export const RPC_BATCH_SIZE = 100;

export function createChainClients(rpcUrls: Partial<Record<NetworkCode, string[]>>): ChainClients {
  const clients = new Map<string, QuantumPublicClient>();
  const clientFor = (networkCode: NetworkCode, batch: boolean) => {
    const key = `${networkCode}:${batch ? "batch" : "single"}`;
    let client = clients.get(key);
    if (!client) {
      const urls = rpcUrls[networkCode];
      if (!urls?.length)
        throw new AppError("UNAVAILABLE", `no RPC endpoint is configured for ${networkCode}`, { details: { networkCode } });
      client = createQuantumPublicClient(networkCode, urls, batch ? { batch: { batchSize: RPC_BATCH_SIZE } } : {});
      clients.set(key, client);
    }
    return client;
  };
  return {
    client: (networkCode) => clientFor(networkCode, false),
    batchClient: (networkCode) => clientFor(networkCode, true),
    networks: () => Object.keys(rpcUrls) as NetworkCode[],
  };
}

/**
 * Everything a domain service may use, built once per process by `createServiceDeps`, the same
 * way in the web process (routers pass `ctx.deps`) and in the daemon (every job gets it):
 * database, clock, logger, job queue, chain clients, signature verifier and configuration. A service declares the
 * part it needs with `Pick<ServiceDeps, …>`, so a test can hand it exactly that.
 */
export interface ServiceDeps {
  database: DatabaseHandle;
  /**
   * What the service's statements run on: `database.db` (the pool; reads by key on the pipelined
   * read connections), or the open transaction of an idempotency key when a mutation runs under
   * one (`runIdempotently`): its statements are then part of that transaction, and
   * `withinTransaction` runs in it instead of opening another.
   */
  db: Executor;
  log: Logger;
  /** The clock every rule reads (tests control it). */
  now(): Date;
  config: ServiceConfig;
  jobs: JobQueue;
  chain: ChainClients;
  /** ML-DSA-87 verification on worker threads: ownership proofs and transaction signatures. */
  verifier: SignatureVerifier;
}

/**
 * Verifies ML-DSA-87 signatures off the event loop (`createVerifyPool`): true only when the
 * signature verifies; malformed input is false. A saturated pool is 503 UNAVAILABLE.
 */
export interface SignatureVerifier {
  verify(request: VerifyRequest): Promise<boolean>;
}

/** The pool behind `verifier`, with the pool's saturation turned into the contract's 503. */
function createSignatureVerifier(size: number | undefined, log: Logger): SignatureVerifier & { close(): Promise<void> } {
  const pool = createVerifyPool({ size, log });
  return {
    verify: (request) =>
      pool.verify(request).catch((error: unknown) => {
        if (error instanceof VerifyPoolBusyError)
          throw new AppError("UNAVAILABLE", "signature verification is saturated; retry shortly", { retryAfter: 1 });
        throw error;
      }),
    close: () => pool.close(),
  };
}

export interface CreateServiceDepsOptions {
  database: DatabaseHandle;
  databaseUrl: string;
  log: Logger;
  config: ServiceConfig;
  now?: () => Date;
  /** The daemon works queues and runs maintenance; web instances only send. */
  role: "web" | "daemon";
  /** Reuse a started pg-boss (the daemon's); otherwise one is started for `role`. */
  boss?: PgBoss;
  /** Verification threads; default one per core. They start with the first verification. */
  verifyThreads?: number;
}

export async function createServiceDeps(
  options: CreateServiceDepsOptions,
): Promise<ServiceDeps & { boss: PgBoss; close(): Promise<void> }> {
  const ownBoss = !options.boss;
  const boss = options.boss ?? (await startBoss({ url: options.databaseUrl, role: options.role }));
  const verifier = createSignatureVerifier(options.verifyThreads, options.log);
  return {
    database: options.database,
    db: options.database.db,
    log: options.log,
    now: options.now ?? (() => new Date()),
    config: options.config,
    jobs: createJobQueue(boss),
    chain: createChainClients(options.config.rpcUrls),
    verifier,
    boss,
    async close() {
      await verifier.close();
      if (ownBoss) await boss.stop({ graceful: false, close: true });
    },
  };
}
