import { getPendingNonce, type NetworkCode } from "@qc/chain";
import type { Transaction } from "@qc/db";
import {
  countNonceWindow,
  findOldestTransferIn,
  findSourceNonces,
  findTransaction,
  findTransactionForSigning,
  findWalletRow,
  lowestFreeNonce,
  type TransactionForSigning,
  type TransactionRow,
} from "@qc/db/queries";
import { systemActor, type Actor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { jobRequest } from "../transitions/run-transition";
import type { CheckFields } from "./check-subject";
import { recheckTransfer } from "./recheck-transfer";
import { releaseNextJob } from "./release-next-job";
import { quoteFees, TransferUnaffordableError, TransferWouldRevertError, type TransferFeeQuote } from "./quote-transfer-fees";
import { transitionTransaction, type TransactionTransitionInput } from "./transition-transaction";
import type { TransferAsset } from "./unsigned-transaction";
import { releasedFields, signingDeadlineFrom } from "./insert-released-transaction";
import { simulateTransactionRow, transactionCall } from "./simulate-transfer";
import type { TransactionSimulation } from "../records/record-schemas";
import { holdIfNewlyRequired, holdUnlessStillApproved } from "../approvals/decisions/hold-unless-still-approved";
import { outboundSource } from "./outbound-source";

type ReleaseDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain" | "log" | "verifier">;

export type { CheckFields } from "./check-subject";

export type ReleaseOutcome =
  /** Released: nonce, fees, unsigned transaction and signing hash stored; the signer can sign it. */
  | { status: "PENDING_SIGNATURE"; transaction: TransactionRow }
  /** Cleared, waiting for room in the source's nonce window (or behind an older waiting transfer). */
  | { status: "QUEUED"; transaction: TransactionRow }
  /** Ended at release: the chain says the source can no longer pay, or the source went away. */
  | { status: "FAILED"; transaction: TransactionRow }
  /** Ended at release: its policy and screening decision, taken again (stale), refuses it now. */
  | { status: "BLOCKED"; transaction: TransactionRow }
  /** Sent back to its approvers: an approval it was queued with no longer counts (CONTRACT §15). */
  | { status: "AWAITING_APPROVAL"; transaction: TransactionRow }
  /**
   * Nothing done: the row moved on, or it is not this transfer's turn. `retry`: release-next
   * should look at the queue again (the row moved on, or its turn came before the chain was asked).
   */
  | { status: "UNCHANGED"; reason: string; retry: boolean };

const MOVED_ON = { status: "UNCHANGED", reason: "the transaction has moved on", retry: true } as const;
/** Why a queued transfer stays queued while its source's window has no room. */
export const WINDOW_FULL = "the source's nonce window is full";

export interface ChainQuote {
  fees: TransferFeeQuote;
  /**
   * The source's next nonce as the node sees it: its mined count and the consecutive nonces in
   * its pool after it. The floor of the nonce rule (`findSourceNonces`).
   */
  pendingNonce: number;
}

/** What release asks the chain about `row`: its fees and gas (quoteFees) and the source's pending nonce. */
export async function quoteRelease(
  deps: Pick<ServiceDeps, "chain" | "config">,
  row: TransactionRow,
  asset: TransferAsset | null,
): Promise<ChainQuote> {
  const networkCode = row.networkCode as NetworkCode;
  const [fees, nonce] = await Promise.all([
    quoteFees(deps, { networkCode, from: row.sourceAddress, call: transactionCall(row, asset) }),
    // With the fee quote's reads, in one JSON-RPC batch.
    getPendingNonce(deps.chain.batchClient(networkCode), { address: row.sourceAddress }).catch((error: unknown) => {
      throw chainUnavailable(networkCode, error);
    }),
  ]);
  return { fees, pendingNonce: nonce.pending };
}

/**
 * Releases a cleared transfer for signing, or queues it (docs/transfers.md; docs/decisions/
 * transfers.md, "Release for signing").
 *
 * Per source wallet and network up to NONCE_WINDOW transactions hold nonces between release and
 * mining (PENDING_SIGNATURE, SIGNED, BROADCASTING). Under a row lock on the source wallet, a
 * transfer whose source has room in its window and no older transfer waiting (in its checks or
 * QUEUED) is released, so transfers of one source are released in creation order: nonce = the
 * lowest nonce at or above the node's pending nonce that no row of the source holds or used (the
 * database is the authority: `findSourceNonces`, `lowestFreeNonce`), fees and gas from the chain
 * (as the checks have just asked it, `quoted`, or asked now), the unsigned transaction and signing
 * hash rebuilt from the stored intent, a signing deadline and its `transfers.expire` job, and its
 * pre-sign simulation (CONTRACT §20: `simulateTransactionRow` at the quoted fees, after the chain
 * quote and before the lock; it never fails the release).
 * Otherwise it waits in QUEUED, and `transfers.release-next` releases it once there is room. A nonce left unused below a taken one goes to the next released transfer,
 * or release-next fills it (`fillNonceGaps`); no signature is ever invalidated by a renumbering.
 *
 * `from` SUBMITTED is the checks' way in (with their decision in `checks`); `from` QUEUED is
 * release-next's, which only releases the source's oldest queued transfer — after taking its
 * policy and screening decision again when older than RECHECK_AFTER_SECONDS (`recheckTransfer`:
 * a refusal ends it BLOCKED before it ever holds a nonce). A transfer that required approvals has
 * every counted approval verified again first (`holdUnlessStillApproved`): short of its quorum
 * now, it goes back to AWAITING_APPROVAL and is never released.
 */
export async function releaseForSigning(
  deps: ReleaseDeps,
  input: {
    tenantId: string;
    transactionId: string;
    from: "SUBMITTED" | "QUEUED";
    checks?: CheckFields;
    actor?: Actor;
    /**
     * The row with its asset as the caller has just read it (the checks: `findTransferCheckRows`),
     * instead of reading it again. Its intent is what is quoted and simulated; the move itself is
     * decided on the row read again under the wallet's lock.
     */
    loaded?: Pick<TransactionForSigning, "transaction" | "asset">;
    /**
     * The chain's answer the checks have just had for this transfer (`TransferCheckDecision`'s
     * `chain`: the fees and gas of its call, the source's pending nonce), used instead of asking
     * again when it may be released now.
     */
    quoted?: ChainQuote;
  },
): Promise<ReleaseOutcome> {
  const actor = input.actor ?? systemActor(input.from === "SUBMITTED" ? "transfers.check" : "transfers.release-next");
  const loaded =
    input.loaded ?? (await findTransactionForSigning(deps.db, { tenantId: input.tenantId, transactionId: input.transactionId }));
  if (!loaded || loaded.transaction.status !== input.from) return MOVED_ON;
  const row = loaded.transaction;
  if (!loaded.asset && row.type !== "CONTRACT_DEPLOY")
    throw new AppError("INTERNAL", "transfer without a visible asset", { details: { transactionId: row.id } });
  const asset: TransferAsset | null = loaded.asset;
  const source = outboundSource(row);

  // The chain is asked outside the lock, and only when the transfer may be released now.
  let quote: ChainQuote | undefined;
  let simulation: TransactionSimulation | undefined;
  let checks = input.checks;
  const window = deps.config.transfers.nonceWindow;
  const room = (await countNonceWindow(deps.db, source)) < window;
  // Full: a queued transfer stays queued without taking the lock (a slot freed since this read
  // enqueues release-next in its own transition, and that run sees it).
  if (!room && input.from === "QUEUED") return { status: "UNCHANGED", reason: WINDOW_FULL, retry: false };
  if (room) {
    if (input.from === "QUEUED") {
      // Fail closed (CONTRACT §15): its approvals are judged and verified again before anything is released.
      const held = await holdUnlessStillApproved(deps, row, actor);
      if (held === "MOVED_ON") return MOVED_ON;
      if (held) return { status: "AWAITING_APPROVAL", transaction: held };
      // It may have waited hours behind its source's transfers: a stale decision is taken again
      // (outside the lock: the provider is HTTP) before the signer is asked to sign.
      const recheck = await recheckTransfer(deps, { row, from: "QUEUED", actor });
      if (recheck.status === "MOVED_ON") return MOVED_ON;
      if (recheck.status === "BLOCKED" || recheck.status === "FAILED") return { status: recheck.status, transaction: recheck.transaction };
      if (recheck.status === "CLEARED") {
        checks = recheck.checks;
        const held = await holdIfNewlyRequired(deps, row, recheck, actor);
        if (held === "MOVED_ON") return MOVED_ON;
        if (held) return { status: "AWAITING_APPROVAL", transaction: held };
      }
    }
    try {
      quote = input.quoted ?? (await quoteRelease(deps, row, asset));
    } catch (error) {
      if (error instanceof TransferUnaffordableError || error instanceof TransferWouldRevertError) {
        const unaffordable = error instanceof TransferUnaffordableError;
        return end(deps, { ...input, checks }, actor, {
          subStatus: unaffordable ? "INSUFFICIENT_FUNDS" : "INTERNAL_ERROR",
          reason: unaffordable
            ? "insufficient funds: the source cannot pay the amount and the maximum fee"
            : `the transfer would revert on chain: ${error.message}`,
        });
      }
      throw error;
    }
    // CONTRACT §20: what it will do, simulated at the quoted fees, before the lock (it never fails the release).
    simulation = await simulateTransactionRow(deps, row, { asset, fees: quote.fees });
  }

  return deps.db.transaction(async (tx): Promise<ReleaseOutcome> => {
    // Serializes the source's releases (and its archive's UPDATE) without holding up creates: a
    // create's foreign-key check on the wallet (FOR KEY SHARE) passes FOR NO KEY UPDATE, where
    // FOR UPDATE made every create of the source wait for the release to commit.
    // One round trip: the lock first, then (same connection, in order) the reads it serializes.
    const [wallet, current, nonces, first] = await Promise.all([
      findWalletRow(tx, { tenantId: row.tenantId, walletId: source.sourceWalletId, lock: "no key update" }),
      findTransaction(tx, row.tenantId, row.id),
      findSourceNonces(tx, { ...source, chainFloor: quote?.pendingNonce ?? null }),
      // The oldest of the source's waiting transfers (in checks or queued); this one when none is older.
      findOldestTransferIn(tx, { ...source, statuses: ["SUBMITTED", "QUEUED"] }),
    ]);
    if (!current || current.status !== input.from) return MOVED_ON;
    if (!wallet || wallet.status !== "ACTIVE" || wallet.type === "WATCH_ONLY") {
      return end(
        deps,
        { ...input, checks },
        actor,
        { subStatus: "INTERNAL_ERROR", reason: "the source wallet was archived before the transfer was released" },
        tx,
      );
    }
    const full = nonces.holding >= window;
    const older = first !== undefined && first.id !== row.id ? first : undefined;
    if (full || older || !quote) {
      if (input.from === "QUEUED") {
        if (full) return { status: "UNCHANGED", reason: WINDOW_FULL, retry: false };
        // Its checks' end releases it or, ending otherwise, enqueues release-next.
        if (older?.status === "SUBMITTED")
          return { status: "UNCHANGED", reason: "an older transfer of the source is still in its checks", retry: false };
        if (older) return { status: "UNCHANGED", reason: "an older queued transfer goes first", retry: true };
        return { status: "UNCHANGED", reason: "its turn came before the chain was asked", retry: true };
      }
      const queued = await transitionTransaction(
        deps,
        {
          tenantId: row.tenantId,
          transactionId: row.id,
          from: ["SUBMITTED"],
          to: "QUEUED",
          subStatus: null,
          reason: full
            ? "waiting for room in the source's nonce window (its transfers in flight to be mined or to end)"
            : "waiting behind an earlier transfer of the source",
          set: { ...input.checks },
          actor,
          // Always: a transaction of the window seen here may end, and its release-next run, before
          // this commits (those moves do not take the wallet lock); that run found nothing queued,
          // so without one of our own this transfer would wait forever. With the window still
          // full, release-next does nothing.
          jobs: (moved) => [releaseNextJob(moved)],
        },
        tx,
      );
      return queued.moved ? { status: "QUEUED", transaction: queued.row } : MOVED_ON;
    }

    const release = releaseTransition(current, asset, {
      checks,
      nonce: lowestFreeNonce(nonces),
      fees: quote.fees,
      signingDeadline: signingDeadlineFrom(deps),
      simulation,
      expiryJob: !deps.config.transfers.blockWatchers,
    });
    // Released by its checks ahead of queued younger ones (queued while it was in its checks):
    // release-next releases them while the window has room, or schedules its next look.
    const next = input.from === "SUBMITTED" && nonces.queued ? (r: TransactionRow) => [releaseNextJob(r)] : () => [];
    const moved = await transitionTransaction(
      deps,
      {
        tenantId: row.tenantId,
        transactionId: row.id,
        from: [input.from],
        actor,
        ...release,
        jobs: (r) => [...(release.jobs?.(r) ?? []), ...next(r)],
      },
      tx,
    );
    return moved.moved ? { status: "PENDING_SIGNATURE", transaction: moved.row } : MOVED_ON;
  });
}

/**
 * The move to PENDING_SIGNATURE that releasing `current` is: its checks' decision (when it comes
 * from them), the released fields (`releasedFields`: nonce, fees and gas, the unsigned transaction
 * and signing hash rebuilt from the stored intent with them, the signing deadline), its pre-sign
 * simulation (CONTRACT §20; null when none was made), and the `transfers.expire` job at that
 * deadline unless `expiryJob` is false (a daemon with block watchers: their sweep expires it).
 */
export function releaseTransition(
  current: TransactionRow,
  asset: TransferAsset | null,
  release: {
    checks?: CheckFields | undefined;
    nonce: number;
    fees: TransferFeeQuote;
    signingDeadline: Date;
    /** Its pre-sign simulation (CONTRACT §20), made before the lock; absent: null. */
    simulation?: TransactionSimulation | undefined;
    /** Whether a `transfers.expire` job waits for the deadline (default true; see TransferConfig.blockWatchers). */
    expiryJob?: boolean;
  },
): Pick<TransactionTransitionInput, "to" | "subStatus" | "reason" | "set" | "jobs"> {
  const { signingDeadline, expiryJob = true } = release;
  return {
    to: "PENDING_SIGNATURE",
    subStatus: null,
    reason: null,
    set: { ...release.checks, ...releasedFields(current, asset, release), simulation: release.simulation ?? null },
    jobs: (r) =>
      expiryJob ? [jobRequest("transfers.expire", { tenantId: r.tenantId, transactionId: r.id }, { startAfter: signingDeadline })] : [],
  };
}

/** FAILED at release, with release-next for whatever waits behind it. */
async function end(
  deps: ReleaseDeps,
  input: { tenantId: string; transactionId: string; from: "SUBMITTED" | "QUEUED"; checks?: CheckFields },
  actor: Actor,
  failure: { subStatus: "INSUFFICIENT_FUNDS" | "INTERNAL_ERROR"; reason: string },
  tx?: Transaction,
): Promise<ReleaseOutcome> {
  const failed = await transitionTransaction(
    deps,
    {
      tenantId: input.tenantId,
      transactionId: input.transactionId,
      from: [input.from],
      to: "FAILED",
      subStatus: failure.subStatus,
      reason: failure.reason,
      set: { ...input.checks },
      actor,
      jobs: (r) => [releaseNextJob(r)],
    },
    tx,
  );
  return failed.moved ? { status: "FAILED", transaction: failed.row } : MOVED_ON;
}
