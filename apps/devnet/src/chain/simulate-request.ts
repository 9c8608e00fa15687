/**
 * The shapes of `eth_simulateV1` (execution-apis) as the devnet's simulator takes and answers
 * them (./simulate-blocks), its limits and its error codes; the RPC layer (../rpc/simulate.ts)
 * parses requests into these.
 */
import type { AccessList, Address, Hex } from "viem";
import type { DevnetBlock, DevnetLog } from "./types";

/** Most blocks one request may simulate, gaps included (the spec's suggested limit). */
export const MAX_SIMULATED_BLOCKS = 256;
/** Seconds between simulated blocks whose time is not given (the devnet's default block time). */
export const SIMULATED_BLOCK_TIME = 1n;

/** The `-380xx` codes of execution-apis `eth_simulateV1`, plus the two it borrows. */
export const SIMULATE_ERROR = {
  NONCE_TOO_LOW: -38010,
  NONCE_TOO_HIGH: -38011,
  BASE_FEE_TOO_LOW: -38012,
  INTRINSIC_GAS: -38013,
  INSUFFICIENT_FUNDS: -38014,
  BLOCK_GAS_LIMIT: -38015,
  BLOCK_NUMBER_ORDER: -38020,
  BLOCK_TIMESTAMP_ORDER: -38021,
  MOVE_PRECOMPILE_SELF: -38022,
  MOVE_PRECOMPILE_DUPLICATE: -38023,
  SENDER_NOT_EOA: -38024,
  INIT_CODE_TOO_LARGE: -38025,
  CLIENT_LIMIT: -38026,
  INVALID_PARAMS: -32602,
  INVALID_REQUEST: -32000,
  INTERNAL: -32603,
} as const;

/** A request-level failure: the whole `eth_simulateV1` answers this JSON-RPC error. */
export class SimulationError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type SimulatedCallRequest = {
  from?: Address;
  to?: Address | null;
  nonce?: bigint;
  gas?: bigint;
  value?: bigint;
  data?: Hex;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  accessList?: AccessList;
};

export type AccountOverride = {
  balance?: bigint;
  nonce?: bigint;
  code?: Hex;
  /** Replaces the whole storage. */
  state?: [slot: Hex, value: Hex][];
  /** Changes only these slots. */
  stateDiff?: [slot: Hex, value: Hex][];
  movePrecompileToAddress?: Address;
};

export type BlockOverrides = {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  feeRecipient?: Address;
  prevRandao?: Hex;
  baseFeePerGas?: bigint;
};

export type BlockStateCall = {
  blockOverrides?: BlockOverrides;
  /** In request order: later entries see earlier ones. */
  stateOverrides?: [Address, AccountOverride][];
  calls: SimulatedCallRequest[];
};

export type SimulateRequest = {
  blockStateCalls: BlockStateCall[];
  traceTransfers: boolean;
  validation: boolean;
};

export type SimulatedCallResult = {
  status: 0 | 1;
  returnData: Hex;
  gasUsed: bigint;
  /** Block-indexed logs (with the native-transfer logs when `traceTransfers` is on). */
  logs: DevnetLog[];
  error?: { code: number; message: string; data?: Hex };
};

export type SimulatedBlock = { block: DevnetBlock; calls: SimulatedCallResult[] };
