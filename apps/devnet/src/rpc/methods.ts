import { TRANSACTION_REJECTED_RPC_CODE } from "@qc/chain";
import { keccak256, numberToHex, type Hex } from "viem";
import { MAX_LOG_BLOCK_RANGE, SUGGESTED_PRIORITY_FEE } from "../config";
import { ExecutionFailure, SimulationError, TransactionRejection, UnknownBlockError, type DevnetNode } from "../chain/node";
import type { DevnetBlock } from "../chain/types";
import type { FaultInjector, FaultSpec } from "../faults";
import { EXECUTION_REVERTED, invalidParams, RpcError, SERVER_ERROR } from "./errors";
import { formatBlock, formatLog, formatReceipt, formatTransaction } from "./format";
import { address, blockSelector, callRequest, data, hash32, logFilter, quantity } from "./params";
import { formatSimulatedBlock, simulatePayload } from "./simulate";

export const CLIENT_VERSION = "quantum-devnet/0.1.0 (@ethereumjs/vm 10)";

export type RpcContext = {
  node: DevnetNode;
  faults: FaultInjector;
  blockTimeMs: number;
  /** Methods answered as unknown (-32601), to stand in for a node that lacks them. */
  disabledMethods?: readonly string[];
};

type Handler = (params: unknown[], ctx: RpcContext) => Promise<unknown> | unknown;

const q = (value: bigint | number): Hex => numberToHex(value);

/** Maps node errors to JSON-RPC errors; anything unexpected becomes -32603. */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof TransactionRejection) {
    return new RpcError(TRANSACTION_REJECTED_RPC_CODE, error.message, { reason: error.reason });
  }
  if (error instanceof ExecutionFailure) {
    return error.reverted ? new RpcError(EXECUTION_REVERTED, error.message, error.data) : new RpcError(SERVER_ERROR, error.message);
  }
  if (error instanceof SimulationError) return new RpcError(error.code, error.message);
  if (error instanceof UnknownBlockError) return new RpcError(SERVER_ERROR, "header not found");
  if (error instanceof RangeError) return invalidParams(error.message);
  return new RpcError(-32603, `internal error: ${(error as Error)?.message ?? String(error)}`);
}

function blockOrNull(node: DevnetNode, selector: ReturnType<typeof blockSelector>): DevnetBlock | null {
  return node.getBlock(selector) ?? null;
}

function feeHistory(node: DevnetNode, params: unknown[]): Record<string, unknown> {
  const count = Number(quantity(params[0], "blockCount"));
  if (count < 1 || count > 1024) throw invalidParams("blockCount must be 1..1024");
  const newest = node.getBlock(blockSelector(params[1]));
  if (!newest) throw new UnknownBlockError("newest block not found");
  const percentiles = params[2] === undefined || params[2] === null ? undefined : (params[2] as unknown[]);
  if (
    percentiles &&
    (!Array.isArray(percentiles) ||
      percentiles.some((p, i) => typeof p !== "number" || p < 0 || p > 100 || (i > 0 && p < (percentiles[i - 1] as number))))
  ) {
    throw invalidParams("rewardPercentiles must be increasing numbers in 0..100");
  }
  const oldest = newest.number + 1n > BigInt(count) ? newest.number + 1n - BigInt(count) : 0n;
  const blocks = node.blockRange(oldest, newest.number);
  const baseFees = blocks.map((b) => q(b.baseFeePerGas));
  baseFees.push(q(newest.number === node.head().number ? node.nextBaseFee() : (node.getBlock(newest.number + 1n)?.baseFeePerGas ?? 0n)));
  const result: Record<string, unknown> = {
    oldestBlock: q(oldest),
    baseFeePerGas: baseFees,
    gasUsedRatio: blocks.map((b) => Number(b.gasUsed) / Number(b.gasLimit)),
  };
  if (percentiles) {
    result.reward = blocks.map((block) => {
      const tips = block.transactions
        .map((t) => ({ tip: t.receipt.effectiveGasPrice - block.baseFeePerGas, gas: t.receipt.gasUsed }))
        .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
      return (percentiles as number[]).map((p) => {
        if (tips.length === 0) return "0x0";
        const threshold = (Number(block.gasUsed) * p) / 100;
        let sum = 0;
        for (const t of tips) {
          sum += Number(t.gas);
          if (sum >= threshold) return q(t.tip);
        }
        return q(tips.at(-1)!.tip);
      });
    });
  }
  return result;
}

