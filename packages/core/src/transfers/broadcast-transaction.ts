import { getQuantumTransactionHash, serializeQuantumTransaction } from "@qc/chain";
import {
  findTransaction,
  getTenantStatus,
  moveSignedWithTrail,
  recordTransactionSend,
  recordTransactionSends,
  type TransactionRow,
} from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { valueMovingAllowed } from "../kyc/assert-tenant-verified";
import { settleAll } from "../transitions/run-transition";
import type { CheckFields } from "./check-subject";
import { failTransaction } from "./fail-transaction";
import { loadSigningContext } from "./load-signing-context";
import { recheckTransfer } from "./recheck-transfer";
import { endReplaced, sameNonceStanding } from "./same-nonce";
import { isCreatedType } from "./transition-transaction";
import { sendSignedTransaction, type SendOutcome } from "./send-signed-transaction";
import type { TransactionStatus } from "./transaction-status";
import { emitStatusChanges, transitionTransaction } from "./transition-transaction";
import { checkSigningRequest, verifyTransactionSignature, type SigningContext } from "./verify-transaction-signature";
import { scheduleWatch } from "./watch-transaction";

export interface BroadcastHooks {
  /**
   * Called right after `eth_sendRawTransaction` returned and before the send is recorded: the
   * daemon's crash-test hook (DAEMON_CRASH_AFTER) kills the process here.
   */
  afterSend?(): void;
}

export interface BroadcastResult {
  status: TransactionStatus;
  /** What the node answered, when this run sent the raw transaction. */
  send?: SendOutcome["kind"];
}

const actor = systemActor("transfers.broadcast");

/**
 * `transfers.broadcast`: SIGNED → checked again, fail closed → BROADCASTING with the raw signed
 * transaction stored → sent.
 *
 * 1. The unsigned transaction is rebuilt from the stored intent and must equal what was released;
 *    the stored signature must verify over it against the wallet's enrolled key. Any difference
 *    ends FAILED/SIGNATURE_MISMATCH and nothing is ever sent.
 * 2. The wallet must still be ACTIVE and not watch-only, the tenant still VERIFIED; otherwise
 *    FAILED/INTERNAL_ERROR with the reason (value never moves on a stale approval).
 * 3. The policy and screening decision, when older than RECHECK_AFTER_SECONDS, is taken again
 *    (`recheckTransfer`); a refusal ends it BLOCKED, never sent, and frees the source's nonce
 *    slot for the next transfer (same nonce: no gap). Provider down: 503, the job retries, and
 *    in the end BLOCKED "provider unavailable".
 * 4. One transition stores the raw transaction and its hash and moves to BROADCASTING (in a process
 *    without block watchers it also schedules a watch `resumeBroadcastAfterMs` later, the backstop
 *    that follows it); only then is it sent.
 * 5. The send is counted (the network's block watcher follows it from there; a refused send
 *    schedules a watch at `watchRetryMs`).
 *
 * A crash between 4 and 5 is resumed `resumeBroadcastAfterMs` after the move: the block watcher
 * (or the watch job) re-sends the stored bytes; a retried job that finds the row BROADCASTING does
 * the same. Harmless, and the way recovery works. Node unreachable → 503 UNAVAILABLE (the job retries).
 */
export async function broadcastTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "chain" | "config" | "verifier">,
  input: { tenantId: string; transactionId: string },
  hooks: BroadcastHooks = {},
): Promise<BroadcastResult> {
  // The tenant's status is read with the row (one round trip on the pipelined reads), fresh for the
  // move; unused when the row has moved on.
  const [context, tenantStatus] = await Promise.all([loadSigningContext(deps.db, input), getTenantStatus(deps.db, input.tenantId)]);
  let row = context.transaction;
  if (row.status === "SIGNED") row = await moveToBroadcasting(deps, context, tenantStatus);
  if (row.status !== "BROADCASTING") return { status: row.status };

  const outcome = await sendSignedTransaction(deps.chain.client(row.networkCode), row);
  if (outcome.kind === "sent") hooks.afterSend?.();
  return { status: await recordSend(deps, row, outcome), send: outcome.kind };
}

async function moveToBroadcasting(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "config" | "verifier">,
  context: SigningContext,
  tenantStatus: string | undefined,
): Promise<TransactionRow> {
  const prepared = await prepareBroadcast(deps, context, tenantStatus);
  return "ended" in prepared ? prepared.ended : moveAlone(deps, context.transaction, prepared);
}

