import type { EVMMockBlockchainInterface } from "@ethereumjs/evm";
import { hexToBytes, type Address, type Hex } from "viem";
import { DEFAULT_BLOCK_GAS_LIMIT, DEFAULT_COINBASE, DEFAULT_MIN_BASE_FEE, type DevnetChainConfig } from "../config";
import type { FaultInjector } from "../faults";
import { submitRawTransaction } from "./admission";
import { ZERO_HASH } from "./block-header";
import { createGenesis, mine } from "./block-producer";
import { ChainContext, type DevnetMetrics } from "./context";
import { createDevnetCommon, createDevnetVm } from "./execution";
import { fund } from "./funding";
import { IndexStore, type BlockSelector, type LogFilter, type MatchedLog } from "./index-store";
import { Journal } from "./journal";
import { replayJournal } from "./replay";
import { reorg } from "./reorg";
import { simulateBlocks } from "./simulate-blocks";
import type { SimulatedBlock, SimulateRequest } from "./simulate-request";
import { call, estimateGas, type CallRequest } from "./simulation";
import { getBalance, getCode, getStorageAt, getTransactionCount } from "./state-reads";
import type { DevnetBlock, MinedTransaction, PoolTransaction } from "./types";

export { TransactionRejection } from "./admission";
export { ExecutionFailure, type CallRequest } from "./simulation";
export { SimulationError, type SimulatedBlock, type SimulateRequest } from "./simulate-request";
export { UnknownBlockError, type BlockSelector, type LogFilter, type MatchedLog } from "./index-store";
export type { DevnetMetrics } from "./context";

export type DevnetNodeOptions = {
  chainId: number;
  dataDir?: string;
  prefund?: Record<Address, bigint>;
  blockGasLimit?: bigint;
  minBaseFeePerGas?: bigint;
  coinbase?: Address;
  faults?: FaultInjector;
  /** Clock in ms (tests may pin it). */
  now?: () => number;
};

/**
 * The devnet's chain, as the RPC methods see it: EVM state (`@ethereumjs/vm`), block store,
 * mempool and journal. The work lives in the modules beside this file (admission, block
 * production, the index, simulation, reorg, replay), which share one `ChainContext`.
 *
 * `0x51` transactions are decoded and their ML-DSA-87 signatures verified at admission; the
 * EVM then runs an equivalent EIP-1559 transaction pinned to the ML-DSA sender (see
 * `impersonatedTransaction`). Blocks, receipts and logs are indexed by the `0x51` hash.
 */
export class DevnetNode {
  private constructor(private readonly chain: ChainContext) {}

  static async create(options: DevnetNodeOptions): Promise<DevnetNode> {
    const journal = new Journal(options.dataDir);
    const entries = journal.read();
    const genesisEntry = entries[0];
    if (genesisEntry && genesisEntry.type !== "genesis") throw new Error("journal does not start with a genesis entry");
    if (genesisEntry && genesisEntry.chainId !== options.chainId) {
      throw new Error(`data dir holds chain ${genesisEntry.chainId}, not ${options.chainId}`);
    }
    const config: DevnetChainConfig = genesisEntry
      ? {
          chainId: genesisEntry.chainId,
          blockGasLimit: BigInt(genesisEntry.blockGasLimit),
          minBaseFeePerGas: BigInt(genesisEntry.minBaseFeePerGas),
          coinbase: genesisEntry.coinbase,
        }
      : {
          chainId: options.chainId,
          blockGasLimit: options.blockGasLimit ?? DEFAULT_BLOCK_GAS_LIMIT,
          minBaseFeePerGas: options.minBaseFeePerGas ?? DEFAULT_MIN_BASE_FEE,
          coinbase: (options.coinbase ?? DEFAULT_COINBASE).toLowerCase() as Address,
        };
    const common = await createDevnetCommon(config.chainId);
    const now = options.now ?? Date.now;
    const index = new IndexStore();
    // The EVM's BLOCKHASH reads our block store, so contracts see the same hashes as RPC.
    const blockchain: EVMMockBlockchainInterface = {
      async getBlock(n: number) {
        return { hash: () => hexToBytes(index.atHeight(n)?.hash ?? ZERO_HASH) };
      },
      async putBlock() {},
      shallowCopy() {
        return blockchain;
      },
    };
    const vm = await createDevnetVm(common, blockchain);
    const chain = new ChainContext(config, common, vm, index, journal, options.faults, now);

    if (genesisEntry) {
      const prefund = Object.fromEntries(Object.entries(genesisEntry.prefund).map(([a, v]) => [a, BigInt(v)]));
      await createGenesis(chain, BigInt(genesisEntry.timestamp), prefund);
      await replayJournal(chain, entries.slice(1));
    } else {
      const timestamp = BigInt(Math.floor(now() / 1000));
      const prefund = Object.fromEntries(Object.entries(options.prefund ?? {}).map(([a, v]) => [a.toLowerCase(), v])) as Record<
        Address,
        bigint
      >;
      await createGenesis(chain, timestamp, prefund);
      journal.append({
        type: "genesis",
        version: 1,
        chainId: config.chainId,
        timestamp: timestamp.toString(),
        blockGasLimit: config.blockGasLimit.toString(),
        minBaseFeePerGas: config.minBaseFeePerGas.toString(),
        coinbase: config.coinbase,
        prefund: Object.fromEntries(Object.entries(prefund).map(([a, v]) => [a, v.toString()])),
      });
    }
    return new DevnetNode(chain);
  }

