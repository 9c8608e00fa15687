import { createAddressFromString } from "@ethereumjs/util";
import { createVM, type RunTxResult } from "@ethereumjs/vm";
import { bytesToHex, hexToBytes, type AccessList, type Address, type Hex } from "viem";
import type { ChainContext } from "./context";
import { executeTransaction, executionBlock, impersonatedTransaction } from "./execution";
import { describeSelector, UnknownBlockError, type BlockSelector } from "./index-store";

/** A call or estimate that failed in the EVM. `data` is the revert payload, if any. */
export class ExecutionFailure extends Error {
  readonly reverted: boolean;
  readonly data: Hex;
  constructor(message: string, reverted: boolean, data: Hex) {
    super(message);
    this.reverted = reverted;
    this.data = data;
  }
}

export type CallRequest = {
  from?: Address;
  to?: Address | null;
  data?: Hex;
  value?: bigint;
  gas?: bigint;
  accessList?: AccessList;
};

type Simulate = (gas: bigint) => Promise<RunTxResult>;

/** `eth_call`: executes without a signature, fees or nonce checks, then discards the state. */
export async function call(
  chain: ChainContext,
  request: CallRequest,
  selector: BlockSelector,
): Promise<{ returnData: Hex; gasUsed: bigint }> {
  return simulate(chain, request, selector, async (run) => {
    const result = await run(request.gas ?? chain.config.blockGasLimit);
    throwIfFailed(result);
    return { returnData: bytesToHex(result.execResult.returnValue), gasUsed: result.totalGasSpent };
  });
}

/** `eth_estimateGas`: the smallest gas limit with which the call succeeds (binary search). */
export async function estimateGas(chain: ChainContext, request: CallRequest, selector: BlockSelector): Promise<bigint> {
  return simulate(chain, request, selector, async (run, balance) => {
    const cap = request.gas ?? chain.config.blockGasLimit;
    if (request.from && request.value && request.value > balance) {
      throw new ExecutionFailure("insufficient funds for transfer", false, "0x");
    }
    const atCap = await run(cap);
    throwIfFailed(atCap);
    const succeeds = async (gas: bigint) => {
      try {
        const r = await run(gas);
        return !r.execResult.exceptionError;
      } catch {
        return false;
      }
    };
    // Refunds make gasUsed smaller than the limit some calls need, so check and search.
    if (await succeeds(atCap.totalGasSpent)) return atCap.totalGasSpent;
    let hi = cap;
    let lo = atCap.totalGasSpent;
    while (hi - lo > 1n) {
      const mid = (hi + lo) / 2n;
      if (await succeeds(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  });
}

/**
 * Gives `body` a function that executes the request with a given gas limit on the state of
 * `selector` (the head's live state, or a copy rewound to an older block) and reverts it.
 */
async function simulate<T>(
  chain: ChainContext,
  request: CallRequest,
  selector: BlockSelector,
  body: (run: Simulate, fromBalance: bigint) => Promise<T>,
): Promise<T> {
  const { config, common, index } = chain;
  return chain.lock.run(async () => {
    const block = index.getBlock(selector);
    if (!block) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
    const atHead = block.number === index.head().number;
    let vm = chain.vm;
    if (!atHead) {
      const next = index.atHeight(Number(block.number) + 1)!;
      const state = chain.state.shallowCopy();
      await state.setStateRoot(hexToBytes(next.preStateRoot));
      vm = await createVM({ common, stateManager: state, blockchain: chain.vm.blockchain });
    }
    const from = (request.from ?? "0x0000000000000000000000000000000000000000").toLowerCase() as Address;
    const account = await vm.stateManager.getAccount(createAddressFromString(from));
    const evmBlock = executionBlock(common, {
      number: atHead ? block.number + 1n : block.number,
      timestamp: atHead ? BigInt(Math.floor(chain.now() / 1000)) : block.timestamp,
      gasLimit: config.blockGasLimit,
      baseFeePerGas: 0n,
      coinbase: config.coinbase,
      parentHash: atHead ? block.hash : block.parentHash,
      mixHash: block.mixHash,
    });
    const run: Simulate = async (gas) => {
      await vm.stateManager.checkpoint();
      try {
        const tx = impersonatedTransaction(common, {
          from,
          nonce: account?.nonce ?? 0n,
          gas,
          maxFeePerGas: 0n,
          maxPriorityFeePerGas: 0n,
          to: request.to ?? null,
          value: request.value ?? 0n,
          data: request.data ?? "0x",
          accessList: request.accessList ?? [],
        });
        return await executeTransaction(vm, evmBlock, tx, 0n, { simulate: true });
      } finally {
        await vm.stateManager.revert();
      }
    };
    return body(run, account?.balance ?? 0n);
  });
}

function throwIfFailed(result: RunTxResult): void {
  const error = result.execResult.exceptionError;
  if (!error) return;
  const data = bytesToHex(result.execResult.returnValue);
  if (error.error === "revert") {
    throw new ExecutionFailure(`execution reverted${decodeRevertReason(data)}`, true, data);
  }
  throw new ExecutionFailure(`execution failed: ${error.error}`, false, data);
}

/** `Error(string)` payloads read as `: <reason>`, like geth (eth_call and eth_simulateV1). */
export function decodeRevertReason(data: Hex): string {
  if (!data.startsWith("0x08c379a0") || data.length < 138) return "";
  try {
    const length = Number(BigInt(`0x${data.slice(74, 138)}`));
    const text = Buffer.from(data.slice(138, 138 + length * 2), "hex").toString("utf8");
    return `: ${text}`;
  } catch {
    return "";
  }
}
