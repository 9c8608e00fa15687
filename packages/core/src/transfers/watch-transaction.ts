import { getQuantumTransactionStatus, type GetQuantumTransactionStatusReturnType } from "@qc/chain";
import type { Executor, Transaction } from "@qc/db";
import {
  findTransaction,
  moveMinedWithTrail,
  recordTransactionSend,
  updateTransactionConfirmations,
  type TransactionRow,
} from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { failTransaction } from "./fail-transaction";
import { markStuckIfOverdue } from "./mark-transaction-stuck";
import { scheduleReleaseNextForQueued } from "./release-next-job";
import { endReplaced, endSameNonceSiblings, findSameNonceSiblings, sameNonceStanding, tookTheNonce } from "./same-nonce";
import { sendSignedTransaction } from "./send-signed-transaction";
import { isTerminalStatus, type TransactionStatus } from "./transaction-status";
import { emitStatusChanges, transitionTransaction } from "./transition-transaction";
import { completeDeployment } from "../contracts/complete-deployment";
import { settleAll, type TransitionOutcome } from "../transitions/run-transition";

const actor = systemActor("transfers.watch");

/** The one waiting watch job of a transaction, moved to `startAfter` (see JobQueue.schedule). */
export function scheduleWatch(
  deps: Pick<ServiceDeps, "jobs">,
  tx: Executor,
  row: Pick<TransactionRow, "id" | "tenantId">,
  startAfter: Date,
): Promise<void> {
  return deps.jobs.schedule(
    tx,
    "transfers.watch",
    { tenantId: row.tenantId, transactionId: row.id },
    { singletonKey: `watch:${row.id}`, startAfter },
  );
}

export interface WatchResult {
  status: TransactionStatus | "UNKNOWN";
  /** When the next look is scheduled; absent once the transaction is terminal. */
  nextCheckAt?: string;
}

type Deps = Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "chain" | "config">;
type ChainStatus = GetQuantumTransactionStatusReturnType;
/** What one look learned beyond the row: whether the next look should wait longer than usual. */
export interface Look {
  backOff: boolean;
}

/**
 * `transfers.watch`: follows a broadcast transaction on chain until it is terminal, scheduling
 * itself again every `watchIntervalMs` (one waiting job per transaction).
 *
 * - BROADCASTING and a receipt exists → CONFIRMING (blockNumber, blockHash, confirmations). Mined,
 *   it no longer holds one of its source's NONCE_WINDOW slots: the same move enqueues release-next,
 *   so a transfer waiting for a slot is released at once instead of at release-next's next look.
 * - BROADCASTING, neither in the mempool nor mined → when another transaction of its nonce (its
 *   speed-up, its cancellation, its original: CONTRACT §17) is final, it ends naming it
 *   (FAILED/REPLACED or CANCELLED/CANCELLED_ON_CHAIN); while one is pending or mined, it waits;
 *   otherwise the same raw transaction is re-sent, and after `maxSendAttempts` sends →
 *   FAILED/DROPPED_BY_CHAIN. A transaction whose nonce a sibling took is never "dropped".
 * - BROADCASTING longer than STUCK_AFTER_SECONDS → `stuck: true` and one `transaction.stuck` event.
 * - CONFIRMING at `requiredConfirmations` → COMPLETED (completedAt), or FAILED/REVERTED_ON_CHAIN
 *   for a receipt with status 0 (decided at the same depth, so a reorg cannot undo a final state);
 *   the same move ends every other live transaction of its nonce, naming it. Siblings end there,
 *   at the final depth, not at first sight: a reorg may still mine another hash of the nonce.
 * - CONFIRMING whose receipt is gone or moved to another block (reorg) → back to BROADCASTING,
 *   then re-sent or re-confirmed from what the chain now says.
 *
 * The chain cannot be reached: no error, the next look is scheduled after `watchRetryMs`, so a
 * watched transaction is never abandoned to a dead-letter queue.
 */
