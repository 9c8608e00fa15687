import type { Address } from "viem";
import { DevnetNode } from "./chain/node";
import { FaultInjector } from "./faults";
import { createRpcServer, listen } from "./rpc/server";

export type StartDevnetOptions = {
  chainId: number;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Interval block production in ms; 0 = only on `devnet_mine`. Default 1000. */
  blockTimeMs?: number;
  /** Persist to `<dataDir>/chain.jsonl` and replay it on start. */
  dataDir?: string;
  /** Genesis balances in Qwei (ignored when `dataDir` already holds a chain). */
  prefund?: Record<Address, bigint>;
  /** Chain parameters (new chains only). */
  blockGasLimit?: bigint;
  minBaseFeePerGas?: bigint;
  coinbase?: Address;
  /**
   * JSON-RPC methods this node answers with -32601 "method not found", as a node without them
   * would (e.g. `["eth_simulateV1"]` for a client that predates it). Default none.
   */
  disabledMethods?: readonly string[];
};

export type Devnet = {
  url: string;
  chainId: number;
  host: string;
  port: number;
  blockTimeMs: number;
  /** The in-process node, for benchmarks and white-box assertions. */
  node: DevnetNode;
  close(): Promise<void>;
};

/** Starts a QUANTUM devnet: JSON-RPC over HTTP on `host:port`, blocks every `blockTimeMs`. */
export async function startDevnet(options: StartDevnetOptions): Promise<Devnet> {
  const { chainId, port = 0, host = "127.0.0.1", blockTimeMs = 1000, dataDir, prefund } = options;
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new RangeError(`invalid chainId ${chainId}`);
  if (!Number.isFinite(blockTimeMs) || blockTimeMs < 0) throw new RangeError(`invalid blockTimeMs ${blockTimeMs}`);
  const faults = new FaultInjector();
  const node = await DevnetNode.create({
    chainId,
    dataDir,
    prefund,
    faults,
    blockGasLimit: options.blockGasLimit,
    minBaseFeePerGas: options.minBaseFeePerGas,
    coinbase: options.coinbase,
  });
  const server = createRpcServer({ node, faults, blockTimeMs, disabledMethods: options.disabledMethods ?? [] });
  const address = await listen(server, port, host);

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const schedule = () => {
    if (closed || blockTimeMs === 0) return;
    timer = setTimeout(() => {
      // A stall fault pauses production; the next tick looks again.
      inFlight = faults.stalled
        ? Promise.resolve()
        : node.mine(1).catch((error: unknown) => console.error("devnet: block production failed", error));
      void inFlight.finally(schedule);
    }, blockTimeMs);
    timer.unref?.();
  };
  schedule();

  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    chainId,
    host,
    port: address.port,
    blockTimeMs,
    node,
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      faults.dispose();
      await inFlight.catch(() => undefined);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
