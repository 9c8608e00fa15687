import {
  decodeErrorResult,
  hexToBigInt,
  numberToHex,
  type Address,
  type BlockTag,
  type Client,
  type Hex,
  type Transport,
  type Chain,
} from "viem";
import { BaseError, walkCauses } from "../errors/base";

/** Emitter of the native-transfer logs `traceTransfers` adds (ERC-7528). */
export const NATIVE_TRANSFER_LOG_ADDRESS: Address = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
/** keccak256("Transfer(address,address,uint256)"): ERC-20 transfers and the native-transfer logs. */
export const TRANSFER_EVENT_TOPIC: Hex = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** The `-380xx` (and borrowed) codes `eth_simulateV1` answers when the request itself is refused. */
export const SIMULATION_REJECTION_CODES = {
  [-38010]: "NONCE_TOO_LOW",
  [-38011]: "NONCE_TOO_HIGH",
  [-38012]: "BASE_FEE_TOO_LOW",
  [-38013]: "INTRINSIC_GAS_TOO_LOW",
  [-38014]: "INSUFFICIENT_FUNDS",
  [-38015]: "BLOCK_GAS_LIMIT_EXCEEDED",
  [-38020]: "BLOCK_NUMBER_ORDER",
  [-38021]: "BLOCK_TIMESTAMP_ORDER",
  [-38022]: "MOVE_PRECOMPILE_SELF",
  [-38023]: "MOVE_PRECOMPILE_DUPLICATE",
  [-38024]: "SENDER_NOT_EOA",
  [-38025]: "INIT_CODE_TOO_LARGE",
  [-38026]: "CLIENT_LIMIT_EXCEEDED",
} as const satisfies Record<number, string>;

export type SimulationRejectionReason = (typeof SIMULATION_REJECTION_CODES)[keyof typeof SIMULATION_REJECTION_CODES];

export type SimulationUnsupportedErrorType = SimulationUnsupportedError & { name: "SimulationUnsupportedError" };
/** The node does not implement `eth_simulateV1` (it answered -32601 "method not found"). */
export class SimulationUnsupportedError extends BaseError {
  readonly code = -32601;
  constructor(args: { cause?: unknown; details?: string | undefined } = {}) {
    super("The node does not support eth_simulateV1.", { ...args, name: "SimulationUnsupportedError" });
  }
}

export type SimulationRejectedErrorType = SimulationRejectedError & { name: "SimulationRejectedError" };
/** The node refused the simulation as a whole: a rule a real block enforces (`-380xx`), or bad parameters. */
export class SimulationRejectedError extends BaseError {
  readonly code: number;
  /** The spec's name for `code`, or `null` for a code outside the `-380xx` list. */
  readonly reason: SimulationRejectionReason | null;
  constructor(args: { code: number; message: string; cause?: unknown }) {
    const reason = (SIMULATION_REJECTION_CODES as Record<number, SimulationRejectionReason>)[args.code] ?? null;
    super(`The node refused the simulation (${reason ?? args.code}): ${args.message}`, {
      cause: args.cause,
      details: args.message,
      name: "SimulationRejectedError",
    });
    this.code = args.code;
    this.reason = reason;
  }
}

export type SimulateCallsCall = {
  from?: Address | undefined;
  /** `null` or absent: a contract creation. */
  to?: Address | null | undefined;
  value?: bigint | undefined;
  data?: Hex | undefined;
  gas?: bigint | undefined;
  maxFeePerGas?: bigint | undefined;
  maxPriorityFeePerGas?: bigint | undefined;
  nonce?: number | undefined;
};

export type SimulateCallsParameters = {
  /** Executed in order in one simulated block on top of `blockTag` (default `latest`) or `blockNumber`. */
  calls: readonly SimulateCallsCall[];
  blockTag?: BlockTag | undefined;
  blockNumber?: bigint | undefined;
  /** Native value transfers as `Transfer` logs from `0xeeee…eeee`. Default false. */
  traceTransfers?: boolean | undefined;
  /** Nonce, fee and balance rules of a real block (`-380xx` errors). Default false. */
  validation?: boolean | undefined;
};

export type SimulatedLog = { address: Address; topics: Hex[]; data: Hex; logIndex: number };

/** A `Transfer(address,address,uint256)` log read as a movement of value; `asset` is the token or `"native"`. */
export type SimulatedTransfer = { asset: Address | "native"; from: Address; to: Address; value: bigint };

export type SimulatedCall = {
  status: "success" | "reverted" | "failed";
  gasUsed: bigint;
  returnData: Hex;
  logs: SimulatedLog[];
  /** Native (`0xeeee…` logs) and ERC-20 transfers among `logs`, in order. */
  transfers: SimulatedTransfer[];
  /** `Error(string)` text or a `Panic(uint256)` description; `null` when the revert carries neither. */
  revertReason: string | null;
  /** The node's error for a failed call: 3 with the revert data, or -32015 with the EVM's reason. */
  error: { code: number; message: string; data?: Hex } | null;
};

export type SimulateCallsReturnType = {
  blockNumber: bigint;
  blockHash: Hex;
  timestamp: bigint;
  /** The simulated block's base fee: a call paid `gasUsed × min(maxFeePerGas, baseFee + maxPriorityFeePerGas)`. */
  baseFeePerGas: bigint;
  calls: SimulatedCall[];
};

export type SimulateCallsErrorType = SimulationUnsupportedErrorType | SimulationRejectedErrorType | Error;

type RpcLog = { address: Address; topics: Hex[]; data: Hex; logIndex: Hex };
type RpcCallResult = {
  status: Hex;
  returnData: Hex;
  gasUsed: Hex;
  logs?: RpcLog[];
  error?: { code: number; message: string; data?: Hex };
};
type RpcSimulatedBlock = { number: Hex; hash: Hex; timestamp: Hex; baseFeePerGas?: Hex; calls: RpcCallResult[] };

