import { getQuantumTransactionStatus, type NetworkCode } from "@qc/chain";
import {
  acquireFollowerLease,
  confirmDeposits,
  insertDepositTrail,
  insertDeposits,
  listConfirmingDeposits,
  listFollowerBlocks,
  moveFollowerCursor,
  reanchorDeposits,
  releaseFollowerLease,
  rewindFollower,
  storeFollowerBlock,
  type FollowerRow,
} from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { EVENTS } from "../events/catalog";
import { failTransaction } from "../transfers/fail-transaction";
import { toTransactionRecord } from "../transfers/transaction-record";
import { transitionTransaction } from "../transfers/transition-transaction";
import { readBlockDeposits, readBlockHash, type BlockDeposits, type DepositMatcher } from "./read-block-deposits";

const actor = systemActor("deposits.follow");

export interface ChainFollowerOptions {
  networkCode: NetworkCode;
  /** Who holds the lease: the daemon's instance id. */
  holder: string;
  matcher: DepositMatcher;
  /** How long the lease lasts without renewal (renewed with every block and every step). Default 10. */
  leaseSeconds?: number;
  /** Blocks read per step at most (a follower that was down catches up in such batches). Default 50. */
  batchSize?: number;
  /** Recent blocks kept for reorg detection. Default 128. */
  keepBlocks?: number;
  /**
   * The longest pause between two steps (default 1000 ms): the lease is renewed, a standby
   * instance tries to take over and a reorg at an unchanged height is looked for at least this often.
   */
  intervalMs?: number;
  /**
   * How often the node's head is polled between steps (default 250 ms): one cheap RPC and no
   * database work; a new head starts a step at once, so a block is recorded within this long of
   * being mined by the holder.
   */
  pollMs?: number;
  /**
   * Called inside a block's database transaction once its deposits are written, before the commit
   * (the daemon's crash point for recovery tests: a kill there leaves nothing of the block).
   */
  beforeCommit?: (block: { blockNumber: number; deposits: number }) => void;
}

export interface StepResult {
  /** Whether this instance holds the network's lease (false: another follows it; nothing done). */
  held: boolean;
  /** Blocks recorded in this step. */
  blocks: number;
  /** The cursor after the step (the last recorded block) and the head seen. */
  cursor?: number;
  head?: number;
  /** A reorg was found and the cursor moved back to this common ancestor. */
  rewoundTo?: number;
}

export interface ChainFollower {
  readonly networkCode: NetworkCode;
  /** One pass: take or renew the lease, read up to `batchSize` blocks from the cursor, settle dropped deposits. */
  step(): Promise<StepResult>;
  /** Steps in a loop until `stop()`: at once for a new head, at least every `intervalMs` (errors are logged and the loop goes on). */
  start(): void;
  /** Ends the loop after the step in hand and gives the lease up, so another instance takes over at once. */
  stop(): Promise<void>;
  /** Head − cursor at the last step (null before the first step that held the lease). */
  blocksBehind(): number | null;
}

type Deps = Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "chain" | "config">;

/** The block was not ours to record: another follower holds the lease or moved the cursor. */
class CursorMoved extends Error {}

/**
 * CONTRACT §21's chain follower for one network (docs/deposits.md). At most one instance follows a
 * network: the lease in `chain_followers`, renewed by every step and every recorded block, taken
 * over by another instance once it runs out. From the cursor (the last recorded block; the head
 * when none) it reads blocks in order; each block's deposits, the confirmations of the network's
 * CONFIRMING deposits, the completions and the cursor's advance commit in ONE database
 * transaction whose first statement moves the cursor conditionally (holder and previous block):
 * a block is recorded exactly once, a follower killed mid-block leaves nothing half done, and a
 * replay meets the deposits' unique index. A block whose parent is not the recorded block below
 * it is a reorg: the cursor goes back to the common ancestor, the deposits above lose their block
 * (still CONFIRMING) and are anchored again when the new chain contains them, or end
 * FAILED/DROPPED_BY_CHAIN when their transaction is neither mined nor pending.
 */
