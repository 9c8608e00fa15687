import type { Chain, Client, Hex, TransactionReceipt, Transport } from "viem";
import { getBlockNumber, getTransaction, getTransactionReceipt } from "viem/actions";
import { mapRpcError, type MappedRpcError } from "../errors/node";

export type GetQuantumTransactionStatusParameters = {
  hash: Hex;
  /**
   * The head to count confirmations against, when the caller already read it (a watcher looking
   * at many transactions for one new block): no `eth_blockNumber` of its own then.
   */
  head?: bigint;
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
 * The confirmations of a block at `head`: head − block + 1 (a transaction in the head block has
 * 1), 0 when the block is above the head. The one rule of the confirmation watcher and the
 * chain follower (docs/deposits.md).
 */
export function confirmationsAt(head: bigint | number, blockNumber: bigint | number): number {
  const h = BigInt(head);
  const b = BigInt(blockNumber);
  return h >= b ? Number(h - b + 1n) : 0;
}

/**
 * Where a transaction stands: `unknown` (the node has never seen it or dropped it),
 * `pending` (in the mempool), or mined with its receipt and confirmation count. A reorg
 * that removes its block makes it `pending` or `unknown` again.
 */
export async function getQuantumTransactionStatus(
  client: Client<Transport, Chain | undefined>,
  { hash, head: knownHead }: GetQuantumTransactionStatusParameters,
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
    const head = knownHead ?? (await getBlockNumber(client, { cacheTime: 0 }));
    const confirmations = confirmationsAt(head, receipt.blockNumber);
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
