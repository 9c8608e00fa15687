import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { TransactionRecord } from "../records/record-schemas";
import { cancelTransaction } from "./cancel-transaction";
import { replaceAtNonce } from "./replace-at-nonce";

export interface CancelOutcome {
  transaction: TransactionRecord;
  /** True when a CANCELLATION record was created (201): the transaction was already sent. */
  onChain: boolean;
}

/**
 * `POST /v1/transactions/{id}/cancel`, whatever the status: before signing, the transaction is
 * cancelled at once (`cancelTransaction`, 200 with it CANCELLED/CANCELLED_BY_USER); once
 * BROADCASTING, it is cancelled on chain (CONTRACT §17): a CANCELLATION record — zero value from
 * the source to itself at the same nonce, fee caps bumped as for a speed-up — released for the
 * signer (201, the new record). The original then ends CANCELLED/CANCELLED_ON_CHAIN if the
 * cancellation is mined, or completes if it is mined first (the cancellation ends FAILED/REPLACED).
 * Any other status keeps cancelTransaction's 409 INVALID_TRANSACTION_STATE.
 */
export async function cancelTransactionOrOnChain(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain">,
  input: { tenantId: string; transactionId: string; reason?: string | undefined; actor: Actor },
): Promise<CancelOutcome> {
  try {
    return { transaction: await cancelTransaction(deps, input), onChain: false };
  } catch (error) {
    if (!(error instanceof AppError && error.error === "INVALID_TRANSACTION_STATE" && error.details?.status === "BROADCASTING"))
      throw error;
  }
  const transaction = await replaceAtNonce(deps, { ...input, kind: "CANCELLATION", requested: {} });
  return { transaction, onChain: true };
}