  get config(): DevnetChainConfig {
    return this.chain.config;
  }

  get metrics(): DevnetMetrics {
    return this.chain.metrics;
  }

  get chainId(): number {
    return this.chain.config.chainId;
  }

  // ---------------------------------------------------------------- blocks and lookups

  head(): DevnetBlock {
    return this.chain.index.head();
  }

  getBlock(selector: BlockSelector): DevnetBlock | undefined {
    return this.chain.index.getBlock(selector);
  }

  blockRange(from: bigint, to: bigint): DevnetBlock[] {
    return this.chain.index.blockRange(from, to);
  }

  /** Base fee the next block will charge; admission requires maxFeePerGas ≥ this. */
  nextBaseFee(): bigint {
    return this.chain.nextBaseFee();
  }

  /** A mined transaction with its block and position, else a pending one. */
  getTransaction(hash: Hex): { entry: PoolTransaction; block?: DevnetBlock; index?: number } | undefined {
    const mined = this.chain.index.findTransaction(hash);
    if (mined) return { entry: mined.tx, block: mined.block, index: mined.index };
    const pending = this.chain.mempool.get(hash.toLowerCase() as Hex);
    return pending ? { entry: pending } : undefined;
  }

  getReceipt(hash: Hex): { tx: MinedTransaction; block: DevnetBlock } | undefined {
    const mined = this.chain.index.findTransaction(hash);
    return mined ? { tx: mined.tx, block: mined.block } : undefined;
  }

  getLogs(filter: LogFilter): MatchedLog[] {
    return this.chain.index.getLogs(filter);
  }

  pendingTransactions(): PoolTransaction[] {
    return this.chain.mempool.all().sort((a, b) => a.seq - b.seq);
  }

  // ---------------------------------------------------------------- state reads

  getBalance(address: Address, selector: BlockSelector = "latest"): Promise<bigint> {
    return getBalance(this.chain, address, selector);
  }

  getTransactionCount(address: Address, selector: BlockSelector = "latest"): Promise<number> {
    return getTransactionCount(this.chain, address, selector);
  }

  getCode(address: Address, selector: BlockSelector = "latest"): Promise<Hex> {
    return getCode(this.chain, address, selector);
  }

  getStorageAt(address: Address, slot: Hex, selector: BlockSelector = "latest"): Promise<Hex> {
    return getStorageAt(this.chain, address, slot, selector);
  }

  // ---------------------------------------------------------------- writes

  submitRawTransaction(raw: Hex): Promise<Hex> {
    return submitRawTransaction(this.chain, raw);
  }

  mine(count = 1): Promise<DevnetBlock[]> {
    return mine(this.chain, count);
  }

  fund(address: Address, amount: bigint): Promise<bigint> {
    return fund(this.chain, address, amount);
  }

  reorg(depth = 1, options: { dropTransactions?: boolean } = {}): Promise<{ removed: DevnetBlock[]; returned: Hex[] }> {
    return reorg(this.chain, depth, options);
  }

  // ---------------------------------------------------------------- simulation

  call(request: CallRequest, selector: BlockSelector = "latest"): Promise<{ returnData: Hex; gasUsed: bigint }> {
    return call(this.chain, request, selector);
  }

  estimateGas(request: CallRequest, selector: BlockSelector = "latest"): Promise<bigint> {
    return estimateGas(this.chain, request, selector);
  }

  /** `eth_simulateV1`: the request's blocks on a throw-away copy of the state after `selector`. */
  simulateV1(request: SimulateRequest, selector: BlockSelector = "latest"): Promise<SimulatedBlock[]> {
    return simulateBlocks(this.chain, request, selector);
  }
}