/** Solidity's `Panic(uint256)` codes (Solidity docs, "Panic via assert and Error via require"). */
const PANIC_REASONS: Record<number, string> = {
  0x01: "assertion failed",
  0x11: "arithmetic underflow or overflow",
  0x12: "division or modulo by zero",
  0x21: "invalid enum value",
  0x22: "invalid storage byte array encoding",
  0x31: "pop on an empty array",
  0x32: "array index out of bounds",
  0x41: "too much memory allocated",
  0x51: "call to a zero-initialized internal function",
};

const quantity = (value: bigint | number | undefined) => (value === undefined ? undefined : numberToHex(value));

/**
 * Simulates `calls` with `eth_simulateV1` (execution-apis) in one block, through the client's
 * transport, and reads each call's outcome: status, gas, logs, the transfers they record and the
 * revert reason. Throws `SimulationUnsupportedError` when the node lacks the method and
 * `SimulationRejectedError` when it refuses the request (e.g. `-38014` insufficient funds).
 */
export async function simulateCalls<chain extends Chain | undefined>(
  client: Client<Transport, chain>,
  parameters: SimulateCallsParameters,
): Promise<SimulateCallsReturnType> {
  const { calls, blockNumber, blockTag = "latest", traceTransfers = false, validation = false } = parameters;
  const payload = {
    blockStateCalls: [
      {
        calls: calls.map((call) =>
          Object.fromEntries(
            Object.entries({
              from: call.from,
              to: call.to ?? undefined,
              value: quantity(call.value),
              input: call.data,
              gas: quantity(call.gas),
              maxFeePerGas: quantity(call.maxFeePerGas),
              maxPriorityFeePerGas: quantity(call.maxPriorityFeePerGas),
              nonce: quantity(call.nonce),
            }).filter(([, v]) => v !== undefined),
          ),
        ),
      },
    ],
    traceTransfers,
    validation,
  };
  let blocks: RpcSimulatedBlock[];
  try {
    blocks = (await client.request({
      method: "eth_simulateV1",
      params: [payload, blockNumber === undefined ? blockTag : numberToHex(blockNumber)],
    } as never)) as RpcSimulatedBlock[];
  } catch (error) {
    throw simulationError(error);
  }
  const block = blocks[0];
  if (!block) throw new SimulationRejectedError({ code: -32603, message: "the node returned no simulated block" });
  return {
    blockNumber: hexToBigInt(block.number),
    blockHash: block.hash,
    timestamp: hexToBigInt(block.timestamp),
    baseFeePerGas: block.baseFeePerGas === undefined ? 0n : hexToBigInt(block.baseFeePerGas),
    calls: block.calls.map(readCallResult),
  };
}

function readCallResult(call: RpcCallResult): SimulatedCall {
  const logs = (call.logs ?? []).map((log) => ({
    address: log.address.toLowerCase() as Address,
    topics: log.topics,
    data: log.data,
    logIndex: Number(hexToBigInt(log.logIndex)),
  }));
  const success = call.status === "0x1";
  const reverted = !success && call.error?.code === 3;
  return {
    status: success ? "success" : reverted ? "reverted" : "failed",
    gasUsed: hexToBigInt(call.gasUsed),
    returnData: call.returnData,
    logs,
    transfers: logs.flatMap((log) => transferOf(log) ?? []),
    revertReason: reverted ? decodeRevertReason(call.error?.data ?? call.returnData) : null,
    error: call.error ?? null,
  };
}

/** A `Transfer` log with two indexed addresses and a uint256 value (ERC-20 or `0xeeee…`); else `undefined`. */
export function transferOf(log: Pick<SimulatedLog, "address" | "topics" | "data">): SimulatedTransfer | undefined {
  const [topic, from, to] = log.topics;
  if (topic?.toLowerCase() !== TRANSFER_EVENT_TOPIC || !from || !to || log.topics.length !== 3 || log.data.length !== 66) return undefined;
  const address = log.address.toLowerCase() as Address;
  return {
    asset: address === NATIVE_TRANSFER_LOG_ADDRESS ? "native" : address,
    from: `0x${from.slice(-40).toLowerCase()}` as Address,
    to: `0x${to.slice(-40).toLowerCase()}` as Address,
    value: hexToBigInt(log.data),
  };
}

/** `Error(string)` → its text; `Panic(uint256)` → `panic 0x11: <meaning>`; anything else → `null`. */
export function decodeRevertReason(data: Hex | undefined): string | null {
  if (!data || data.length < 10) return null;
  try {
    const decoded = decodeErrorResult({ data });
    if (decoded.errorName === "Error") return String(decoded.args?.[0] ?? "");
    if (decoded.errorName === "Panic") {
      const code = Number(decoded.args?.[0] ?? 0n);
      const meaning = PANIC_REASONS[code];
      return `panic 0x${code.toString(16)}${meaning ? `: ${meaning}` : ""}`;
    }
  } catch {
    // A custom error or malformed data: the caller still has `error.data`.
  }
  return null;
}

function simulationError(error: unknown): Error {
  let code: number | undefined;
  let message = (error as Error)?.message ?? String(error);
  walkCauses(error, (cause) => {
    const c = (cause as { code?: unknown }).code;
    if (code === undefined && typeof c === "number") {
      code = c;
      message = (cause as { details?: string }).details ?? (cause as Error).message ?? message;
    }
    return false;
  });
  if (code === -32601) return new SimulationUnsupportedError({ cause: error, details: message });
  if (code !== undefined && ((code <= -38000 && code > -39000) || code === -32602)) {
    return new SimulationRejectedError({ code, message, cause: error });
  }
  return error as Error;
}