export async function watchTransaction(deps: Deps, input: { tenantId: string; transactionId: string }): Promise<WatchResult> {
  let row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row) return { status: "UNKNOWN" };
  if (!isWatched(row)) return { status: row.status };
  const look: Look = { backOff: false };
  try {
    const client = deps.chain.client(row.networkCode);
    const onChain = await getQuantumTransactionStatus(client, { hash: row.chainTxHash as `0x${string}` }).catch((error: unknown) => {
      throw chainUnavailable(row!.networkCode, error);
    });
    row = await judgeTransaction(deps, row, onChain, look);
  } catch (error) {
    if (!(error instanceof AppError && error.error === "UNAVAILABLE")) throw error;
    deps.log.warn({ err: error, transactionId: input.transactionId }, "chain unreachable while watching: looking again later");
    look.backOff = true;
  }
  if (isTerminalStatus(row.status)) return { status: row.status };
  const { watchIntervalMs, watchRetryMs } = deps.config.transfers;
  const nextCheckAt = new Date(deps.now().getTime() + (look.backOff ? watchRetryMs : watchIntervalMs));
  await deps.db.transaction((tx) => scheduleWatch(deps, tx, row!, nextCheckAt));
  return { status: row.status, nextCheckAt: nextCheckAt.toISOString() };
}

/**
 * Whether the watcher follows this row: a transfer of the service's own (OUTBOUND) broadcast or
 * mined. A deposit (CONTRACT §21) is the chain follower's to confirm: its hash was never sent by
 * the service, and this watcher would take a reorg under it for a transfer to re-send.
 */
export function isWatched(row: Pick<TransactionRow, "direction" | "status">): boolean {
  return row.direction === "OUTBOUND" && (row.status === "BROADCASTING" || row.status === "CONFIRMING");
}

/**
 * One look at a watched row, given what the chain says of its hash (`onChain`, read by the caller:
 * the per-transaction job, or the network's block watcher for many rows at once). Every move is a
 * conditional transition, so two lookers at one row move it once. Returns the row as it is after.
 */
export async function judgeTransaction(deps: Deps, row: TransactionRow, onChain: ChainStatus, look: Look): Promise<TransactionRow> {
  // A reorg seen in CONFIRMING sends the row back to BROADCASTING, which is then judged on
  // the same answer from the chain: at most two steps per look.
  for (let step = 0; step < 2 && !isTerminalStatus(row.status); step++) {
    const before: TransactionStatus = row.status;
    row = row.status === "BROADCASTING" ? await whileBroadcasting(deps, row, onChain, look) : await whileConfirming(deps, row, onChain);
    if (row.status === before || row.status === "CONFIRMING") break;
  }
  if (row.status === "BROADCASTING") row = await markStuckIfOverdue(deps, row);
  return row;
}

/** A watched row and what the chain says of its hash, as the block watcher holds them for one step. */
export interface WatchLook {
  row: TransactionRow;
  onChain: ChainStatus;
}

type MinedStatus = Extract<ChainStatus, { status: "success" | "reverted" }>;
const isMined = (onChain: ChainStatus): onChain is MinedStatus => onChain.status === "success" || onChain.status === "reverted";

/**
 * The block watcher's common moves, for all the rows of a step at once, before each row is judged
 * on its own (`judgeTransaction`): every row mined while BROADCASTING → CONFIRMING (release-next
 * scheduled once per source), then every CONFIRMING row at its depth, successful, in the block
 * its row names, not a deployment and alone at its nonce → COMPLETED. Each is one statement with
 * its trail (`moveMinedWithTrail`) and one for the events, in one database transaction: the moves
 * `whileBroadcasting` and `whileConfirming` make row by row (BEGIN, move, event, release-next,
 * COMMIT, and the siblings' read), for a block's worth of rows. A look whose row moved holds the
 * moved row after; `judgeTransaction` then finds nothing left to do for it (a CONFIRMING row short
 * of its depth at the confirmations just stored, or COMPLETED) and judges every other row as
 * before: a revert, a reorg, a deployment, a nonce with siblings, a row someone else moved first.
 */
export async function moveMinedTogether(deps: Deps, looks: WatchLook[]): Promise<void> {
  await moveTogether(
    deps,
    "CONFIRMING",
    looks.filter((look) => look.row.status === "BROADCASTING" && isMined(look.onChain)),
  );
  await moveTogether(
    deps,
    "COMPLETED",
    looks.filter(
      ({ row, onChain }) =>
        row.status === "CONFIRMING" &&
        onChain.status === "success" &&
        onChain.blockHash === row.blockHash &&
        onChain.confirmations >= row.requiredConfirmations &&
        row.templateId === null,
    ),
  );
}

