import { getQuantumTransactionStatus } from "@qc/chain";
import type { Transaction } from "@qc/db";
import { findSameNonceTransactions, type SameNonceKey, type TransactionRow } from "@qc/db/queries";
import { isNonceHoldingStatus, isSelfSendType } from "@qc/domain";
import type { Actor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { releaseNextJob } from "./release-next-job";
import type { TransactionStatus } from "./transaction-status";
import { transitionTransaction, type TransactionTransitionInput } from "./transition-transaction";

// The transactions of one (source, nonce), CONTRACT §17: an original, its speed-ups
// (REPLACEMENT) and its cancellations on chain (CANCELLATION). The chain mines exactly one of
// them; the others end naming it (`replacedByTransactionId`).

/** A transaction of a nonce that may still be mined, or whose signature may still be sent. */
export const LIVE_SAME_NONCE_STATUSES = [
  "PENDING_SIGNATURE",
  "SIGNED",
  "BROADCASTING",
  "CONFIRMING",
] as const satisfies readonly TransactionStatus[];
const isLive = (status: TransactionStatus) => (LIVE_SAME_NONCE_STATUSES as readonly string[]).includes(status);

/** The key of `row`'s nonce among its source's transactions; undefined before a nonce is assigned. */
export function sameNonceKey(
  row: Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode" | "nonce">,
): SameNonceKey | undefined {
  if (row.nonce === null || row.sourceWalletId === null) return undefined;
  return { tenantId: row.tenantId, sourceWalletId: row.sourceWalletId, networkCode: row.networkCode, nonce: row.nonce, excludeId: row.id };
}

/** The other transactions of `row`'s nonce (none before a nonce is assigned). */
export async function findSameNonceSiblings(
  db: ServiceDeps["db"] | Transaction,
  row: Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode" | "nonce">,
): Promise<TransactionRow[]> {
  const key = sameNonceKey(row);
  return key ? findSameNonceTransactions(db, key) : [];
}

/** Mined and final at its nonce: it took the nonce for good (a revert uses the nonce too). */
export const tookTheNonce = (row: TransactionRow) =>
  row.status === "COMPLETED" || (row.status === "FAILED" && row.subStatus === "REVERTED_ON_CHAIN");

/**
 * How `row` ends because `mined` took its nonce: an original (or a speed-up of it) whose
 * cancellation was mined is CANCELLED/CANCELLED_ON_CHAIN; everything else is FAILED/REPLACED. An
 * original whose REPLACEMENT was mined moved its value all the same: its usage stays counted.
 */
export function replacedEnd(
  row: Pick<TransactionRow, "type" | "nonce">,
  mined: Pick<TransactionRow, "id" | "type">,
): Pick<TransactionTransitionInput, "to" | "subStatus" | "reason" | "keepsUsage" | "set"> {
  const set = { replacedByTransactionId: mined.id };
  if (mined.type === "CANCELLATION" && !isSelfSendType(row.type)) {
    return {
      to: "CANCELLED",
      subStatus: "CANCELLED_ON_CHAIN",
      reason: `cancelled on chain: its cancellation ${mined.id} was mined at nonce ${row.nonce}`,
      set,
    };
  }
  return {
    to: "FAILED",
    subStatus: "REPLACED",
    reason: `replaced: ${mined.type === "REPLACEMENT" ? "its speed-up" : `the ${mined.type.toLowerCase()}`} ${mined.id} was mined at nonce ${row.nonce}`,
    keepsUsage: mined.type === "REPLACEMENT",
    set,
  };
}

/**
 * Ends `row` (from `from`) because `mined` took its nonce: one conditional UPDATE with its
 * history, audit row and `transaction.status_changed` event; a row that still held its source's
 * signing slot lets the next queued transfer go (release-next).
 */
export function endReplaced(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { row: TransactionRow; from: readonly TransactionStatus[]; mined: Pick<TransactionRow, "id" | "type">; actor: Actor },
  tx?: Transaction,
) {
  const { row, mined } = input;
  return transitionTransaction(
    deps,
    {
      tenantId: row.tenantId,
      transactionId: row.id,
      from: input.from,
      ...replacedEnd(row, mined),
      actor: input.actor,
      jobs: (moved) => (isNonceHoldingStatus(row.status) ? [releaseNextJob(moved)] : []),
    },
    tx,
  );
}

/**
 * `mined` reached its final state at its nonce (COMPLETED, or reverted at the same depth): every
 * other live transaction of the nonce ends naming it, in the caller's database transaction. A
 * sibling already ended (rejected, expired, replaced) is left as it is.
 */
export async function endSameNonceSiblings(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  mined: TransactionRow,
  actor: Actor,
  tx: Transaction,
): Promise<void> {
  for (const sibling of await findSameNonceSiblings(tx, mined)) {
    if (!isLive(sibling.status)) continue;
    await endReplaced(deps, { row: sibling, from: LIVE_SAME_NONCE_STATUSES, mined, actor }, tx);
  }
}

/** `row` offers a higher fee cap than `pending`: the node takes it in `pending`'s place. */
function outbids(row: TransactionRow, pending: TransactionRow): boolean {
  return BigInt(row.maxFeePerGas ?? "0") > BigInt(pending.maxFeePerGas ?? "0");
}

export type SameNonceStanding =
  /** Another transaction of the nonce was mined for good: this one ends naming it. */
  | { kind: "replaced"; by: TransactionRow }
  /** Another transaction of the nonce is mined (not yet final), or pending with fee caps at least as high: wait for it. */
  | { kind: "taken" }
  /** Only siblings with lower fee caps are pending: re-send this one, which replaces them in the pool. */
  | { kind: "outbids" }
  /** No other hash of the nonce is pending or mined. */
  | { kind: "free" };

/**
 * Where the other transactions of `row`'s nonce stand, asked when `row`'s own hash is neither
 * pending nor mined (or the node says its nonce is used): a transaction whose nonce a sibling
 * took is never "dropped". The records first (a sibling final or CONFIRMING), then the chain
 * for each sibling sent and not yet mined. A pending sibling holds the nonce only against one
 * with lower fee caps: a speed-up whose bytes the node lost while its original is back in the pool
 * is re-sent and replaces it there (its caps are ≥ 12.5 % higher), not left waiting behind it.
 * Chain unreachable: 503 UNAVAILABLE.
 */
export async function sameNonceStanding(deps: Pick<ServiceDeps, "db" | "chain">, row: TransactionRow): Promise<SameNonceStanding> {
  const siblings = await findSameNonceSiblings(deps.db, row);
  const final = siblings.find(tookTheNonce);
  if (final) return { kind: "replaced", by: final };
  if (siblings.some((s) => s.status === "CONFIRMING")) return { kind: "taken" };
  const client = deps.chain.client(row.networkCode);
  let outbid = false;
  for (const sibling of siblings) {
    if (sibling.status !== "BROADCASTING" || !sibling.chainTxHash) continue;
    const onChain = await getQuantumTransactionStatus(client, { hash: sibling.chainTxHash as `0x${string}` }).catch((error: unknown) => {
      throw chainUnavailable(row.networkCode, error);
    });
    if (onChain.status === "unknown") continue;
    if (onChain.status !== "pending" || !outbids(row, sibling)) return { kind: "taken" };
    outbid = true;
  }
  return { kind: outbid ? "outbids" : "free" };
}
