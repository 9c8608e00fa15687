import type { Hex } from "viem";

/**
 * Failure injection for tests (`devnet_setFault`). Faults never apply to `devnet_*` methods,
 * so a test can always inspect and clear them.
 *
 * - `dropNextTx` `{count?: 1}`: the next accepted transaction(s) get their hash back but are
 *   silently discarded: never pooled, never mined, unknown to `eth_getTransactionByHash`.
 * - `rpcError` `{count?, code?: -32603, message?}`: the next `count` calls (each call of a
 *   batch counts) answer a JSON-RPC error; without `count`, every call until cleared.
 * - `stall` `{ms?}`: for `ms` (or until cleared) interval block production stops and every
 *   non-devnet request is held unanswered; held requests complete when the stall ends.
 * - `baseFee` `{baseFeePerGas}` (a hex quantity): until cleared, every block is produced with this
 *   base fee (what `eth_getBlockByNumber`, `eth_feeHistory` and `eth_gasPrice` show), so a
 *   transaction whose `maxFeePerGas` is below it waits in the pool while blocks keep coming. The
 *   pool still admits what the chain's own EIP-1559 base fee allows (the spike is the market's,
 *   not the node's), and once cleared that base fee applies again at once.
 * - `none` (or `devnet_clearFaults`): clears everything and releases held requests.
 */
export type FaultSpec =
  | { kind: "dropNextTx"; count?: number }
  | { kind: "rpcError"; count?: number; code?: number; message?: string }
  | { kind: "stall"; ms?: number }
  | { kind: "baseFee"; baseFeePerGas: Hex }
  | { kind: "none" };

export type ActiveFaults = {
  dropNextTx?: { remaining: number };
  rpcError?: { remaining: number | null; code: number; message: string };
  stall?: { until: number | null };
  /** Kept as the hex quantity it was set with, so `devnet_status` can answer it as JSON. */
  baseFee?: { baseFeePerGas: Hex };
};

export class FaultInjector {
  private state: ActiveFaults = {};
  private stallWaiters: (() => void)[] = [];
  private stallTimer: NodeJS.Timeout | undefined;

  set(spec: FaultSpec): ActiveFaults {
    switch (spec.kind) {
      case "none":
        this.clear();
        break;
      case "dropNextTx":
        this.state.dropNextTx = { remaining: positiveInt(spec.count, 1) };
        break;
      case "rpcError":
        this.state.rpcError = {
          remaining: spec.count === undefined ? null : positiveInt(spec.count, 1),
          code: Number.isInteger(spec.code) ? (spec.code as number) : -32603,
          message: typeof spec.message === "string" ? spec.message : "internal error (injected by devnet_setFault)",
        };
        break;
      case "stall": {
        const ms = spec.ms === undefined ? null : Math.max(0, Number(spec.ms));
        this.state.stall = { until: ms === null ? null : Date.now() + ms };
        clearTimeout(this.stallTimer);
        if (ms !== null) this.stallTimer = setTimeout(() => this.endStall(), ms);
        break;
      }
      case "baseFee":
        this.state.baseFee = { baseFeePerGas: `0x${BigInt(spec.baseFeePerGas).toString(16)}` };
        break;
      default:
        throw new TypeError(`unknown fault kind ${JSON.stringify((spec as { kind: unknown }).kind)}`);
    }
    return this.active();
  }

  clear(): void {
    this.state = {};
    this.endStall();
  }

  active(): ActiveFaults {
    return structuredClone(this.state);
  }

  /** Consumes one `dropNextTx`; true when this accepted transaction must be discarded. */
  consumeDrop(): boolean {
    const fault = this.state.dropNextTx;
    if (!fault) return false;
    fault.remaining -= 1;
    if (fault.remaining <= 0) delete this.state.dropNextTx;
    return true;
  }

  /** Consumes one `rpcError`; the error to answer, if any. */
  consumeRpcError(): { code: number; message: string } | undefined {
    const fault = this.state.rpcError;
    if (!fault) return undefined;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) delete this.state.rpcError;
    }
    return { code: fault.code, message: fault.message };
  }

  /** The base fee every block takes under a `baseFee` fault, if one is set. */
  get baseFeeOverride(): bigint | undefined {
    const fault = this.state.baseFee;
    return fault ? BigInt(fault.baseFeePerGas) : undefined;
  }

  get stalled(): boolean {
    const stall = this.state.stall;
    if (!stall) return false;
    if (stall.until !== null && Date.now() >= stall.until) {
      this.endStall();
      return false;
    }
    return true;
  }

  /** Resolves when no stall is active. */
  async waitWhileStalled(): Promise<void> {
    if (!this.stalled) return;
    await new Promise<void>((resolve) => this.stallWaiters.push(resolve));
  }

  dispose(): void {
    this.clear();
  }

  private endStall(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
    delete this.state.stall;
    const waiters = this.stallWaiters;
    this.stallWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function positiveInt(value: unknown, fallback: number): number {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