async function moveTogether(deps: Deps, to: "CONFIRMING" | "COMPLETED", looks: WatchLook[]): Promise<void> {
  if (looks.length === 0) return;
  const moved = await deps.db.transaction(async (tx) => {
    const rows = await moveMinedWithTrail(tx, {
      to,
      rows: looks.map(({ row, onChain }) => {
        const mined = onChain as MinedStatus;
        return {
          tenantId: row.tenantId,
          transactionId: row.id,
          blockNumber: Number(mined.blockNumber),
          blockHash: mined.blockHash,
          confirmations: mined.confirmations,
        };
      }),
      at: deps.now(),
      history: { actorType: actor.type, actorId: actor.id },
      audit: { actorType: actor.type, actorId: actor.id, action: to === "CONFIRMING" ? "transaction.confirming" : "transaction.completed" },
    });
    // Mined, a row no longer holds a slot of its source's window: one waiting release-next a source with a transfer queued.
    await settleAll([
      emitStatusChanges(tx, rows),
      to === "CONFIRMING"
        ? scheduleReleaseNextForQueued(
            deps,
            tx,
            rows.map(({ row }) => row),
          )
        : undefined,
    ]);
    return rows;
  });
  const byId = new Map(moved.map(({ row }) => [row.id, row]));
  for (const look of looks) look.row = byId.get(look.row.id) ?? look.row;
}

async function whileBroadcasting(deps: Deps, row: TransactionRow, onChain: ChainStatus, look: Look): Promise<TransactionRow> {
  if (onChain.status === "pending") return row;
  if (onChain.status === "unknown") {
    const standing = await sameNonceStanding(deps, row);
    if (standing.kind === "replaced")
      return ended(deps, row, await endReplaced(deps, { row, from: ["BROADCASTING"], mined: standing.by, actor }));
    if (standing.kind === "taken") return row;
    // A sibling with lower fee caps is pending: this one replaces it, and is never dropped meanwhile.
    return resend(deps, row, look, { mayDrop: standing.kind === "free" });
  }
  const moved = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: ["BROADCASTING"],
    to: "CONFIRMING",
    reason: null,
    set: { blockNumber: Number(onChain.blockNumber), blockHash: onChain.blockHash, confirmations: onChain.confirmations },
    actor,
    // Often a window's worth of the source is mined in one block: one waiting release-next for them all.
    also: (tx, mined) => scheduleReleaseNextForQueued(deps, tx, [mined]),
  });
  if (!moved.moved) return reread(deps, row);
  return whileConfirming(deps, moved.row, onChain);
}

