import { MLDSA87_DESCRIPTOR, QUANTUM_TX_TYPE_HEX } from "@qc/chain";
import { numberToHex, type Hex } from "viem";
import { EMPTY_UNCLES_HASH } from "../chain/block-header";
import type { MatchedLog } from "../chain/node";
import type { DevnetBlock, MinedTransaction, PoolTransaction } from "../chain/types";

const q = (value: bigint | number): Hex => numberToHex(value);

/**
 * A `0x51` transaction in Ethereum JSON-RPC shape, plus `publicKey`, `signature` and
 * `descriptor` in place of `v`/`r`/`s`. `gasPrice` is the effective price once mined,
 * the fee cap while pending.
 */
export function formatTransaction(entry: PoolTransaction, block?: DevnetBlock, index?: number): Record<string, unknown> {
  const mined = block && index !== undefined ? block.transactions[index] : undefined;
  const tx = entry.tx;
  return {
    hash: entry.hash,
    type: QUANTUM_TX_TYPE_HEX,
    chainId: q(tx.chainId),
    nonce: q(tx.nonce),
    from: entry.from,
    to: tx.to,
    value: q(tx.value),
    input: tx.data,
    gas: q(tx.gas),
    gasPrice: q(mined ? mined.receipt.effectiveGasPrice : tx.maxFeePerGas),
    maxFeePerGas: q(tx.maxFeePerGas),
    maxPriorityFeePerGas: q(tx.maxPriorityFeePerGas),
    accessList: tx.accessList,
    descriptor: MLDSA87_DESCRIPTOR,
    publicKey: tx.publicKey,
    signature: tx.signature,
    blockHash: block?.hash ?? null,
    blockNumber: block ? q(block.number) : null,
    blockTimestamp: block ? q(block.timestamp) : null,
    transactionIndex: index !== undefined ? q(index) : null,
  };
}

export function formatReceipt(tx: MinedTransaction, block: DevnetBlock): Record<string, unknown> {
  return {
    type: QUANTUM_TX_TYPE_HEX,
    transactionHash: tx.hash,
    transactionIndex: q(tx.index),
    blockHash: block.hash,
    blockNumber: q(block.number),
    from: tx.from,
    to: tx.tx.to,
    status: tx.receipt.status === 1 ? "0x1" : "0x0",
    gasUsed: q(tx.receipt.gasUsed),
    cumulativeGasUsed: q(tx.receipt.cumulativeGasUsed),
    effectiveGasPrice: q(tx.receipt.effectiveGasPrice),
    contractAddress: tx.receipt.contractAddress,
    logs: tx.receipt.logs.map((log) => formatLog({ ...log, block, tx })),
    logsBloom: tx.receipt.logsBloom,
  };
}

export function formatLog(log: MatchedLog): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: q(log.block.number),
    blockHash: log.block.hash,
    blockTimestamp: q(log.block.timestamp),
    transactionHash: log.tx.hash,
    transactionIndex: q(log.tx.index),
    logIndex: q(log.logIndex),
    removed: false,
  };
}

export function formatBlock(block: DevnetBlock, fullTransactions: boolean): Record<string, unknown> {
  return {
    number: q(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    nonce: "0x0000000000000000",
    sha3Uncles: EMPTY_UNCLES_HASH,
    logsBloom: block.logsBloom,
    transactionsRoot: block.transactionsRoot,
    stateRoot: block.stateRoot,
    receiptsRoot: block.receiptsRoot,
    miner: block.miner,
    difficulty: "0x0",
    totalDifficulty: "0x0",
    extraData: block.extraData,
    size: q(block.size),
    gasLimit: q(block.gasLimit),
    gasUsed: q(block.gasUsed),
    timestamp: q(block.timestamp),
    mixHash: block.mixHash,
    baseFeePerGas: q(block.baseFeePerGas),
    uncles: [],
    transactions: block.transactions.map((tx) => (fullTransactions ? formatTransaction(tx, block, tx.index) : tx.hash)),
  };
}
