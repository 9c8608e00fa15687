import type { Transaction } from "@qc/db";
import { newTransactionRow, type NewTransactionRow, type TransactionRow } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { TransferFeeQuote } from "./quote-transfer-fees";
import { insertCreatedTransaction } from "./submit-transaction";
import { rebuildUnsignedTransaction, type TransferAsset } from "./unsigned-transaction";

/** What a release chooses for a transaction: its nonce and the chain's fee caps and gas limit. */
export interface ReleaseChoice {
  nonce: number;
  fees: TransferFeeQuote;
}

/** The columns a released transaction carries (PENDING_SIGNATURE): what the signer is asked to sign. */
export type ReleasedFields = Required<
  Pick<
    NewTransactionRow,
    "nonce" | "gasLimit" | "maxFeePerGas" | "maxPriorityFeePerGas" | "data" | "unsignedTransaction" | "signingHash" | "signingDeadline"
  >
>;

/**
 * The released columns of `row` for `choice`: nonce, fee caps and gas, and the calldata, unsigned
 * transaction and signing hash rebuilt from the stored intent with them (`rebuildUnsignedTransaction`,
 * the same rebuild the signature is verified against), and the signing deadline. One rule for a
 * transfer released from the queue and for a record created released (a fill, a replacement, a
 * cancellation).
 */
export function releasedFields(
  row: TransactionRow,
  asset: TransferAsset | null,
  choice: ReleaseChoice & { signingDeadline: Date },
): ReleasedFields {
  const chosen = {
    nonce: choice.nonce,
    gasLimit: choice.fees.gasLimit.toString(),
    maxFeePerGas: choice.fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: choice.fees.maxPriorityFeePerGas.toString(),
  };
  const rebuilt = rebuildUnsignedTransaction({ ...row, ...chosen }, asset);
  return {
    ...chosen,
    data: rebuilt.unsigned.data ?? "0x",
    unsignedTransaction: rebuilt.unsignedTransaction,
    signingHash: rebuilt.signingHash,
    signingDeadline: choice.signingDeadline,
  };
}

/** The signing deadline of a transaction released now: the configured signing timeout from the clock. */
export function signingDeadlineFrom(deps: Pick<ServiceDeps, "now" | "config">): Date {
  return new Date(deps.now().getTime() + deps.config.transfers.signingTimeoutSeconds * 1000);
}

/**
 * Inserts a transaction that is released from the start — the service's own nonce records of
 * CONTRACT §17: a NONCE_FILL (docs/transfers.md), a REPLACEMENT or a CANCELLATION (speed-up and
 * cancel on chain) — in the caller's database transaction: the row in PENDING_SIGNATURE with its
 * released fields (`releasedFields`: nonce, fee caps, gas, unsigned transaction and signing hash
 * rebuilt from `values`, signing deadline = now + SIGNING_TIMEOUT_SECONDS), its first
 * status-history entry (null → PENDING_SIGNATURE), the `transaction.created` audit row and event,
 * and the `transfers.expire` job at the deadline (none in a process with block watchers: their
 * sweep expires it, TransferConfig.blockWatchers). The signer then signs it like any other
 * transaction; nothing here signs or re-uses a signature.
 *
 * Such a record is not a new transfer: it is inserted without adding to the tenant's usage
 * buckets (`insertCreatedTransaction` with `usage: "skip"`), so it never counts against
 * velocity windows or daily quotas, and `transitionTransaction` never takes usage back for it
 * (only CREATED_TRANSACTION_TYPES count). The caller holds whatever lock decides the nonce (the
 * source wallet's, for a fill) and chose `nonce` and `fees` (from the chain, outside that lock).
 *
 * `values` is the intent: type, tenant, network and chain, source wallet and address,
 * destination (the source itself for a self-send), asset (null for a self-send), amount,
 * requiredConfirmations, and `replacesTransactionId` for a REPLACEMENT or CANCELLATION.
 */
export async function insertReleasedTransaction(
  tx: Transaction,
  deps: Pick<ServiceDeps, "jobs" | "now" | "config">,
  input: {
    values: NewTransactionRow;
    asset: TransferAsset | null;
    release: ReleaseChoice;
    actor: Actor;
    /** The `transaction.created` audit row's details (what the record is for: the nonce it fills, the one it replaces). */
    auditDetails?: Record<string, unknown>;
  },
): Promise<TransactionRow> {
  const now = deps.now();
  const signingDeadline = signingDeadlineFrom({ ...deps, now: () => now });
  const intent = newTransactionRow({ ...input.values, status: "PENDING_SIGNATURE" }, now);
  const row: TransactionRow = { ...intent, ...releasedFields(intent, input.asset, { ...input.release, signingDeadline }) };
  // Independent statements sent together (one round trip on a pipelined connection).
  const [trail, job] = await Promise.allSettled([
    insertCreatedTransaction(tx, {
      row,
      actor: input.actor,
      auditDetails: { type: row.type, nonce: row.nonce, ...input.auditDetails },
      usage: "skip",
    }),
    deps.config.transfers.blockWatchers
      ? null
      : deps.jobs.send(tx, "transfers.expire", { tenantId: row.tenantId, transactionId: row.id }, { startAfter: signingDeadline }),
  ]);
  if (trail.status === "rejected") throw trail.reason;
  if (job.status === "rejected") throw job.reason;
  return row;
}