/** What goes on the row with its move to BROADCASTING: the raw transaction, its hash, and a decision taken again. */
interface ReadyToBroadcast {
  rawTransaction: string;
  chainTxHash: string;
  checks: Partial<CheckFields>;
}

/**
 * Steps 1–3 of `broadcastTransaction` for a SIGNED row: its raw transaction, ready to be stored
 * with the move; or the row as a refusal (or someone else) left it.
 */
async function prepareBroadcast(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "config" | "verifier">,
  context: SigningContext,
  tenantStatus: string | undefined,
): Promise<ReadyToBroadcast | { ended: TransactionRow }> {
  const row = context.transaction;
  const fail = async (subStatus: "SIGNATURE_MISMATCH" | "INTERNAL_ERROR", reason: string) => {
    deps.log.error({ transactionId: row.id, tenantId: row.tenantId, subStatus, reason }, "broadcast refused: failed closed, nothing sent");
    const outcome = await failTransaction(deps, { row, from: "SIGNED", subStatus, reason, actor });
    return { ended: outcome.moved ? outcome.row : await reread(deps, row) };
  };

  const check = checkSigningRequest(context);
  if (!check.ok) return fail("SIGNATURE_MISMATCH", check.reason);
  if (
    !row.signature ||
    !(await verifyTransactionSignature(deps.verifier, {
      signingHash: check.rebuilt.signingHash,
      signature: row.signature,
      publicKey: check.publicKey,
    }))
  ) {
    return fail("SIGNATURE_MISMATCH", "the stored signature does not verify over the transaction rebuilt from its intent");
  }
  if (context.wallet!.type === "WATCH_ONLY" || context.wallet!.status !== "ACTIVE") {
    return fail(
      "INTERNAL_ERROR",
      `the source wallet is ${context.wallet!.type === "WATCH_ONLY" ? "watch-only" : "archived"}: not broadcast`,
    );
  }
  if (!valueMovingAllowed(tenantStatus)) return fail("INTERNAL_ERROR", "the tenant is no longer verified (KYC): not broadcast");
  // Last, after the local checks: it may ask the screening provider. Signed maybe hours after its
  // checks (QUEUED, then PENDING_SIGNATURE up to the signing timeout), so a stale decision is
  // taken again; the value moves only on one younger than RECHECK_AFTER_SECONDS. The service's own
  // nonce records move no value of their own (a fill, a cancellation: zero to the source itself; a
  // speed-up: its original's value, already sent when the original was broadcast): not re-checked.
  const recheck = isCreatedType(row.type) ? await recheckTransfer(deps, { row, from: "SIGNED", actor }) : ({ status: "FRESH" } as const);
  if (recheck.status === "MOVED_ON") return { ended: await reread(deps, row) };
  if (recheck.status === "BLOCKED" || recheck.status === "FAILED") return { ended: recheck.transaction };

  const rawTransaction = serializeQuantumTransaction({
    ...check.rebuilt.unsigned,
    signature: row.signature as `0x${string}`,
    publicKey: check.publicKey,
  });
  return {
    rawTransaction,
    chainTxHash: getQuantumTransactionHash(rawTransaction),
    checks: recheck.status === "CLEARED" ? recheck.checks : {},
  };
}

/** Step 4 for one row: its own transition (with a watch scheduled in a process without block watchers). */
async function moveAlone(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  row: TransactionRow,
  ready: ReadyToBroadcast,
): Promise<TransactionRow> {
  const now = deps.now();
  const { resumeBroadcastAfterMs, blockWatchers } = deps.config.transfers;
  const outcome = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: ["SIGNED"],
    to: "BROADCASTING",
    set: { ...ready.checks, rawTransaction: ready.rawTransaction, chainTxHash: ready.chainTxHash, broadcastAt: now },
    actor,
    // No release-next: BROADCASTING still holds the source's window slot (NONCE_HOLDING_STATUSES)
    // and uses the nonce it had; the slot is freed when it is mined or ends, and those moves enqueue it.
    // The daemon's block watcher follows it from here (and resumes it if this run is cut off before
    // the send); a process without one leaves a watch job to do both.
    also: blockWatchers ? undefined : (tx, moved) => scheduleWatch(deps, tx, moved, new Date(now.getTime() + resumeBroadcastAfterMs)),
  });
  return outcome.moved ? outcome.row : reread(deps, row);
}