export function createChainFollower(deps: Deps, options: ChainFollowerOptions): ChainFollower {
  const { networkCode, holder, matcher } = options;
  const leaseSeconds = options.leaseSeconds ?? 10;
  const batchSize = options.batchSize ?? 50;
  const keepBlocks = options.keepBlocks ?? 128;
  const intervalMs = options.intervalMs ?? 1000;
  const pollMs = Math.min(options.pollMs ?? 250, intervalMs);
  const log = deps.log.child({ networkCode, component: "deposits.follow" });
  const requiredConfirmations = deps.config.transfers.requiredConfirmations[networkCode];
  let behind: number | null = null;
  let loop: Promise<void> | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;

  const client = () => deps.chain.client(networkCode);

  async function step(): Promise<StepResult> {
    let state = await acquireFollowerLease(deps.db, { networkCode, holder, leaseSeconds });
    if (!state) return { held: false, blocks: 0 };
    await matcher.sync?.();
    const head = await readHead();
    if (state.blockNumber === null) {
      // Not started: from the head, no history scan.
      const block = await readBlockDeposits({ client: client(), matcher, requiredConfirmations }, networkCode, head);
      await record(state, { ...block, deposits: [] });
      log.info({ blockNumber: head }, "chain follower starts at the head");
      behind = 0;
      return { held: true, blocks: 0, cursor: head, head };
    }
    let blocks = 0;
    const to = Math.min(head, state.blockNumber + batchSize);
    if (head - state.blockNumber > batchSize) log.info({ cursor: state.blockNumber, head, to }, "chain follower catching up");
    const rewound = async () => {
      const ancestor = await rewind(state!);
      behind = head - ancestor;
      await settleUnanchored();
      return { held: true, blocks, cursor: ancestor, head, rewoundTo: ancestor };
    };
    // Nothing new above the cursor: the cursor's own block may have been replaced (a reorg at the
    // head, or a shorter chain).
    if (to <= state.blockNumber && (await readBlockHash(client(), networkCode, state.blockNumber)) !== state.blockHash) return rewound();
    while (state.blockNumber! < to) {
      const block = await readBlockDeposits({ client: client(), matcher, requiredConfirmations }, networkCode, state.blockNumber! + 1);
      if (block.parentHash !== state.blockHash) return rewound();
      state = await record(state, block);
      blocks++;
    }
    behind = head - state.blockNumber!;
    await settleUnanchored();
    return { held: true, blocks, cursor: state.blockNumber!, head };
  }

  async function readHead(): Promise<number> {
    try {
      return Number(await client().getBlockNumber({ cacheTime: 0 }));
    } catch (error) {
      throw chainUnavailable(networkCode, error);
    }
  }

  /** One block, in one database transaction (see createChainFollower). */
  async function record(state: FollowerRow, block: BlockDeposits): Promise<FollowerRow> {
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const moved = await moveFollowerCursor(tx, {
        networkCode,
        holder,
        leaseSeconds,
        from: state.blockNumber,
        to: { blockNumber: block.number, blockHash: block.hash },
      });
      if (!moved) throw new CursorMoved(`block ${block.number} of ${networkCode} is not ${holder}'s to record`);
      const position = { networkCode, blockNumber: block.number, blockHash: block.hash, at: now };
      await reanchorDeposits(tx, { ...position, anchors: block.deposits });
      const inserted = await insertDeposits(tx, { ...position, deposits: block.deposits });
      const trail = { actorType: actor.type, actorId: actor.id!, at: now };
      await insertDepositTrail(tx, {
        ...trail,
        rows: inserted,
        fromStatus: null,
        eventType: "transaction.created",
        action: "transaction.created",
        data: (row) => EVENTS["transaction.created"].data.parse({ transaction: toTransactionRecord(row) }) as Record<string, unknown>,
      });
      await deps.jobs.sendMany(
        tx,
        "deposits.screen",
        inserted.map((row) => ({ tenantId: row.tenantId, transactionId: row.id })),
      );
      const due = await confirmDeposits(tx, { networkCode, head: block.number, at: now });
      await insertDepositTrail(tx, {
        ...trail,
        rows: due,
        fromStatus: "CONFIRMING",
        eventType: "transaction.status_changed",
        action: "transaction.completed",
        data: (row) =>
          EVENTS["transaction.status_changed"].data.parse({
            transaction: toTransactionRecord(row),
            previousStatus: "CONFIRMING",
          }) as Record<string, unknown>,
      });
      await storeFollowerBlock(tx, {
        networkCode,
        blockNumber: block.number,
        blockHash: block.hash,
        parentHash: block.parentHash,
        keepFrom: block.number - keepBlocks + 1,
      });
      options.beforeCommit?.({ blockNumber: block.number, deposits: inserted.length });
      if (inserted.length > 0 || due.length > 0)
        log.info({ blockNumber: block.number, deposits: inserted.length, completed: due.length }, "block recorded");
    });
    return { ...state, blockNumber: block.number, blockHash: block.hash };
  }

  /**
   * A reorg under the cursor: walks the recorded blocks back until the chain has the same hash
   * (the common ancestor), moves the cursor there, forgets the blocks above and takes their block
   * from the CONFIRMING deposits in them (a `reorg: …` status-history row and event each).
   */
  async function rewind(state: FollowerRow): Promise<number> {
    const stored = await listFollowerBlocks(deps.db, { networkCode, upTo: state.blockNumber! });
    let ancestor: { blockNumber: number; blockHash: string } | undefined;
    for (const block of stored) {
      const onChain = await readBlockHash(client(), networkCode, block.blockNumber);
      if (onChain === block.blockHash) {
        ancestor = { blockNumber: block.blockNumber, blockHash: block.blockHash };
        break;
      }
    }
    if (!ancestor) {
      // Deeper than the blocks kept, or a chain shorter than them (a node reset): start again below
      // the oldest one kept, or at the head when that is lower (CONFIRMING deposits above it are
      // anchored again or dropped).
      const oldest = stored.at(-1)?.blockNumber ?? state.blockNumber!;
      const blockNumber = Math.max(0, Math.min(oldest - 1, await readHead()));
      const blockHash = await readBlockHash(client(), networkCode, blockNumber);
      if (!blockHash) throw new AppError("UNAVAILABLE", `block ${blockNumber} of ${networkCode} is not on the chain yet`);
      ancestor = { blockNumber, blockHash };
      log.error({ cursor: state.blockNumber, ancestor: blockNumber }, "reorg deeper than the blocks kept: following again from there");
    }
    const removed = await deps.db.transaction(async (tx) => {
      if (!(await rewindFollower(tx, { networkCode, holder, to: ancestor }))) throw new CursorMoved("lease lost during a reorg");
      const rows = await listConfirmingDeposits(tx, { networkCode, aboveBlock: ancestor.blockNumber });
      for (const row of rows)
        await transitionTransaction(
          deps,
          {
            tenantId: row.tenantId,
            transactionId: row.id,
            from: ["CONFIRMING"],
            to: "CONFIRMING",
            reason: `reorg: block ${row.blockNumber} (${row.blockHash}) is no longer on the chain`,
            set: { blockNumber: null, blockHash: null, confirmations: 0 },
            actor,
          },
          tx,
        );
      return rows.length;
    });
    log.warn({ cursor: state.blockNumber, ancestor: ancestor.blockNumber, deposits: removed }, "reorg: cursor back to the common ancestor");
    return ancestor.blockNumber;
  }

  /** Deposits a reorg left without a block whose transaction the chain no longer knows (neither mined nor pending) → FAILED/DROPPED_BY_CHAIN. */
  async function settleUnanchored(): Promise<void> {
    const rows = await listConfirmingDeposits(deps.db, { networkCode, unanchored: true });
    for (const row of rows) {
      const onChain = await getQuantumTransactionStatus(client(), { hash: row.chainTxHash as `0x${string}` }).catch((error: unknown) => {
        throw chainUnavailable(networkCode, error);
      });
      if (onChain.status !== "unknown") continue;
      log.warn({ transactionId: row.id, chainTxHash: row.chainTxHash }, "deposit's transaction left the chain: dropped");
      await failTransaction(deps, {
        row,
        from: "CONFIRMING",
        subStatus: "DROPPED_BY_CHAIN",
        reason: "dropped by the chain: its block left the chain and the transaction is neither mined nor pending",
        actor,
      });
    }
  }

  /**
   * The loop. Between steps only the head is polled (every `pollMs`); a step — the lease, the
   * blocks, the database — runs when the holder sees a new head, and otherwise every `intervalMs`
   * (a standby instance's takeover attempts, the lease's renewal, a reorg at the same height). The
   * pacing uses the monotonic clock, not `deps.now` (which tests may fix).
   */
  async function run(): Promise<void> {
    let lastStepAt = -Infinity;
    let holding = false;
    let seenHead: number | undefined;
    while (!stopped) {
      let pause = pollMs;
      try {
        const due = performance.now() - lastStepAt >= intervalMs;
        if (due || (holding && (await readHead()) !== seenHead)) {
          lastStepAt = performance.now();
          const result = await step();
          holding = result.held;
          seenHead = result.head;
          // Still behind (a full batch, or a reorg to re-read): go on at once.
          if (result.held && (result.rewoundTo !== undefined || (result.head ?? 0) > (result.cursor ?? 0))) pause = 0;
        }
      } catch (error) {
        holding = false;
        if (error instanceof CursorMoved) log.info({ reason: error.message }, "another follower holds the network");
        else if (error instanceof AppError && error.error === "UNAVAILABLE")
          log.warn({ err: error }, "chain unreachable: following again later");
        else log.error({ err: error }, "chain follower step failed");
      }
      if (pause > 0 && !stopped) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, pause)));
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
      await releaseFollowerLease(deps.db, { networkCode, holder }).catch((err: unknown) => log.warn({ err }, "lease release failed"));
    },
    blocksBehind: () => behind,
  };
}
