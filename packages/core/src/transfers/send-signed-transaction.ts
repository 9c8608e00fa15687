import {
  BaseError,
  FeeTooLowError,
  getQuantumTransactionStatus,
  InsufficientFundsError,
  InvalidSerializedTransactionError,
  InvalidTransactionSignatureError,
  NonceTooHighError,
  NonceTooLowError,
  RpcUnavailableError,
  sendRawQuantumTransaction,
  TransactionHashMismatchError,
  TransactionRejectedError,
  WrongChainIdError,
  type QuantumPublicClient,
} from "@qc/chain";
import type { TransactionRow } from "@qc/db/queries";
import { chainUnavailable } from "../balances/chain-errors";
import type { TransactionSubStatus } from "./transaction-status";

export type FailureSubStatus = Extract<
  TransactionSubStatus,
  "SIGNATURE_MISMATCH" | "INSUFFICIENT_FUNDS" | "DROPPED_BY_CHAIN" | "INTERNAL_ERROR"
>;

export type SendOutcome =
  /** The node has it: accepted now, or already known / already mined under this very hash. */
  | { kind: "sent" }
  /** Refused for now (fee below the base fee, pool full, nonce ahead of the account): try again later. */
  | { kind: "refused"; reason: string }
  /** It can never be mined: the transaction fails with this subStatus. */
  | { kind: "final"; subStatus: FailureSubStatus; reason: string };

const shortMessage = (error: unknown) => (error instanceof BaseError ? error.details || error.shortMessage : String(error));

/**
 * Sends the stored raw transaction (`eth_sendRawTransaction`) and says what the node's answer
 * means for the transaction. Sending the same bytes again is harmless by construction (one
 * encoding, one hash): "already known", or "nonce too low" while the chain holds this very hash,
 * count as sent, which is what makes re-sending the way to recover from a crash or a drop.
 * A node that cannot be reached (network, timeout, 5xx) throws 503 UNAVAILABLE for the caller's
 * retry; "nonce too low" for another transaction, insufficient funds or an invalid transaction
 * are final.
 */
export async function sendSignedTransaction(
  client: QuantumPublicClient,
  row: Pick<TransactionRow, "networkCode" | "nonce" | "rawTransaction" | "chainTxHash">,
): Promise<SendOutcome> {
  if (!row.rawTransaction || !row.chainTxHash)
    return { kind: "final", subStatus: "INTERNAL_ERROR", reason: "no raw transaction was stored before the send" };
  try {
    // Bytes that do not hash to the stored hash are never sent (checked on the hash the send's
    // parse computes: the raw transaction is hashed once here, not twice).
    await sendRawQuantumTransaction(client, {
      serializedTransaction: row.rawTransaction as `0x${string}`,
      hash: row.chainTxHash as `0x${string}`,
    });
    return { kind: "sent" };
  } catch (error) {
    if (error instanceof TransactionHashMismatchError)
      return {
        kind: "final",
        subStatus: "SIGNATURE_MISMATCH",
        reason: "the stored raw transaction does not hash to the stored transaction hash",
      };
    if (error instanceof NonceTooLowError) {
      // Mined already (our earlier send got through) or someone else used the nonce: ask the chain.
      const known = await statusOf(client, row);
      if (known !== "unknown") return { kind: "sent" };
      return {
        kind: "final",
        subStatus: "DROPPED_BY_CHAIN",
        reason: `nonce ${row.nonce} was used by another transaction of the source address`,
      };
    }
    if (/already known|known transaction/i.test(shortMessage(error))) return { kind: "sent" };
    if (error instanceof InsufficientFundsError) {
      return { kind: "final", subStatus: "INSUFFICIENT_FUNDS", reason: "the source address cannot pay the amount plus gas × maxFeePerGas" };
    }
    if (error instanceof InvalidTransactionSignatureError)
      return { kind: "final", subStatus: "SIGNATURE_MISMATCH", reason: "the node refused the signature" };
    if (error instanceof WrongChainIdError) return { kind: "final", subStatus: "INTERNAL_ERROR", reason: "the node is on another chain" };
    if (error instanceof InvalidSerializedTransactionError)
      return { kind: "final", subStatus: "INTERNAL_ERROR", reason: error.shortMessage };
    if (error instanceof FeeTooLowError || error instanceof NonceTooHighError) return { kind: "refused", reason: shortMessage(error) };
    if (error instanceof TransactionRejectedError) {
      if (error.reason === "TXPOOL_FULL") return { kind: "refused", reason: shortMessage(error) };
      return { kind: "final", subStatus: "INTERNAL_ERROR", reason: `the node refused the transaction: ${shortMessage(error)}` };
    }
    // Transport failures, timeouts, 5xx and anything unclassified: the send is retried.
    throw chainUnavailable(row.networkCode, error instanceof BaseError ? error : new RpcUnavailableError({ cause: error }));
  }
}

async function statusOf(client: QuantumPublicClient, row: Pick<TransactionRow, "networkCode" | "chainTxHash">) {
  try {
    return (await getQuantumTransactionStatus(client, { hash: row.chainTxHash as `0x${string}` })).status;
  } catch (error) {
    throw chainUnavailable(row.networkCode, error);
  }
}