/**
 * `broadcastTransaction` for several transactions at once (one fetch of `transfers.broadcast`
 * jobs), each decided exactly as alone and side by side; what they share is done once for all: the
 * rows ready to go with no decision taken again are moved to BROADCASTING together (one statement
 * for the moves with their history and audit rows, one for their events, and their watches when
 * the process has no block watcher, in one database transaction), sent in one JSON-RPC batch
 * (`batchClient`), and the sends the node took are counted in one statement. Everything else — a
 * refusal, a decision taken again, a row already BROADCASTING, a refused send — takes the one-row
 * path; so does every row of a move together that fails (logged). One result or error per input,
 * in order: one transaction's trouble is never another's.
 */
export async function broadcastTransactions(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "chain" | "config" | "verifier">,
  inputs: readonly { tenantId: string; transactionId: string }[],
  hooks: BroadcastHooks = {},
): Promise<PromiseSettledResult<BroadcastResult>[]> {
  if (inputs.length <= 1) return Promise.allSettled(inputs.map((input) => broadcastTransaction(deps, input, hooks)));
  const tenantStatuses = new Map<string, Promise<string | undefined>>();
  for (const { tenantId } of inputs) {
    if (tenantStatuses.has(tenantId)) continue;
    const status = getTenantStatus(deps.db, tenantId);
    status.catch(() => undefined); // awaited (and its error thrown) only by the rows that need it
    tenantStatuses.set(tenantId, status);
  }
  // Steps 1–3, side by side: the row as it stands after its checks, and what its move stores.
  const staged = await Promise.allSettled(
    inputs.map(async (input): Promise<{ row: TransactionRow; ready?: ReadyToBroadcast }> => {
      const context = await loadSigningContext(deps.db, input);
      if (context.transaction.status !== "SIGNED") return { row: context.transaction };
      const prepared = await prepareBroadcast(deps, context, await tenantStatuses.get(input.tenantId));
      return "ended" in prepared ? { row: prepared.ended } : { row: context.transaction, ready: prepared };
    }),
  );
  // Step 4: together, unless its decision was taken again (its fields go with its own move).
  const together = staged.flatMap((stage) =>
    stage.status === "fulfilled" && stage.value.ready && Object.keys(stage.value.ready.checks).length === 0
      ? [{ row: stage.value.row, ready: stage.value.ready }]
      : [],
  );
  const movedTogether = await moveTogether(deps, together);
  const afterMove = await Promise.allSettled(
    staged.map(async (stage) => {
      if (stage.status === "rejected") throw stage.reason;
      const { row, ready } = stage.value;
      if (!ready) return row;
      // Moved together; or in the statement that moved the others, so someone moved it first; or alone.
      if (movedTogether && together.some((item) => item.row.id === row.id)) return movedTogether.get(row.id) ?? reread(deps, row);
      return moveAlone(deps, row, ready);
    }),
  );
  // Step 5: the BROADCASTING rows sent side by side, in one JSON-RPC batch whose requests go in
  // nonce order (a source's next nonce never reaches the node before the one it follows).
  const send = async (moved: PromiseSettledResult<TransactionRow>): Promise<SendOutcome | undefined> => {
    if (moved.status === "rejected") throw moved.reason;
    const row = moved.value;
    if (row.status !== "BROADCASTING") return undefined;
    const outcome = await sendSignedTransaction(deps.chain.batchClient(row.networkCode), row);
    if (outcome.kind === "sent") hooks.afterSend?.();
    return outcome;
  };
  const nonceOf = (moved: PromiseSettledResult<TransactionRow>) => (moved.status === "fulfilled" ? (moved.value.nonce ?? 0) : 0);
  const sending: Promise<SendOutcome | undefined>[] = [];
  for (const i of [...afterMove.keys()].sort((a, b) => nonceOf(afterMove[a]!) - nonceOf(afterMove[b]!))) sending[i] = send(afterMove[i]!);
  const sends = await Promise.allSettled(sending);
  // Step 6: the sends the node took counted together; the others recorded one by one.
  const sentRows = afterMove.flatMap((moved, i) => {
    const send = sends[i]!;
    return moved.status === "fulfilled" && send.status === "fulfilled" && send.value?.kind === "sent" ? [moved.value] : [];
  });
  const counting = recordTransactionSends(deps.db, {
    rows: sentRows.map((row) => ({ tenantId: row.tenantId, transactionId: row.id })),
    at: deps.now(),
  }).then((rows) => new Map(rows.map((row) => [row.id, row])));
  counting.catch(() => undefined); // its error is each sent row's, thrown where that row awaits it
  return Promise.allSettled(
    afterMove.map(async (moved, i): Promise<BroadcastResult> => {
      const send = sends[i]!;
      if (moved.status === "rejected") throw moved.reason;
      if (send.status === "rejected") throw send.reason;
      const row = moved.value;
      if (!send.value) return { status: row.status };
      if (send.value.kind !== "sent") return { status: await recordSend(deps, row, send.value), send: send.value.kind };
      return { status: ((await counting).get(row.id) ?? (await reread(deps, row))).status, send: "sent" };
    }),
  );
}

