import type { QuantumTransactionSigned } from "@qc/chain";
import type { Address, Hex } from "viem";

export type DevnetLog = {
  address: Address;
  topics: Hex[];
  data: Hex;
  /** Index of the log in its block. */
  logIndex: number;
};

export type DevnetReceipt = {
  status: 0 | 1;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  /** baseFee + min(tip, maxFee − baseFee): what the sender paid per gas. */
  effectiveGasPrice: bigint;
  contractAddress: Address | null;
  logs: DevnetLog[];
  logsBloom: Hex;
};

/** A signed `0x51` transaction the node accepted, keyed everywhere by `hash` = keccak256(raw). */
export type PoolTransaction = {
  hash: Hex;
  raw: Hex;
  tx: QuantumTransactionSigned;
  from: Address;
  /** Admission order, for stable ordering among equal tips. */
  seq: number;
};

export type MinedTransaction = PoolTransaction & {
  index: number;
  receipt: DevnetReceipt;
};

export type DevnetBlock = {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timestamp: bigint;
  /** State after this block's transactions (the header's stateRoot). */
  stateRoot: Hex;
  /** State this block was built on: the parent's state plus any devnet_fund since. */
  preStateRoot: Hex;
  transactionsRoot: Hex;
  receiptsRoot: Hex;
  logsBloom: Hex;
  gasUsed: bigint;
  gasLimit: bigint;
  baseFeePerGas: bigint;
  /**
   * The base fee EIP-1559 gave this block when a `baseFee` fault set another one (absent
   * otherwise): the next block's base fee follows from it, so clearing the fault ends the spike.
   */
  marketBaseFeePerGas?: bigint;
  miner: Address;
  mixHash: Hex;
  extraData: Hex;
  size: bigint;
  transactions: MinedTransaction[];
};