function faultSpec(value: unknown): FaultSpec {
  if (!value || typeof value !== "object") throw invalidParams("fault object {kind, ...} expected");
  const v = value as Record<string, unknown>;
  const kinds = ["dropNextTx", "rpcError", "stall", "baseFee", "none"];
  if (typeof v.kind !== "string" || !kinds.includes(v.kind)) throw invalidParams(`kind must be one of ${kinds.join(", ")}`);
  if (v.kind === "baseFee") {
    const baseFeePerGas = quantity(v.baseFeePerGas, "baseFeePerGas");
    if (baseFeePerGas === 0n) throw invalidParams("baseFeePerGas must be above zero");
    return { kind: "baseFee", baseFeePerGas: `0x${baseFeePerGas.toString(16)}` };
  }
  for (const key of ["count", "ms", "code"] as const) {
    if (v[key] !== undefined && (typeof v[key] !== "number" || !Number.isFinite(v[key]))) throw invalidParams(`${key} must be a number`);
  }
  return v as FaultSpec;
}

export const METHODS: Record<string, Handler> = {
  web3_clientVersion: () => CLIENT_VERSION,
  web3_sha3: (params) => keccak256(data(params[0], "data")),
  net_version: (_p, { node }) => String(node.chainId),
  net_listening: () => true,
  net_peerCount: () => "0x0",
  eth_chainId: (_p, { node }) => q(node.chainId),
  eth_syncing: () => false,
  eth_accounts: () => [],
  eth_blockNumber: (_p, { node }) => q(node.head().number),
  eth_gasPrice: (_p, { node }) => q(node.nextBaseFee() + SUGGESTED_PRIORITY_FEE),
  eth_maxPriorityFeePerGas: () => q(SUGGESTED_PRIORITY_FEE),
  eth_feeHistory: (params, { node }) => feeHistory(node, params),

  eth_getBlockByNumber: (params, { node }) => {
    const block = blockOrNull(node, blockSelector(params[0]));
    return block ? formatBlock(block, params[1] === true) : null;
  },
  eth_getBlockByHash: (params, { node }) => {
    const block = blockOrNull(node, { hash: hash32(params[0], "blockHash") });
    return block ? formatBlock(block, params[1] === true) : null;
  },
  eth_getBlockTransactionCountByNumber: (params, { node }) => {
    const block = blockOrNull(node, blockSelector(params[0]));
    return block ? q(block.transactions.length) : null;
  },
  eth_getBlockTransactionCountByHash: (params, { node }) => {
    const block = blockOrNull(node, { hash: hash32(params[0], "blockHash") });
    return block ? q(block.transactions.length) : null;
  },
  eth_getTransactionByBlockNumberAndIndex: (params, { node }) => {
    const block = blockOrNull(node, blockSelector(params[0]));
    const tx = block?.transactions[Number(quantity(params[1], "index"))];
    return block && tx ? formatTransaction(tx, block, tx.index) : null;
  },
  eth_getTransactionByBlockHashAndIndex: (params, { node }) => {
    const block = blockOrNull(node, { hash: hash32(params[0], "blockHash") });
    const tx = block?.transactions[Number(quantity(params[1], "index"))];
    return block && tx ? formatTransaction(tx, block, tx.index) : null;
  },

  eth_getBalance: async (params, { node }) => q(await node.getBalance(address(params[0], "address"), blockSelector(params[1]))),
  eth_getTransactionCount: async (params, { node }) =>
    q(await node.getTransactionCount(address(params[0], "address"), blockSelector(params[1]))),
  eth_getCode: (params, { node }) => node.getCode(address(params[0], "address"), blockSelector(params[1])),
  eth_getStorageAt: (params, { node }) =>
    node.getStorageAt(address(params[0], "address"), numberToHex(quantity(params[1], "slot"), { size: 32 }), blockSelector(params[2])),

  eth_call: async (params, { node }) => (await node.call(callRequest(params[0]), blockSelector(params[1]))).returnData,
  eth_estimateGas: async (params, { node }) => q(await node.estimateGas(callRequest(params[0]), blockSelector(params[1]))),
  eth_simulateV1: async (params, { node }) => {
    const payload = simulatePayload(params[0]);
    const blocks = await node.simulateV1(payload, blockSelector(params[1]));
    return blocks.map((block) => formatSimulatedBlock(block, payload.returnFullTransactions));
  },

  eth_sendRawTransaction: (params, { node }) => {
    if (typeof params[0] !== "string") throw invalidParams("raw transaction must be a hex string");
    return node.submitRawTransaction(params[0] as Hex);
  },
  eth_sendTransaction: () => {
    throw new RpcError(-32601, "the method eth_sendTransaction is not available: the node holds no keys; send a signed 0x51 transaction");
  },
  eth_getTransactionByHash: (params, { node }) => {
    const found = node.getTransaction(hash32(params[0], "hash"));
    return found ? formatTransaction(found.entry, found.block, found.index) : null;
  },
  eth_getTransactionReceipt: (params, { node }) => {
    const found = node.getReceipt(hash32(params[0], "hash"));
    return found ? formatReceipt(found.tx, found.block) : null;
  },
  eth_getLogs: (params, { node }) => {
    const filter = logFilter(params[0]);
    const rawFilter = (params[0] ?? {}) as { fromBlock?: unknown; toBlock?: unknown };
    const resolve = (value: unknown, fallback: bigint) => {
      if (value === undefined || value === null) return fallback;
      const selector = blockSelector(value);
      const block = node.getBlock(selector);
      if (!block) return typeof selector === "bigint" ? selector : fallback;
      return block.number;
    };
    if (!filter.blockHash) {
      const head = node.head().number;
      filter.fromBlock = resolve(rawFilter.fromBlock, head);
      filter.toBlock = resolve(rawFilter.toBlock, head);
      if (filter.toBlock < filter.fromBlock) return [];
      if (filter.toBlock - filter.fromBlock > MAX_LOG_BLOCK_RANGE) {
        throw new RpcError(-32005, `block range exceeds ${MAX_LOG_BLOCK_RANGE} blocks`);
      }
    }
    return node.getLogs(filter).map(formatLog);
  },

  // ------------------------------------------------------------ devnet controls
  devnet_fund: async (params, { node }) => q(await node.fund(address(params[0], "address"), quantity(params[1], "amount"))),
  devnet_mine: async (params, { node }) => {
    const count = params[0] === undefined || params[0] === null ? 1 : Number(quantity(params[0], "count"));
    if (count < 1 || count > 10_000) throw invalidParams("count must be 1..10000");
    await node.mine(count);
    return q(node.head().number);
  },
  devnet_reorg: async (params, { node }) => {
    const depth = params[0] === undefined || params[0] === null ? 1 : Number(quantity(params[0], "depth"));
    // params[1]: {dropTransactions: true} forgets the removed blocks' transactions instead of returning them to the pool.
    const dropTransactions = (params[1] as { dropTransactions?: unknown } | undefined)?.dropTransactions === true;
    const { removed, returned } = await node.reorg(depth, { dropTransactions });
    return { removedBlocks: removed.map((b) => b.hash), returnedTransactions: returned, head: q(node.head().number) };
  },
  devnet_setFault: (params, { faults }) => faults.set(faultSpec(params[0])),
  devnet_clearFaults: (_p, { faults }) => {
    faults.clear();
    return faults.active();
  },
  devnet_status: (_p, { node, faults, blockTimeMs }) => ({
    chainId: q(node.chainId),
    head: q(node.head().number),
    headHash: node.head().hash,
    nextBaseFeePerGas: q(node.nextBaseFee()),
    pending: node.pendingTransactions().map((t) => t.hash),
    blockTimeMs,
    faults: faults.active(),
  }),
  devnet_metrics: (_p, { node }) => ({ ...node.metrics }),
};
