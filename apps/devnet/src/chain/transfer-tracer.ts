import type { EVMInterface, InterpreterStep, Message, EVMResult } from "@ethereumjs/evm";
import type { Address as EthjsAddress } from "@ethereumjs/util";
import { numberToHex, padHex, type Address, type Hex } from "viem";

/** Emitter of the native-transfer logs `eth_simulateV1` adds with `traceTransfers` (ERC-7528). */
export const NATIVE_TRANSFER_LOG_ADDRESS: Address = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
/** keccak256("Transfer(address,address,uint256)"), the ERC-20 event the logs imitate. */
export const TRANSFER_TOPIC: Hex = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

export type TracedLog = { address: Address; topics: Hex[]; data: Hex };

/** A frame's output in execution order: a native transfer, or the place of one EVM `LOGn`. */
type Entry = { transfer: TracedLog } | { evmLog: true };
type Frame = { entries: Entry[]; pendingCreate?: { from: Address; value: bigint } };

const topicOf = (address: Address | EthjsAddress): Hex => padHex(address.toString().toLowerCase() as Hex, { size: 32 });

function transferLog(from: Address | EthjsAddress, to: Address | EthjsAddress, value: bigint): TracedLog {
  return {
    address: NATIVE_TRANSFER_LOG_ADDRESS,
    topics: [TRANSFER_TOPIC, topicOf(from), topicOf(to)],
    data: numberToHex(value, { size: 32 }),
  };
}

/**
 * Follows one EVM's message frames to produce, for each transaction, its native value transfers
 * (top-level value, internal CALLs with value, CREATE endowments, SELFDESTRUCT payouts) as
 * `Transfer` logs from `0xeeee…eeee`, interleaved with the transaction's own logs in execution
 * order. A frame that fails takes its transfers with it, as it takes its logs. DELEGATECALL and
 * CALLCODE move no value between accounts and give no log.
 */
export class TransferTracer {
  private stack: Frame[] = [];
  private root: Entry[] = [];

  constructor(private readonly evm: EVMInterface) {
    evm.events?.on("beforeMessage", (message: Message) => this.enter(message));
    evm.events?.on("afterMessage", (result: EVMResult) => this.exit(result));
    evm.events?.on("step", (step: InterpreterStep) => this.step(step));
  }

  /** Starts a new transaction. */
  reset(): void {
    this.stack = [];
    this.root = [];
  }

  /**
   * The transaction's logs with its transfers in place: `evmLogs` are the logs the EVM kept (in
   * order); each surviving `LOGn` seen while tracing takes the next one.
   */
  merge(evmLogs: TracedLog[]): TracedLog[] {
    const out: TracedLog[] = [];
    let next = 0;
    for (const entry of this.root) {
      if ("transfer" in entry) out.push(entry.transfer);
      else if (next < evmLogs.length) out.push(evmLogs[next++]!);
    }
    // Logs the trace did not see (never expected) still appear, after the transfers.
    while (next < evmLogs.length) out.push(evmLogs[next++]!);
    return out;
  }

  private enter(message: Message): void {
    const frame: Frame = { entries: [] };
    const value = message.value ?? 0n;
    if (value > 0n && !message.delegatecall) {
      const from = message.caller.toString() as Address;
      if (!message.to) frame.pendingCreate = { from, value };
      else if (message.to.toString() !== from) frame.entries.push({ transfer: transferLog(from, message.to, value) });
    }
    this.stack.push(frame);
  }

  private exit(result: EVMResult): void {
    const frame = this.stack.pop();
    if (!frame || result.execResult.exceptionError) return;
    if (frame.pendingCreate && result.createdAddress) {
      frame.entries.unshift({ transfer: transferLog(frame.pendingCreate.from, result.createdAddress, frame.pendingCreate.value) });
    }
    const parent = this.stack.at(-1);
    (parent ? parent.entries : this.root).push(...frame.entries);
  }

  private step(step: InterpreterStep): void {
    const frame = this.stack.at(-1);
    if (!frame) return;
    const name = step.opcode.name;
    if (name.startsWith("LOG")) {
      frame.entries.push({ evmLog: true });
    } else if (name === "SELFDESTRUCT") {
      const beneficiary = step.stack.at(-1);
      const balance = step.account.balance;
      if (beneficiary !== undefined && balance > 0n) {
        const to = numberToHex(beneficiary, { size: 20 });
        if (to !== step.address.toString()) frame.entries.push({ transfer: transferLog(step.address, to, balance) });
      }
    }
  }
}
