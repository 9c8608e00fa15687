import type { Chain, Client, Hex, TransactionReceipt, Transport } from "viem";
import { getBlockNumber, getTransaction, getTransactionReceipt } from "viem/actions";
import { mapRpcError, type MappedRpcError } from "../errors/node";

export type GetQuantumTransactionStatusParameters = {
  hash: Hex;
};

export type GetQuantumTransactionStatusReturnType =
  | { status: "unknown"; confirmations: 0 }
  | { status: "pending"; confirmations: 0 }
  | {
      status: "success" | "reverted";
      receipt: TransactionReceipt;
      blockNumber: bigint;
      blockHash: Hex;
      /** head − blockNumber + 1: a transaction in the head block has 1 confirmation. */
      confirmations: number;
    };

export type GetQuantumTransactionStatusErrorType = MappedRpcError;

/**
 * Where a transaction stands: `unknown` (the node has never seen it or dropped it),
 * `pending` (in the mempool), or mined with its receipt and confirmation count. A reorg
 * that removes its block makes it `pending` or `unknown` again.
 */
export async function getQuantumTransactionStatus(
  client: Client<Transport, Chain | undefined>,
  { hash }: GetQuantumTransactionStatusParameters,
): Promise<GetQuantumTransactionStatusReturnType> {
  try {
    const receipt = await getTransactionReceipt(client, { hash }).catch((error: unknown) => {
      if ((error as { name?: string }).name === "TransactionReceiptNotFoundError") return null;
      throw error;
    });
    if (!receipt) {
      const tx = await getTransaction(client, { hash }).catch((error: unknown) => {
        if ((error as { name?: string }).name === "TransactionNotFoundError") return null;
        throw error;
      });
      return tx ? { status: "pending", confirmations: 0 } : { status: "unknown", confirmations: 0 };
    }
    const head = await getBlockNumber(client, { cacheTime: 0 });
    const confirmations = head >= receipt.blockNumber ? Number(head - receipt.blockNumber + 1n) : 0;
    return {
      status: receipt.status === "success" ? "success" : "reverted",
      receipt,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      confirmations,
    };
  } catch (error) {
    throw mapRpcError(error);
  }
}
