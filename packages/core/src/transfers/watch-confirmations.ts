import {
  createQuantumPublicClient,
  getQuantumTransactionStatus,
  type GetQuantumTransactionStatusReturnType,
  type NetworkCode,
  type QuantumPublicClient,
} from "@qc/chain";
import { listOverdueSigning, listWatchedTransactions, releaseLease, takeLease, type TransactionRow } from "@qc/db/queries";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { mapBounded } from "../map-bounded";
import { expireTransaction } from "./expire-transaction";
import { judgeTransaction, moveMinedTogether, type Look, type WatchLook } from "./watch-transaction";

export interface ConfirmationWatcherOptions {
  networkCode: NetworkCode;
  /** Who runs it (the daemon's instance id): the holder named in the network's lease. */
  holder: string;
  /**
   * How long a step's lease lasts (default 10 s, renewed by every step): a killed holder's network
   * is taken by a standby within this plus `intervalMs`.
   */
  leaseSeconds?: number;
  /** How often the node's head is polled between steps (default 100 ms): one cheap RPC, no database work. */
  pollMs?: number;
  /**
   * The longest pause between two steps (default 1000 ms): a standby instance tries to take the
   * lease, and a dropped transaction is re-sent, at least this often when no block comes.
   */
  intervalMs?: number;
  /** Watched transactions read and asked about per round (default 500). */
  pageSize?: number;
  /**
   * Transactions judged at once (their database transactions overlap; default 2). Two of one source
   * judged at once may each add its waiting release-next (`scheduleReleaseNextForQueued` is pg-boss's
   * upsert, a read then an insert): a block's worth of one source's moves leaves at most this many.
   */
  concurrency?: number;
}

export interface ConfirmationWatchStep {
  /** Whether this instance holds the network's watch (false: another daemon watches it; nothing done). */
  held: boolean;
  head?: number;
  /** Watched transactions looked at, and those whose status changed. */
  looked: number;
  moved: number;
  /** Transactions awaiting a signature past their deadline that this step expired. */
  expired: number;
}

export interface ConfirmationWatcher {
  readonly networkCode: NetworkCode;
  /** One look at every watched transaction of the network against the node's head. */
  step(): Promise<ConfirmationWatchStep>;
  /** Steps in a loop until `stop()`: at once for a new head, at least every `intervalMs`. */
  start(): void;
  /** Ends the loop after the step in hand and gives the watch up, so another instance takes it at once. */
  stop(): Promise<void>;
}

type Deps = Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "chain" | "config">;
type ChainStatus = GetQuantumTransactionStatusReturnType;

/**
 * The block-driven confirmation watcher of one network (docs/decisions/transfers.md, "Confirmations"): once per
 * new block it reads the network's watched transfers (OUTBOUND, BROADCASTING or CONFIRMING), asks
 * the node about all their hashes in one batched JSON-RPC round (receipts; then, for those not
 * mined, whether the pool holds them), and judges each with the same rules as the per-transaction
 * `transfers.watch` job (`judgeTransaction`): mined → CONFIRMING, deep enough → COMPLETED, reorgs,
 * drops and re-sends, stuck. A transaction's slot in its source's window is freed within a poll of
 * its block, without a job per transaction per look. Each step also expires the network's
 * transactions awaiting a signature past their deadline (`expireOverdue`), before it asks the node.
 *
 * Exactly once: every move is a conditional transition, so a look repeated — by a per-transaction
 * job (scheduled where a process runs no watcher), or by a second watcher — moves a row once.
 * At most one daemon watches a network at a time (a lease row, `takeLease`, renewed by every step,
 * on the database's clock like the deposit follower's, whose lease shares its cursor's row): a killed holder's lease runs out and
 * a standby takes the network within `leaseSeconds` + `intervalMs`; a clean stop gives it up at once.
 * Two holders for a moment (a step longer than the lease) cost a repeated look, never a double move.
 */