/**
 * Step 4 for many rows: one statement for the moves with their trail (`moveSignedWithTrail`), one
 * for their events, their watches when the process has no block watcher, in one database
 * transaction. The moved rows by id; undefined for fewer than two rows or when the statement
 * failed (each row then moves alone).
 */
async function moveTogether(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "config">,
  items: readonly { row: TransactionRow; ready: ReadyToBroadcast }[],
): Promise<Map<string, TransactionRow> | undefined> {
  if (items.length < 2) return undefined;
  const now = deps.now();
  const { resumeBroadcastAfterMs, blockWatchers } = deps.config.transfers;
  try {
    const moved = await deps.db.transaction(async (tx) => {
      const rows = await moveSignedWithTrail(tx, {
        rows: items.map(({ row, ready }) => ({
          tenantId: row.tenantId,
          transactionId: row.id,
          rawTransaction: ready.rawTransaction,
          chainTxHash: ready.chainTxHash,
        })),
        at: now,
        history: { actorType: actor.type, actorId: actor.id },
        audit: { actorType: actor.type, actorId: actor.id, action: "transaction.broadcasting" },
      });
      await settleAll([
        emitStatusChanges(tx, rows),
        ...(blockWatchers ? [] : rows.map(({ row }) => scheduleWatch(deps, tx, row, new Date(now.getTime() + resumeBroadcastAfterMs)))),
      ]);
      return rows;
    });
    return new Map(moved.map(({ row }) => [row.id, row]));
  } catch (error) {
    deps.log.warn({ err: error, transactions: items.length }, "moving broadcasts together failed: each moves alone");
    return undefined;
  }
}

/**
 * The send's outcome on the row: an attempt counted and the watch pulled forward, or FAILED when
 * final. "Nonce too low" for a speed-up, a cancellation or their original is not a drop while
 * another transaction of the nonce is pending or mined (CONTRACT §17): it ends naming the one
 * mined for good, or waits for the watcher to see which one is.
 */
async function recordSend(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain">,
  row: TransactionRow,
  outcome: SendOutcome,
): Promise<TransactionStatus> {
  if (outcome.kind === "final" && outcome.subStatus === "DROPPED_BY_CHAIN") {
    const standing = await sameNonceStanding(deps, row);
    if (standing.kind === "replaced") {
      const ended = await endReplaced(deps, { row, from: ["BROADCASTING"], mined: standing.by, actor });
      return ended.moved ? ended.row.status : (await reread(deps, row)).status;
    }
    if (standing.kind !== "free") return recordSend(deps, row, { kind: "refused", reason: outcome.reason });
  }
  if (outcome.kind === "final") {
    const failed = await failTransaction(deps, { row, from: "BROADCASTING", subStatus: outcome.subStatus, reason: outcome.reason, actor });
    return failed.moved ? failed.row.status : (await reread(deps, row)).status;
  }
  const now = deps.now();
  // Sent: the network's block watcher sees it mined (a watch scheduled with the move, when this
  // process has no watcher, follows it too). Refused for now: a watch re-sends after a pause
  // (bounded by maxSendAttempts).
  const recorded =
    outcome.kind === "sent"
      ? await recordTransactionSend(deps.db, { tenantId: row.tenantId, transactionId: row.id, at: now })
      : await deps.db.transaction(async (tx) => {
          const updated = await recordTransactionSend(tx, { tenantId: row.tenantId, transactionId: row.id, at: now });
          if (updated) await scheduleWatch(deps, tx, updated, new Date(now.getTime() + deps.config.transfers.watchRetryMs));
          return updated;
        });
  return recorded?.status ?? (await reread(deps, row)).status;
}

async function reread(deps: Pick<ServiceDeps, "db">, row: TransactionRow): Promise<TransactionRow> {
  const current = await findTransaction(deps.db, row.tenantId, row.id);
  if (!current) throw new AppError("NOT_FOUND", "transaction not found");
  return current;
}