async function whileConfirming(deps: Deps, row: TransactionRow, onChain: ChainStatus): Promise<TransactionRow> {
  if (onChain.status === "pending" || onChain.status === "unknown" || onChain.blockHash !== row.blockHash) {
    const reason = `reorg: block ${row.blockNumber} (${row.blockHash}) is no longer on the chain`;
    deps.log.warn({ transactionId: row.id, blockHash: row.blockHash }, "transaction's block left the chain: back to BROADCASTING");
    const moved = await transitionTransaction(deps, {
      tenantId: row.tenantId,
      transactionId: row.id,
      from: ["CONFIRMING"],
      to: "BROADCASTING",
      reason,
      set: { blockNumber: null, blockHash: null, confirmations: 0 },
      actor,
    });
    return moved.moved ? moved.row : reread(deps, row);
  }
  const now = deps.now();
  if (onChain.confirmations < row.requiredConfirmations) {
    if (onChain.confirmations === row.confirmations) return row;
    const updated = await updateTransactionConfirmations(deps.db, {
      tenantId: row.tenantId,
      transactionId: row.id,
      blockHash: onChain.blockHash,
      confirmations: onChain.confirmations,
      at: now,
    });
    return updated ?? reread(deps, row);
  }
  // Final at its nonce. Another transaction of the nonce final already (only after a reorg deeper
  // than requiredConfirmations) keeps the nonce: never two of one nonce COMPLETED.
  const siblings = await findSameNonceSiblings(deps.db, row);
  const earlier = siblings.find(tookTheNonce);
  if (earlier) return ended(deps, row, await endReplaced(deps, { row, from: ["CONFIRMING"], mined: earlier, actor }));
  const endSiblings = (tx: Transaction, mined: TransactionRow) =>
    siblings.length === 0 ? Promise.resolve() : endSameNonceSiblings(deps, mined, actor, tx);
  if (onChain.status === "reverted") {
    const failed = await transitionTransaction(deps, {
      tenantId: row.tenantId,
      transactionId: row.id,
      from: ["CONFIRMING"],
      to: "FAILED",
      subStatus: "REVERTED_ON_CHAIN",
      reason: `reverted on chain in block ${onChain.blockNumber}`,
      set: { confirmations: onChain.confirmations },
      actor,
      also: endSiblings,
    });
    return failed.moved ? failed.row : reread(deps, row);
  }
  // A deployment (or a speed-up of one: it carries the template) completes with its contract's
  // address (and, for a token, the tenant's new asset).
  const deployed = row.templateId !== null ? await completeDeployment(deps, row, onChain.receipt) : undefined;
  const completed = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: ["CONFIRMING"],
    to: "COMPLETED",
    reason: null,
    set: { blockNumber: Number(onChain.blockNumber), confirmations: onChain.confirmations, completedAt: now, ...deployed },
    actor,
    also: endSiblings,
  });
  return completed.moved ? completed.row : reread(deps, row);
}

/**
 * Neither pending nor mined: the node dropped it. Re-send the same bytes, a bounded number of
 * times — unless another hash of its nonce is pending (`mayDrop` false): it is not dropped then.
 */
async function resend(deps: Deps, row: TransactionRow, look: Look, options: { mayDrop: boolean }): Promise<TransactionRow> {
  const { maxSendAttempts } = deps.config.transfers;
  if (options.mayDrop && row.sendAttempts >= maxSendAttempts) {
    const failed = await failTransaction(deps, {
      row,
      from: "BROADCASTING",
      subStatus: "DROPPED_BY_CHAIN",
      reason: `dropped by the chain: neither pending nor mined after ${row.sendAttempts} sends`,
      actor,
    });
    return failed.moved ? failed.row : reread(deps, row);
  }
  deps.log.warn(
    { transactionId: row.id, sendAttempts: row.sendAttempts },
    "transaction neither pending nor mined: re-sending the same raw transaction",
  );
  const outcome = await sendSignedTransaction(deps.chain.client(row.networkCode), row);
  if (outcome.kind === "final" && outcome.subStatus === "DROPPED_BY_CHAIN") {
    // "Nonce too low": a sibling of the nonce may have been mined since the look began.
    const standing = await sameNonceStanding(deps, row);
    if (standing.kind === "replaced")
      return ended(deps, row, await endReplaced(deps, { row, from: ["BROADCASTING"], mined: standing.by, actor }));
    if (standing.kind !== "free") {
      look.backOff = true;
      return row;
    }
  }
  if (outcome.kind === "final") {
    const failed = await failTransaction(deps, { row, from: "BROADCASTING", subStatus: outcome.subStatus, reason: outcome.reason, actor });
    return failed.moved ? failed.row : reread(deps, row);
  }
  // Refused for now (fee below the base fee, pool full): give the chain time before the next try.
  if (outcome.kind === "refused") look.backOff = true;
  return (await recordTransactionSend(deps.db, { tenantId: row.tenantId, transactionId: row.id, at: deps.now() })) ?? reread(deps, row);
}

/** The row a transition moved, or the row as it is now when another caller moved it first. */
function ended(deps: Pick<ServiceDeps, "db">, row: TransactionRow, outcome: TransitionOutcome<TransactionRow>): Promise<TransactionRow> {
  return outcome.moved ? Promise.resolve(outcome.row) : reread(deps, row);
}

async function reread(deps: Pick<ServiceDeps, "db">, row: TransactionRow): Promise<TransactionRow> {
  return (await findTransaction(deps.db, row.tenantId, row.id)) ?? row;
}
