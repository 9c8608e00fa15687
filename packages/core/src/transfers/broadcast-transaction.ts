import { getQuantumTransactionHash, serializeQuantumTransaction } from "@qc/chain";
import { findTransaction, getTenantStatus, recordTransactionSend, type TransactionRow } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { valueMovingAllowed } from "../kyc/assert-tenant-verified";
import { failTransaction } from "./fail-transaction";
import { loadSigningContext } from "./load-signing-context";
import { recheckTransfer } from "./recheck-transfer";
import { endReplaced, sameNonceStanding } from "./same-nonce";
import { isCreatedType } from "./transition-transaction";
import { sendSignedTransaction, type SendOutcome } from "./send-signed-transaction";
import type { TransactionStatus } from "./transaction-status";
import { transitionTransaction } from "./transition-transaction";
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
  const row = context.transaction;
  const fail = async (subStatus: "SIGNATURE_MISMATCH" | "INTERNAL_ERROR", reason: string) => {
    deps.log.error({ transactionId: row.id, tenantId: row.tenantId, subStatus, reason }, "broadcast refused: failed closed, nothing sent");
    const outcome = await failTransaction(deps, { row, from: "SIGNED", subStatus, reason, actor });
    return outcome.moved ? outcome.row : await reread(deps, row);
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
  if (recheck.status === "MOVED_ON") return reread(deps, row);
  if (recheck.status === "BLOCKED" || recheck.status === "FAILED") return recheck.transaction;
  const checks = recheck.status === "CLEARED" ? recheck.checks : {};

  const rawTransaction = serializeQuantumTransaction({
    ...check.rebuilt.unsigned,
    signature: row.signature as `0x${string}`,
    publicKey: check.publicKey,
  });
  const now = deps.now();
  const { resumeBroadcastAfterMs, blockWatchers } = deps.config.transfers;
  const outcome = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: ["SIGNED"],
    to: "BROADCASTING",
    set: { ...checks, rawTransaction, chainTxHash: getQuantumTransactionHash(rawTransaction), broadcastAt: now },
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
