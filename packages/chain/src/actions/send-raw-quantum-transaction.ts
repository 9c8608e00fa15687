import type { Chain, Client, Hex, Transport } from "viem";
import { sendRawTransaction } from "viem/actions";
import { mapRpcError, type MappedRpcError } from "../errors/node";
import type { InvalidSerializedTransactionErrorType, TransactionHashMismatchErrorType } from "../errors/transaction";
import { isSignedQuantumTransaction, parseQuantumTransaction } from "../protocol/transaction";
import { InvalidSerializedTransactionError, TransactionHashMismatchError } from "../errors/transaction";

export type SendRawQuantumTransactionParameters = {
  serializedTransaction: Hex;
  /**
   * The hash the caller holds for these bytes (e.g. stored with them): when given, bytes that do
   * not hash to it are never sent (`TransactionHashMismatchError`). Checked on the hash the parse
   * computes anyway, so the caller need not hash the raw transaction a second time.
   */
  hash?: Hex;
};

export type SendRawQuantumTransactionReturnType = {
  /** keccak256 of the raw transaction: the hash the chain uses everywhere. */
  hash: Hex;
};

export type SendRawQuantumTransactionErrorType = InvalidSerializedTransactionErrorType | TransactionHashMismatchErrorType | MappedRpcError;

/**
 * Broadcasts a signed `0x51` transaction. The raw bytes are parsed first (so garbage never
 * reaches the node), checked against the caller's `hash` when given, and the node's hash is
 * checked against keccak256(raw).
 */
export async function sendRawQuantumTransaction(
  client: Client<Transport, Chain | undefined>,
  { serializedTransaction, hash: expected }: SendRawQuantumTransactionParameters,
): Promise<SendRawQuantumTransactionReturnType> {
  const parsed = parseQuantumTransaction(serializedTransaction);
  if (!isSignedQuantumTransaction(parsed)) throw new InvalidSerializedTransactionError({ reason: "transaction is not signed" });
  if (expected !== undefined && expected.toLowerCase() !== parsed.hash)
    throw new TransactionHashMismatchError({ expected, actual: parsed.hash });
  let hash: Hex;
  try {
    hash = await sendRawTransaction(client, { serializedTransaction });
  } catch (error) {
    throw mapRpcError(error);
  }
  if (hash.toLowerCase() !== parsed.hash) {
    throw new InvalidSerializedTransactionError({ reason: `node answered hash ${hash}, expected ${parsed.hash}` });
  }
  return { hash: parsed.hash };
}
