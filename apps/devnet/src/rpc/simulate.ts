import type { Hex } from "viem";
import type {
  AccountOverride,
  BlockOverrides,
  BlockStateCall,
  SimulatedBlock,
  SimulatedCallRequest,
  SimulateRequest,
} from "../chain/simulate-request";
import { invalidParams } from "./errors";
import { formatBlock, formatLog } from "./format";
import { accessList, address, data, hash32, optionalQuantity, quantity } from "./params";

export type SimulatePayload = SimulateRequest & { returnFullTransactions: boolean };

const object = (value: unknown, name: string): Record<string, unknown> => {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw invalidParams(`${name} must be an object`);
  return value as Record<string, unknown>;
};

const flag = (value: unknown, name: string): boolean => {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw invalidParams(`${name} must be a boolean`);
  return value;
};

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** The first parameter of `eth_simulateV1` (execution-apis `EthSimulatePayload`). */
export function simulatePayload(value: unknown): SimulatePayload {
  const v = object(value, "payload");
  if (!Array.isArray(v.blockStateCalls)) throw invalidParams("blockStateCalls must be an array");
  return {
    blockStateCalls: v.blockStateCalls.map((b, i) => blockStateCall(b, `blockStateCalls[${i}]`)),
    traceTransfers: flag(v.traceTransfers, "traceTransfers"),
    validation: flag(v.validation, "validation"),
    returnFullTransactions: flag(v.returnFullTransactions, "returnFullTransactions"),
  };
}

function blockStateCall(value: unknown, name: string): BlockStateCall {
  const v = object(value, name);
  const out: BlockStateCall = { calls: [] };
  if (present(v.blockOverrides)) out.blockOverrides = blockOverrides(v.blockOverrides, `${name}.blockOverrides`);
  if (present(v.stateOverrides)) {
    out.stateOverrides = Object.entries(object(v.stateOverrides, `${name}.stateOverrides`)).map(([key, override]) => [
      address(key, `${name}.stateOverrides key`),
      accountOverride(override, `${name}.stateOverrides[${key}]`),
    ]);
  }
  if (present(v.calls)) {
    if (!Array.isArray(v.calls)) throw invalidParams(`${name}.calls must be an array`);
    out.calls = v.calls.map((c, i) => simulatedCall(c, `${name}.calls[${i}]`));
  }
  return out;
}

function blockOverrides(value: unknown, name: string): BlockOverrides {
  const v = object(value, name);
  const out: BlockOverrides = {};
  const number = optionalQuantity(v.number, `${name}.number`);
  if (number !== undefined) out.number = number;
  const time = optionalQuantity(v.time, `${name}.time`);
  if (time !== undefined) out.time = time;
  const gasLimit = optionalQuantity(v.gasLimit, `${name}.gasLimit`);
  if (gasLimit !== undefined) out.gasLimit = gasLimit;
  const baseFeePerGas = optionalQuantity(v.baseFeePerGas, `${name}.baseFeePerGas`);
  if (baseFeePerGas !== undefined) out.baseFeePerGas = baseFeePerGas;
  if (present(v.feeRecipient)) out.feeRecipient = address(v.feeRecipient, `${name}.feeRecipient`);
  if (present(v.prevRandao)) out.prevRandao = hash32(v.prevRandao, `${name}.prevRandao`);
  // QUANTUM chains have neither blobs nor withdrawals: a zero blob fee or no withdrawals change nothing.
  if (present(v.withdrawals) && (!Array.isArray(v.withdrawals) || v.withdrawals.length > 0)) {
    throw invalidParams(`${name}.withdrawals: QUANTUM chains have no withdrawals`);
  }
  if (present(v.blobBaseFee)) optionalQuantity(v.blobBaseFee, `${name}.blobBaseFee`);
  return out;
}

function storage(value: unknown, name: string): [Hex, Hex][] {
  return Object.entries(object(value, name)).map(([slot, word]) => [hash32(slot, `${name} slot`), hash32(word, `${name}[${slot}]`)]);
}

function accountOverride(value: unknown, name: string): AccountOverride {
  const v = object(value, name);
  if (present(v.state) && present(v.stateDiff)) throw invalidParams(`${name}: state and stateDiff cannot both be set`);
  const out: AccountOverride = {};
  const balance = optionalQuantity(v.balance, `${name}.balance`);
  if (balance !== undefined) out.balance = balance;
  const nonce = optionalQuantity(v.nonce, `${name}.nonce`);
  if (nonce !== undefined) out.nonce = nonce;
  if (present(v.code)) out.code = data(v.code, `${name}.code`);
  if (present(v.state)) out.state = storage(v.state, `${name}.state`);
  if (present(v.stateDiff)) out.stateDiff = storage(v.stateDiff, `${name}.stateDiff`);
  if (present(v.movePrecompileToAddress))
    out.movePrecompileToAddress = address(v.movePrecompileToAddress, `${name}.movePrecompileToAddress`);
  return out;
}

/** execution-apis `GenericCallTransaction`; every field optional (the spec's defaults apply). */
function simulatedCall(value: unknown, name: string): SimulatedCallRequest {
  const v = object(value, name);
  const call: SimulatedCallRequest = {};
  if (present(v.from)) call.from = address(v.from, `${name}.from`);
  if (present(v.to)) call.to = address(v.to, `${name}.to`);
  if (present(v.input) && present(v.data) && v.input !== v.data) throw invalidParams(`${name}: input and data differ`);
  const input = v.input ?? v.data;
  if (present(input)) call.data = data(input, `${name}.input`);
  for (const key of ["nonce", "gas", "value", "maxFeePerGas", "maxPriorityFeePerGas"] as const) {
    const parsed = optionalQuantity(v[key], `${name}.${key}`);
    if (parsed !== undefined) call[key] = parsed;
  }
  const gasPrice = optionalQuantity(v.gasPrice, `${name}.gasPrice`);
  if (gasPrice !== undefined) {
    if (call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined) {
      throw invalidParams(`${name}: both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified`);
    }
    call.maxFeePerGas = gasPrice;
    call.maxPriorityFeePerGas = gasPrice;
  }
  if (Array.isArray(v.blobVersionedHashes) && v.blobVersionedHashes.length > 0) {
    throw invalidParams(`${name}: QUANTUM chains have no blob transactions`);
  }
  const list = accessList(v.accessList);
  if (list) call.accessList = list;
  if (present(v.type)) quantity(v.type, `${name}.type`);
  return call;
}

/** execution-apis `EthSimulateBlockResultSingleSuccess`: the block as `eth_getBlockByNumber` shows it, plus `calls`. */
export function formatSimulatedBlock({ block, calls }: SimulatedBlock, fullTransactions: boolean): Record<string, unknown> {
  return {
    ...formatBlock(block, fullTransactions),
    calls: calls.map((call, i) => {
      const tx = block.transactions[i]!;
      return {
        status: call.status === 1 ? "0x1" : "0x0",
        returnData: call.returnData,
        gasUsed: `0x${call.gasUsed.toString(16)}`,
        logs: call.logs.map((log) => formatLog({ ...log, block, tx })),
        ...(call.error ? { error: call.error } : {}),
      };
    }),
  };
}