export function createConfirmationWatcher(deps: Deps, options: ConfirmationWatcherOptions): ConfirmationWatcher {
  const { networkCode } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const pollMs = Math.min(options.pollMs ?? 100, intervalMs);
  const pageSize = options.pageSize ?? 500;
  const concurrency = options.concurrency ?? 2;
  const leaseSeconds = options.leaseSeconds ?? 10;
  const log = deps.log.child({ networkCode, component: "transfers.watch-confirmations" });
  const lease = { name: `transfers.watch-confirmations:${networkCode}`, holder: options.holder };
  let held = false;
  /** A row whose last look asked to wait (a refused send): not re-sent before this (monotonic ms). */
  const backOffUntil = new Map<string, number>();
  let batching: QuantumPublicClient | undefined;
  let loop: Promise<void> | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;

  /** Its own client, with JSON-RPC batching: the hashes of one round leave in one HTTP request. */
  function client(): QuantumPublicClient {
    if (!batching) {
      const urls = deps.config.rpcUrls[networkCode];
      if (!urls?.length)
        throw new AppError("UNAVAILABLE", `no RPC endpoint is configured for ${networkCode}`, { details: { networkCode } });
      batching = createQuantumPublicClient(networkCode, urls, { batch: true });
    }
    return batching;
  }

  async function readHead(): Promise<bigint> {
    return client()
      .getBlockNumber({ cacheTime: 0 })
      .catch((error: unknown) => {
        throw chainUnavailable(networkCode, error);
      });
  }

  async function step(): Promise<ConfirmationWatchStep> {
    held = await takeLease(deps.db, { ...lease, seconds: leaseSeconds });
    if (!held) return { held: false, looked: 0, moved: 0, expired: 0 };
    // First, and without the node: a deadline passes whether or not the chain answers.
    const expired = await expireOverdue();
    const head = await readHead();
    let looked = 0;
    let moved = 0;
    const seen = new Set<string>();
    for (let afterId: string | null = null; ;) {
      const rows = await listWatchedTransactions(deps.db, { networkCode, afterId, limit: pageSize });
      const answers = await Promise.allSettled(
        rows.map((row) => getQuantumTransactionStatus(client(), { hash: row.chainTxHash as `0x${string}`, head })),
      );
      const looks: WatchLook[] = rows.flatMap((row, i) => {
        const answer = answers[i]!;
        if (answer.status === "rejected") {
          log.warn({ err: answer.reason, transactionId: row.id }, "chain status not read: looking again at the next block");
          return [];
        }
        return due(row, answer.value) ? [{ row, onChain: answer.value }] : [];
      });
      const before = looks.map((look) => look.row.status);
      // The block's common moves for all its rows together; on any error each row is judged alone.
      await moveMinedTogether(deps, looks).catch((error: unknown) =>
        log.warn({ err: error }, "the step's moves together failed: each transaction is judged on its own"),
      );
      await mapBounded(
        looks.map((look, i) => ({ look, before: before[i] })),
        concurrency,
        async ({ look, before }) => {
          const after = await judge(look.row, look.onChain);
          if (after.status !== before) moved++;
        },
      );
      looked += rows.length;
      for (const row of rows) seen.add(row.id);
      if (rows.length < pageSize) break;
      afterId = rows.at(-1)!.id;
    }
    for (const id of backOffUntil.keys()) if (!seen.has(id)) backOffUntil.delete(id);
    return { held: true, head: Number(head), looked, moved, expired };
  }

  /**
   * EXPIRED/SIGNING_TIMEOUT for the network's transactions awaiting a signature past their deadline
   * (up to a page a step), each by `expireTransaction`'s conditional move, which also enqueues the
   * source's release-next: the `transfers.expire` job's work, for the releases of a daemon with block
   * watchers, which schedule none (TransferConfig.blockWatchers).
   */
  async function expireOverdue(): Promise<number> {
    const overdue = await listOverdueSigning(deps.db, { networkCode, at: deps.now(), limit: pageSize });
    let expired = 0;
    await mapBounded(overdue, concurrency, async (row) => {
      try {
        if ((await expireTransaction(deps, { tenantId: row.tenantId, transactionId: row.id })).outcome === "expired") expired++;
      } catch (error) {
        log.error({ err: error, transactionId: row.id }, "signing deadline not applied: trying again at the next step");
      }
    });
    return expired;
  }

  /**
   * Whether this round judges the row. Not a transaction whose first send is not recorded yet, for
   * `resumeBroadcastAfterMs` after its move (the broadcast job's, between its move and its send: the
   * node does not know it yet, and a re-send would count an attempt); after that it is a broadcast
   * cut off there (a crash), resumed here: re-sent from the stored bytes. Nor one waiting after a
   * refused send — unless the chain shows it mined.
   */
  function due(row: TransactionRow, onChain: ChainStatus): boolean {
    const mined = onChain.status === "success" || onChain.status === "reverted";
    if (mined || row.status !== "BROADCASTING") return true;
    if (row.sendAttempts === 0)
      return row.broadcastAt === null || deps.now().getTime() - row.broadcastAt.getTime() >= deps.config.transfers.resumeBroadcastAfterMs;
    const until = backOffUntil.get(row.id);
    return until === undefined || performance.now() >= until;
  }

  async function judge(row: TransactionRow, onChain: ChainStatus): Promise<TransactionRow> {
    const look: Look = { backOff: false };
    try {
      const after = await judgeTransaction(deps, row, onChain, look);
      if (look.backOff && after.status === "BROADCASTING") backOffUntil.set(row.id, performance.now() + deps.config.transfers.watchRetryMs);
      else backOffUntil.delete(row.id);
      return after;
    } catch (error) {
      // One transaction's trouble (the node unreachable for its re-send) leaves the others' looks alone.
      if (error instanceof AppError && error.error === "UNAVAILABLE") {
        log.warn({ err: error, transactionId: row.id }, "chain unreachable while judging: looking again later");
        backOffUntil.set(row.id, performance.now() + deps.config.transfers.watchRetryMs);
      } else log.error({ err: error, transactionId: row.id }, "confirmation look failed: looking again at the next block");
      return row;
    }
  }

  /**
   * The loop: between steps only the head is polled (every `pollMs`); a step runs when the holder
   * sees a new head, and otherwise every `intervalMs` (a standby's attempt at the lease, re-sends of
   * dropped transactions while no block comes). Paced on the monotonic clock, not `deps.now`.
   */
  async function run(): Promise<void> {
    let lastStepAt = -Infinity;
    let holding = false;
    let seenHead: bigint | undefined;
    while (!stopped) {
      try {
        const due = performance.now() - lastStepAt >= intervalMs;
        const head = holding && !due ? await readHead() : undefined;
        if (due || head !== seenHead) {
          lastStepAt = performance.now();
          const result = await step();
          holding = result.held;
          seenHead = result.head === undefined ? undefined : BigInt(result.head);
          if (result.moved > 0) log.debug({ head: result.head, looked: result.looked, moved: result.moved }, "confirmation watch step");
        }
      } catch (error) {
        if (error instanceof AppError && error.error === "UNAVAILABLE") log.warn({ err: error }, "chain unreachable: watching again later");
        else log.error({ err: error }, "confirmation watch step failed");
        holding = held;
        lastStepAt = performance.now();
      }
      if (!stopped) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, pollMs)));
    }
  }

  return {
    networkCode,
    step,
    start() {
      if (!loop) loop = run();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      if (held) await releaseLease(deps.db, lease).catch((err: unknown) => log.warn({ err }, "lease not released: it runs out"));
      held = false;
    },
  };
}
