import { estimateQuantumFees, type NetworkCode } from "@qc/chain";
import { findTransactionForSigning, lockTransactionStatus, type NewTransactionRow, type TransactionRow } from "@qc/db/queries";
import { isSelfSendType, REPLACEABLE_STATUSES } from "@qc/domain";
import type { Actor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { TransactionRecord } from "../records/record-schemas";
import { insertReleasedTransaction } from "./insert-released-transaction";
import { initiatedBy } from "./submit-transaction";
import { replacementFeeCaps, type FeeCaps } from "./replacement-fee-caps";
import { findSameNonceSiblings, LIVE_SAME_NONCE_STATUSES, tookTheNonce } from "./same-nonce";
import { toTransactionRecord } from "./transaction-record";
import type { TransferAsset } from "./unsigned-transaction";

type ReplaceDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain">;

/** Gas of a zero-value transaction from an account to itself, no data: exactly the intrinsic 21,000. */
const SELF_SEND_GAS = 21_000n;

export interface ReplaceAtNonceInput {
  tenantId: string;
  transactionId: string;
  /**
   * REPLACEMENT: the same transaction with higher fee caps (a speed-up); CANCELLATION: zero value
   * from the source to itself. A speed-up of a self-send (a fill or a cancellation) is another
   * cancellation: the same thing with higher fees.
   */
  kind: "REPLACEMENT" | "CANCELLATION";
  /** Floors the caller asks for the new caps (Qwei per gas); the rule may raise them. */
  requested: Partial<FeeCaps>;
  /** The caller's words, kept in the new record's `transaction.created` audit row. */
  reason?: string | undefined;
  actor: Actor;
}

/**
 * Speed-up and cancel on chain (CONTRACT §17): a new record at the nonce of a BROADCASTING
 * transaction, created released (PENDING_SIGNATURE, `insertReleasedTransaction`) for the signer to
 * sign like any other, then broadcast by the normal path. `replacesTransactionId` names the
 * transaction asked about; the intent is its own (destination, asset, amount, or a deployment's
 * template and arguments, and its gas limit) for a REPLACEMENT, zero value to the source for a
 * CANCELLATION; its policy and screening decision is carried over (the value was cleared when the
 * original was). Fee caps: `replacementFeeCaps` (≥ 12.5 % above every live transaction of the
 * nonce, ≥ what the chain's latest base fee needs by the release's own estimator, ≥ what was
 * asked), refused above MAX_FEE_PER_GAS_CAP.
 *
 * Refusals: not the tenant's: 404; not BROADCASTING (or a deposit): 409 INVALID_TRANSACTION_STATE
 * with `details.status`; a transaction of the nonce already mined: the same 409 with
 * `details.minedTransactionId`; a requested cap above MAX_FEE_PER_GAS_CAP: 400 VALIDATION_FAILED
 * naming the field; the caps the rule needs above it: 409 CONFLICT (`details.maxFeePerGas`,
 * `details.maxFeePerGasCap`). The original's row lock serializes speed-ups of one transaction,
 * so each sees the caps of the one before.
 */
export async function replaceAtNonce(deps: ReplaceDeps, input: ReplaceAtNonceInput): Promise<TransactionRecord> {
  const cap = deps.config.transfers.maxFeePerGasCap;
  for (const field of ["maxFeePerGas", "maxPriorityFeePerGas"] as const) {
    const asked = input.requested[field];
    if (asked !== undefined && asked > cap)
      throw new AppError("VALIDATION_FAILED", `${field} ${asked} is above the configured cap MAX_FEE_PER_GAS_CAP (${cap} Qwei)`, {
        details: { fields: [{ path: field, message: `at most ${cap} Qwei per gas (MAX_FEE_PER_GAS_CAP)` }] },
      });
  }
  const loaded = await findTransactionForSigning(deps.db, { tenantId: input.tenantId, transactionId: input.transactionId });
  if (!loaded) throw new AppError("NOT_FOUND", "transaction not found");
  const original = loaded.transaction;
  assertReplaceable(original, input.kind);
  // Outside the database transaction: the chain is HTTP.
  const market = await estimateQuantumFees(deps.chain.client(original.networkCode as NetworkCode)).catch((error: unknown) => {
    throw chainUnavailable(original.networkCode, error);
  });

  const created = await deps.db.transaction(async (tx) => {
    const status = await lockTransactionStatus(tx, input.tenantId, original.id);
    if (status !== original.status) assertReplaceable({ ...original, status: status ?? original.status }, input.kind);
    const siblings = await findSameNonceSiblings(tx, original);
    const mined = siblings.find((s) => s.status === "CONFIRMING" || tookTheNonce(s));
    if (mined)
      throw new AppError(
        "INVALID_TRANSACTION_STATE",
        `transaction ${mined.id} of nonce ${original.nonce} is already mined (${mined.status})`,
        {
          details: { status: original.status, minedTransactionId: mined.id },
        },
      );
    const live = [original, ...siblings.filter(isLiveUnmined)].flatMap(feeCapsOf);
    const fees = replacementFeeCaps({ live, market, requested: input.requested });
    if (fees.maxFeePerGas > cap)
      throw new AppError(
        "CONFLICT",
        `the nonce needs maxFeePerGas ${fees.maxFeePerGas}, above the configured cap MAX_FEE_PER_GAS_CAP (${cap} Qwei)`,
        { details: { maxFeePerGas: fees.maxFeePerGas.toString(), maxFeePerGasCap: cap.toString() } },
      );
    const type = input.kind === "CANCELLATION" || isSelfSendType(original.type) ? "CANCELLATION" : "REPLACEMENT";
    return insertReleasedTransaction(tx, deps, {
      values: replacementValues(original, type, input.actor),
      asset: type === "CANCELLATION" ? null : (loaded.asset as TransferAsset | null),
      release: {
        nonce: original.nonce!,
        fees: { ...fees, gasLimit: type === "CANCELLATION" ? SELF_SEND_GAS : BigInt(original.gasLimit!) },
      },
      actor: input.actor,
      auditDetails: { replacesTransactionId: original.id, ...(input.reason ? { reason: input.reason } : {}) },
    });
  });
  return toTransactionRecord(created);
}

/** 409 unless `row` is an outbound transaction sent and not yet mined (BROADCASTING). */
function assertReplaceable(row: Pick<TransactionRow, "status" | "direction">, kind: ReplaceAtNonceInput["kind"]): void {
  if (row.direction === "OUTBOUND" && (REPLACEABLE_STATUSES as readonly string[]).includes(row.status)) return;
  const what = kind === "REPLACEMENT" ? "sped up" : "cancelled on chain";
  throw new AppError(
    "INVALID_TRANSACTION_STATE",
    row.direction === "INBOUND"
      ? `a deposit cannot be ${what}: it was received on chain, not sent by the service`
      : `a ${row.status} transaction cannot be ${what}; only ${REPLACEABLE_STATUSES.join(", ")} can`,
    { details: { status: row.status } },
  );
}

/** Holding the nonce with a chance to be mined: released, signed or sent, not yet mined. */
const isLiveUnmined = (row: TransactionRow) =>
  row.status !== "CONFIRMING" && (LIVE_SAME_NONCE_STATUSES as readonly string[]).includes(row.status);

function feeCapsOf(row: TransactionRow): FeeCaps[] {
  if (row.maxFeePerGas === null || row.maxPriorityFeePerGas === null) return [];
  return [{ maxFeePerGas: BigInt(row.maxFeePerGas), maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas) }];
}

/**
 * The intent of the new record: the original's (a REPLACEMENT) or zero value from the source to
 * itself (a CANCELLATION), with the original's checks' decision, its confirmations rule and the
 * caller as initiator. Never its externalId (unique per tenant: the original keeps it).
 */
function replacementValues(original: TransactionRow, type: "REPLACEMENT" | "CANCELLATION", actor: Actor): NewTransactionRow {
  const selfSend = type === "CANCELLATION";
  return {
    tenantId: original.tenantId,
    type,
    networkCode: original.networkCode,
    chainId: original.chainId,
    sourceWalletId: original.sourceWalletId,
    sourceAddress: original.sourceAddress,
    destinationAddress: selfSend ? original.sourceAddress : original.destinationAddress,
    assetId: selfSend ? null : original.assetId,
    amount: selfSend ? "0" : original.amount,
    templateId: selfSend ? null : original.templateId,
    constructorArgs: selfSend ? null : original.constructorArgs,
    note: original.note,
    policy: original.policy,
    screening: original.screening,
    checkedAt: original.checkedAt,
    destinationLabel: selfSend ? null : original.destinationLabel,
    requiredConfirmations: original.requiredConfirmations,
    replacesTransactionId: original.id,
    ...initiatedBy(actor),
  };
}
