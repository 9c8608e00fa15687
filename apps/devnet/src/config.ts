import type { Address } from "viem";

/** Chain parameters of a devnet. Everything here is recorded in the journal's genesis line. */
export type DevnetChainConfig = {
  chainId: number;
  blockGasLimit: bigint;
  /** Base fee of block 1 and the floor it never goes below (EIP-1559 otherwise). */
  minBaseFeePerGas: bigint;
  /** Receives priority fees (the base fee is burnt, as on Ethereum). */
  coinbase: Address;
};

export const DEFAULT_BLOCK_GAS_LIMIT = 30_000_000n;
export const DEFAULT_MIN_BASE_FEE = 1_000_000_000n; // 1 gwei-equivalent (1e9 Qwei)
export const DEFAULT_COINBASE: Address = "0x000000000000000000000000000000000000c0de";
/** `eth_maxPriorityFeePerGas` answer; the pool itself accepts any tip ≥ 0. */
export const SUGGESTED_PRIORITY_FEE = 1_000_000_000n;
/** A future nonce may run this far ahead of the account's next nonce. */
export const MAX_NONCE_GAP = 64;
export const MAX_POOL_SIZE = 20_000;
/** A replacement (same sender and nonce) must raise both fees by this percentage. */
export const REPLACEMENT_BUMP_PERCENT = 10n;
/** Raw transactions above this size are refused before parsing. */
export const MAX_RAW_TX_BYTES = 128 * 1024;
export const MAX_LOG_BLOCK_RANGE = 10_000n;
