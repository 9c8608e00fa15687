import type { Common } from "@ethereumjs/common";
import type { EVMMockBlockchainInterface } from "@ethereumjs/evm";
import { createAddressFromString } from "@ethereumjs/util";
import { createVM, type RunTxResult, type VM } from "@ethereumjs/vm";
import {
  isSignedQuantumTransaction,
  parseQuantumTransaction,
  signingHash,
  TRANSACTION_REJECTION_REASONS,
  verifyQuantumSigningHash,
  type QuantumTransactionSigned,
  type TransactionRejectionReason,
} from "@qc/chain";
import { bytesToHex, concatHex, hexToBytes, keccak256, numberToHex, type AccessList, type Address, type Hex } from "viem";
import {
  DEFAULT_BLOCK_GAS_LIMIT,
  DEFAULT_COINBASE,
  DEFAULT_MIN_BASE_FEE,
  MAX_NONCE_GAP,
  MAX_POOL_SIZE,
  MAX_RAW_TX_BYTES,
  REPLACEMENT_BUMP_PERCENT,
  type DevnetChainConfig,
} from "../config";
import type { FaultInjector } from "../faults";
import { AsyncLock } from "../lock";
import {
  mergeBlooms,
  nextBaseFee,
  receiptsRoot,
  sealBlock,
  transactionsRoot,
  ZERO_HASH,
} from "./block-header";
import {
  createDevnetCommon,
  createDevnetVm,
  executeTransaction,
  executionBlock,
  impersonatedTransaction,
  type ExecutableTransaction,
} from "./execution";
import { Journal, type JournalEntry } from "./journal";
import { Mempool } from "./mempool";
import type { DevnetBlock, DevnetLog, DevnetReceipt, MinedTransaction, PoolTransaction } from "./types";
import type { MerkleStateManager } from "@ethereumjs/statemanager";

/** A transaction refused at admission; the RPC layer answers `-32003` with the reason. */
export class TransactionRejection extends Error {
  readonly reason: TransactionRejectionReason;
  constructor(reason: TransactionRejectionReason, detail?: string) {
    super(detail ? `${TRANSACTION_REJECTION_REASONS[reason]}: ${detail}` : TRANSACTION_REJECTION_REASONS[reason]);
    this.reason = reason;
  }
}

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

/** Thrown for a block number or hash the node does not have. */
export class UnknownBlockError extends Error {}

export type BlockSelector = "latest" | "pending" | "earliest" | bigint | { hash: Hex };

export type CallRequest = {
  from?: Address;
  to?: Address | null;
  data?: Hex;
  value?: bigint;
  gas?: bigint;
  accessList?: AccessList;
};

export type LogFilter = {
  fromBlock?: bigint;
  toBlock?: bigint;
  blockHash?: Hex;
  addresses?: Address[];
  topics?: (Hex | Hex[] | null)[];
};

export type MatchedLog = DevnetLog & { block: DevnetBlock; tx: MinedTransaction };

export type DevnetMetrics = {
  admitted: number;
  rejected: number;
  dropped: number;
  signatureChecks: number;
  signatureMs: number;
  admissionMs: number;
  blocksMined: number;
  transactionsMined: number;
  miningMs: number;
};

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

type FundEvent = { address: Address; amount: bigint; afterBlock: bigint };

const INSUFFICIENT_BALANCE = /enough funds|insufficient/i;

/**
 * The devnet's chain: EVM state (`@ethereumjs/vm`), block store, mempool and journal.
 *
 * `0x51` transactions are decoded and their ML-DSA-87 signatures verified here; the EVM
 * then runs an equivalent EIP-1559 transaction pinned to the ML-DSA sender (see
 * `impersonatedTransaction`). Blocks, receipts and logs are indexed by the `0x51` hash.
 */
export class DevnetNode {
  readonly config: DevnetChainConfig;
  readonly metrics: DevnetMetrics = {
    admitted: 0,
    rejected: 0,
    dropped: 0,
    signatureChecks: 0,
    signatureMs: 0,
    admissionMs: 0,
    blocksMined: 0,
    transactionsMined: 0,
    miningMs: 0,
  };

  private readonly lock = new AsyncLock();
  private readonly mempool = new Mempool();
  private readonly blocks: DevnetBlock[] = [];
  private readonly blocksByHash = new Map<Hex, DevnetBlock>();
  private readonly txIndex = new Map<Hex, { block: DevnetBlock; index: number }>();
  private funds: FundEvent[] = [];
  private seq = 0;
  private replaying = false;

  private constructor(
    config: DevnetChainConfig,
    private readonly common: Common,
    private readonly vm: VM,
    private readonly journal: Journal,
    private readonly faults: FaultInjector | undefined,
    private readonly now: () => number,
  ) {
    this.config = config;
  }

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
    // The EVM's BLOCKHASH reads our block store, so contracts see the same hashes as RPC.
    const ref: { node?: DevnetNode } = {};
    const blockchain: EVMMockBlockchainInterface = {
      async getBlock(n: number) {
        const block = ref.node?.blocks[n];
        return { hash: () => hexToBytes(block?.hash ?? ZERO_HASH) };
      },
      async putBlock() {},
      shallowCopy() {
        return blockchain;
      },
    };
    const vm = await createDevnetVm(common, blockchain);
    const node = new DevnetNode(config, common, vm, journal, options.faults, now);
    ref.node = node;

    if (genesisEntry) {
      const prefund = Object.fromEntries(Object.entries(genesisEntry.prefund).map(([a, v]) => [a, BigInt(v)]));
      await node.createGenesis(BigInt(genesisEntry.timestamp), prefund);
      await node.replay(entries.slice(1));
    } else {
      const timestamp = BigInt(Math.floor(now() / 1000));
      const prefund = Object.fromEntries(
        Object.entries(options.prefund ?? {}).map(([a, v]) => [a.toLowerCase(), v]),
      ) as Record<Address, bigint>;
      await node.createGenesis(timestamp, prefund);
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
    return node;
  }

  get chainId(): number {
    return this.config.chainId;
  }

  private get state(): MerkleStateManager {
    return this.vm.stateManager as MerkleStateManager;
  }

  // ---------------------------------------------------------------- blocks

  head(): DevnetBlock {
    const head = this.blocks.at(-1);
    if (!head) throw new Error("no genesis block");
    return head;
  }

  getBlock(selector: BlockSelector): DevnetBlock | undefined {
    if (selector === "latest" || selector === "pending") return this.head();
    if (selector === "earliest") return this.blocks[0];
    if (typeof selector === "bigint") return selector < BigInt(this.blocks.length) && selector >= 0n ? this.blocks[Number(selector)] : undefined;
    return this.blocksByHash.get(selector.hash.toLowerCase() as Hex);
  }

  /** Base fee the next block will charge; admission requires maxFeePerGas ≥ this. */
  nextBaseFee(): bigint {
    return nextBaseFee(this.head(), this.config.minBaseFeePerGas);
  }

  // ---------------------------------------------------------------- state reads

  /**
   * Runs `fn` against the state as of a block: the live state for the head (it includes
   * `devnet_fund` credits made since), otherwise the pre-state of the following block.
   */
  private async withState<T>(selector: BlockSelector, fn: (state: MerkleStateManager, block: DevnetBlock) => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      const block = this.getBlock(selector);
      if (!block) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
      if (block.number === this.head().number) return fn(this.state, block);
      const next = this.blocks[Number(block.number) + 1];
      if (!next) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
      const copy = this.state.shallowCopy();
      await copy.setStateRoot(hexToBytes(next.preStateRoot));
      return fn(copy, block);
    });
  }

  async getBalance(address: Address, selector: BlockSelector = "latest"): Promise<bigint> {
    return this.withState(selector, async (state) => (await state.getAccount(createAddressFromString(address)))?.balance ?? 0n);
  }

  async getTransactionCount(address: Address, selector: BlockSelector = "latest"): Promise<number> {
    return this.withState(selector === "pending" ? "latest" : selector, async (state) => {
      const nonce = Number((await state.getAccount(createAddressFromString(address)))?.nonce ?? 0n);
      return selector === "pending" ? this.mempool.pendingNonce(address.toLowerCase() as Address, nonce) : nonce;
    });
  }

  async getCode(address: Address, selector: BlockSelector = "latest"): Promise<Hex> {
    return this.withState(selector, async (state) => bytesToHex(await state.getCode(createAddressFromString(address))));
  }

  async getStorageAt(address: Address, slot: Hex, selector: BlockSelector = "latest"): Promise<Hex> {
    return this.withState(selector, async (state) => {
      const key = hexToBytes(slot, { size: 32 });
      const value = await state.getStorage(createAddressFromString(address), key);
      return bytesToHex(value, { size: 32 });
    });
  }

  // ---------------------------------------------------------------- admission

  /**
   * Admits a raw signed `0x51` transaction to the mempool, or throws `TransactionRejection`.
   * Checks, in order: size, type, encoding, chain id, gas, ML-DSA-87 signature (context
   * `QUANTUM-TX-v1`), then against state: nonce, fee cap vs next base fee, balance,
   * replacement bump. Resubmitting a known transaction returns its hash.
   */
  async submitRawTransaction(raw: Hex): Promise<Hex> {
    const started = performance.now();
    try {
      const hash = await this.admit(raw);
      this.metrics.admitted++;
      return hash;
    } catch (error) {
      if (error instanceof TransactionRejection) this.metrics.rejected++;
      throw error;
    } finally {
      this.metrics.admissionMs += performance.now() - started;
    }
  }

  private async admit(rawInput: Hex): Promise<Hex> {
    if (typeof rawInput !== "string" || !/^0x[0-9a-fA-F]*$/.test(rawInput) || rawInput.length % 2 !== 0) {
      throw new TransactionRejection("MALFORMED", "raw transaction is not 0x-prefixed hex");
    }
    if ((rawInput.length - 2) / 2 > MAX_RAW_TX_BYTES) {
      throw new TransactionRejection("MALFORMED", `raw transaction exceeds ${MAX_RAW_TX_BYTES} bytes`);
    }
    const raw = rawInput.toLowerCase() as Hex;
    if (!raw.startsWith("0x51")) {
      throw new TransactionRejection("UNSUPPORTED_TYPE", `type 0x${raw.slice(2, 4) || "??"} (this chain accepts only 0x51)`);
    }
    let tx: QuantumTransactionSigned;
    try {
      const parsed = parseQuantumTransaction(raw);
      if (!isSignedQuantumTransaction(parsed)) throw new TransactionRejection("MALFORMED", "transaction is not signed");
      tx = parsed;
    } catch (error) {
      if (error instanceof TransactionRejection) throw error;
      const reason = (error as { reason?: string }).reason ?? (error as Error).message;
      throw new TransactionRejection("MALFORMED", reason);
    }
    const hash = tx.hash;
    if (this.mempool.has(hash) || this.txIndex.has(hash)) return hash;
    if (tx.chainId !== this.chainId) {
      throw new TransactionRejection("WRONG_CHAIN_ID", `expected ${this.chainId}, got ${tx.chainId}`);
    }
    if (tx.gas > this.config.blockGasLimit) {
      throw new TransactionRejection("GAS_LIMIT_EXCEEDED", `gas ${tx.gas} > block gas limit ${this.config.blockGasLimit}`);
    }
    const intrinsic = this.intrinsicGas(tx);
    if (tx.gas < intrinsic) {
      throw new TransactionRejection("INTRINSIC_GAS_TOO_LOW", `gas ${tx.gas} < intrinsic gas ${intrinsic}`);
    }
    const verifyStarted = performance.now();
    const valid = verifyQuantumSigningHash({ signingHash: signingHash(tx), signature: tx.signature, publicKey: tx.publicKey });
    this.metrics.signatureChecks++;
    this.metrics.signatureMs += performance.now() - verifyStarted;
    if (!valid) {
      throw new TransactionRejection("INVALID_SIGNATURE", "ML-DSA-87 verification failed over the signing hash with context QUANTUM-TX-v1");
    }

    return this.lock.run(async () => {
      if (this.mempool.has(hash) || this.txIndex.has(hash)) return hash;
      const account = await this.state.getAccount(createAddressFromString(tx.from));
      const stateNonce = Number(account?.nonce ?? 0n);
      const balance = account?.balance ?? 0n;
      if (tx.nonce < stateNonce) {
        throw new TransactionRejection("NONCE_TOO_LOW", `next nonce ${stateNonce}, transaction nonce ${tx.nonce}`);
      }
      if (tx.nonce >= stateNonce + MAX_NONCE_GAP) {
        throw new TransactionRejection("NONCE_TOO_HIGH", `next nonce ${stateNonce}, transaction nonce ${tx.nonce} (max gap ${MAX_NONCE_GAP})`);
      }
      const baseFee = this.nextBaseFee();
      if (tx.maxFeePerGas < baseFee) {
        throw new TransactionRejection("FEE_TOO_LOW", `maxFeePerGas ${tx.maxFeePerGas} below base fee ${baseFee}`);
      }
      const cost = tx.gas * tx.maxFeePerGas + tx.value;
      if (balance < cost) {
        throw new TransactionRejection("INSUFFICIENT_FUNDS", `balance ${balance}, gas * maxFeePerGas + value = ${cost}`);
      }
      const existing = this.mempool.bySenderNonce(tx.from, tx.nonce);
      if (existing) {
        const bump = (fee: bigint) => fee + (fee * REPLACEMENT_BUMP_PERCENT) / 100n;
        if (tx.maxFeePerGas < bump(existing.tx.maxFeePerGas) || tx.maxPriorityFeePerGas < bump(existing.tx.maxPriorityFeePerGas)) {
          throw new TransactionRejection(
            "REPLACEMENT_UNDERPRICED",
            `both fees must rise by ${REPLACEMENT_BUMP_PERCENT}% over pending ${existing.hash}`,
          );
        }
      } else if (this.mempool.size >= MAX_POOL_SIZE) {
        throw new TransactionRejection("TXPOOL_FULL", `${MAX_POOL_SIZE} transactions pending`);
      }
      if (this.faults?.consumeDrop()) {
        this.metrics.dropped++;
        return hash;
      }
      this.pool({ hash, raw, tx, from: tx.from, seq: this.seq++ });
      return hash;
    });
  }

  private pool(entry: PoolTransaction): void {
    this.mempool.add(entry);
    this.journalAppend({ type: "tx", raw: entry.raw });
  }

  /**
   * Intrinsic gas under Prague, computed directly (building an EVM transaction just for this
   * costs more than the formula): 21000, +32000 and 2 per initcode word for a creation
   * (EIP-3860), 4/16 per zero/non-zero calldata byte, 2400 per access-list address and 1900
   * per key, and never below the EIP-7623 calldata floor 21000 + 10 × tokens. The EVM
   * re-checks at execution; a transaction it refuses there is evicted.
   */
  private intrinsicGas(tx: QuantumTransactionSigned): bigint {
    const data = hexToBytes(tx.data);
    let zeros = 0n;
    for (const byte of data) if (byte === 0) zeros++;
    const nonZeros = BigInt(data.length) - zeros;
    let gas = 21_000n + zeros * 4n + nonZeros * 16n;
    if (tx.to === null) gas += 32_000n + 2n * ((BigInt(data.length) + 31n) / 32n);
    for (const item of tx.accessList) gas += 2_400n + 1_900n * BigInt(item.storageKeys.length);
    const floor = 21_000n + 10n * (zeros + 4n * nonZeros);
    return gas > floor ? gas : floor;
  }

  pendingTransactions(): PoolTransaction[] {
    return this.mempool.all().sort((a, b) => a.seq - b.seq);
  }

  // ---------------------------------------------------------------- lookups

  getTransaction(hash: Hex): { entry: PoolTransaction; block?: DevnetBlock; index?: number } | undefined {
    const key = hash.toLowerCase() as Hex;
    const mined = this.txIndex.get(key);
    if (mined) return { entry: mined.block.transactions[mined.index]!, block: mined.block, index: mined.index };
    const pending = this.mempool.get(key);
    return pending ? { entry: pending } : undefined;
  }

  getReceipt(hash: Hex): { tx: MinedTransaction; block: DevnetBlock } | undefined {
    const mined = this.txIndex.get(hash.toLowerCase() as Hex);
    return mined ? { tx: mined.block.transactions[mined.index]!, block: mined.block } : undefined;
  }

  getLogs(filter: LogFilter): MatchedLog[] {
    let range: DevnetBlock[];
    if (filter.blockHash) {
      const block = this.blocksByHash.get(filter.blockHash.toLowerCase() as Hex);
      if (!block) throw new UnknownBlockError(`block ${filter.blockHash} not found`);
      range = [block];
    } else {
      const head = this.head().number;
      const from = filter.fromBlock ?? head;
      const to = filter.toBlock ?? head;
      range = this.blocks.slice(Number(from), Number((to > head ? head : to) + 1n));
    }
    const addresses = filter.addresses?.map((a) => a.toLowerCase());
    const topics = filter.topics?.map((t) => (t === null ? null : (Array.isArray(t) ? t : [t]).map((x) => x.toLowerCase())));
    const out: MatchedLog[] = [];
    for (const block of range) {
      for (const tx of block.transactions) {
        for (const log of tx.receipt.logs) {
          if (addresses && addresses.length > 0 && !addresses.includes(log.address)) continue;
          if (topics && !topics.every((want, i) => want === null || want.length === 0 || (log.topics[i] !== undefined && want.includes(log.topics[i]!)))) {
            continue;
          }
          out.push({ ...log, block, tx });
        }
      }
    }
    return out;
  }

  blockRange(from: bigint, to: bigint): DevnetBlock[] {
    return this.blocks.slice(Number(from), Number(to + 1n));
  }

  // ---------------------------------------------------------------- mining

  /** Mines `count` blocks now, each taking the best executable pool transactions. */
  async mine(count = 1): Promise<DevnetBlock[]> {
    const mined: DevnetBlock[] = [];
    for (let i = 0; i < count; i++) {
      mined.push(await this.lock.run(() => this.produceBlock(BigInt(Math.floor(this.now() / 1000)))));
    }
    return mined;
  }

  private async produceBlock(timestamp: bigint, replayTxs?: PoolTransaction[]): Promise<DevnetBlock> {
    const started = performance.now();
    const parent = this.head();
    const number = parent.number + 1n;
    const baseFeePerGas = this.nextBaseFee();
    const blockTime = timestamp > parent.timestamp ? timestamp : parent.timestamp;
    const mixHash = keccak256(concatHex([parent.hash, numberToHex(number, { size: 32 })]));
    const preStateRoot = bytesToHex(await this.state.getStateRoot());
    // Built on first use: most devnet blocks are empty and never need an EVM header.
    let evmBlock: ReturnType<typeof executionBlock> | undefined;
    const header = () =>
      (evmBlock ??= executionBlock(this.common, {
        number,
        timestamp: blockTime,
        gasLimit: this.config.blockGasLimit,
        baseFeePerGas,
        coinbase: this.config.coinbase,
        parentHash: parent.hash,
        mixHash,
      }));

    const included: MinedTransaction[] = [];
    const progress = { gasUsed: 0n, logIndex: 0 };
    const run = async (entry: PoolTransaction): Promise<"ok" | "skip" | { error: unknown }> => {
      if (progress.gasUsed + entry.tx.gas > this.config.blockGasLimit) return "skip";
      if (entry.tx.maxFeePerGas < baseFeePerGas) return "skip";
      let result: RunTxResult;
      try {
        result = await executeTransaction(this.vm, header(), impersonatedTransaction(this.common, executable(entry.tx)), progress.gasUsed);
      } catch (error) {
        return { error };
      }
      progress.gasUsed += result.totalGasSpent;
      const tip = entry.tx.maxPriorityFeePerGas < entry.tx.maxFeePerGas - baseFeePerGas ? entry.tx.maxPriorityFeePerGas : entry.tx.maxFeePerGas - baseFeePerGas;
      const logs: DevnetLog[] = (result.execResult.logs ?? []).map(([address, topics, data]) => ({
        address: bytesToHex(address) as Address,
        topics: topics.map((t) => bytesToHex(t)),
        data: bytesToHex(data),
        logIndex: progress.logIndex++,
      }));
      const receipt: DevnetReceipt = {
        status: result.execResult.exceptionError ? 0 : 1,
        gasUsed: result.totalGasSpent,
        cumulativeGasUsed: progress.gasUsed,
        effectiveGasPrice: baseFeePerGas + tip,
        contractAddress: entry.tx.to === null && result.createdAddress ? (result.createdAddress.toString() as Address) : null,
        logs,
        logsBloom: bytesToHex(result.bloom.bitvector),
      };
      included.push({ ...entry, index: included.length, receipt });
      return "ok";
    };

    if (replayTxs) {
      for (const entry of replayTxs) {
        const outcome = await run(entry);
        if (outcome !== "ok") {
          throw new Error(`journal replay: ${entry.hash} no longer executes in block ${number}`, {
            cause: outcome === "skip" ? undefined : outcome.error,
          });
        }
      }
    } else if (this.mempool.size > 0) {
      await this.selectAndRun(baseFeePerGas, run, () => progress.gasUsed);
    }

    const stateRoot = bytesToHex(await this.state.getStateRoot());
    const block = sealBlock(
      {
        number,
        parentHash: parent.hash,
        timestamp: blockTime,
        stateRoot,
        transactionsRoot: await transactionsRoot(included),
        receiptsRoot: await receiptsRoot(included),
        logsBloom: mergeBlooms(included.map((t) => t.receipt.logsBloom)),
        gasUsed: progress.gasUsed,
        gasLimit: this.config.blockGasLimit,
        baseFeePerGas,
        miner: this.config.coinbase,
        mixHash,
        extraData: "0x",
      },
      preStateRoot,
      included,
    );
    this.appendBlock(block);
    for (const tx of included) this.mempool.remove(tx.hash);
    this.journalAppend({
      type: "block",
      number: number.toString(),
      timestamp: blockTime.toString(),
      txs: included.map((t) => t.hash),
      hash: block.hash,
    });
    this.metrics.blocksMined++;
    this.metrics.transactionsMined += included.length;
    this.metrics.miningMs += performance.now() - started;
    return block;
  }

  /**
   * Greedy block building: per sender, only the run of consecutive nonces starting at the
   * account's nonce is executable (a gap waits); across senders, highest effective tip first,
   * admission order breaking ties.
   */
  private async selectAndRun(
    baseFee: bigint,
    run: (entry: PoolTransaction) => Promise<"ok" | "skip" | { error: unknown }>,
    gasUsed: () => bigint,
  ): Promise<void> {
    const queues: PoolTransaction[][] = [];
    for (const sender of this.mempool.senders()) {
      const nonce = Number((await this.state.getAccount(createAddressFromString(sender)))?.nonce ?? 0n);
      const queue: PoolTransaction[] = [];
      for (const entry of this.mempool.forSender(sender)) {
        if (entry.tx.nonce < nonce) {
          this.evict(entry.hash);
          continue;
        }
        if (entry.tx.nonce !== nonce + queue.length) break;
        queue.push(entry);
      }
      if (queue.length > 0) queues.push(queue);
    }
    const tipOf = (e: PoolTransaction) => {
      const room = e.tx.maxFeePerGas - baseFee;
      return e.tx.maxPriorityFeePerGas < room ? e.tx.maxPriorityFeePerGas : room;
    };
    while (queues.length > 0 && this.config.blockGasLimit - gasUsed() >= 21_000n) {
      let best = 0;
      for (let i = 1; i < queues.length; i++) {
        const a = queues[i]![0]!;
        const b = queues[best]![0]!;
        const ta = tipOf(a);
        const tb = tipOf(b);
        if (ta > tb || (ta === tb && a.seq < b.seq)) best = i;
      }
      const queue = queues[best]!;
      const entry = queue[0]!;
      const outcome = await run(entry);
      if (outcome === "ok") {
        queue.shift();
        if (queue.length === 0) queues.splice(best, 1);
        continue;
      }
      // This sender is done for this block. A transaction that cannot pay now stays pooled
      // (a later credit may fund it); one the EVM refuses for any other reason is evicted.
      queues.splice(best, 1);
      if (outcome !== "skip" && !INSUFFICIENT_BALANCE.test(String((outcome.error as Error)?.message))) this.evict(entry.hash);
    }
  }

  private evict(hash: Hex): void {
    if (this.mempool.remove(hash)) this.journalAppend({ type: "evict", hash });
  }

  private appendBlock(block: DevnetBlock): void {
    this.blocks.push(block);
    this.blocksByHash.set(block.hash, block);
    for (const tx of block.transactions) this.txIndex.set(tx.hash, { block, index: tx.index });
  }

  private async createGenesis(timestamp: bigint, prefund: Record<Address, bigint>): Promise<void> {
    const emptyRoot = bytesToHex(await this.state.getStateRoot());
    for (const [address, amount] of Object.entries(prefund)) {
      await this.credit(address as Address, amount);
    }
    const stateRoot = bytesToHex(await this.state.getStateRoot());
    const genesis = sealBlock(
      {
        number: 0n,
        parentHash: ZERO_HASH,
        timestamp,
        stateRoot,
        transactionsRoot: await transactionsRoot([]),
        receiptsRoot: await receiptsRoot([]),
        logsBloom: `0x${"00".repeat(256)}`,
        gasUsed: 0n,
        gasLimit: this.config.blockGasLimit,
        baseFeePerGas: this.config.minBaseFeePerGas,
        miner: this.config.coinbase,
        mixHash: ZERO_HASH,
        extraData: "0x",
      },
      emptyRoot,
      [],
    );
    this.appendBlock(genesis);
  }

  // ---------------------------------------------------------------- devnet controls

  /**
   * Credits `amount` Qwei to `address` on top of the head state (like `anvil_setBalance`,
   * but additive). Visible at once at the head block number; part of the next block's
   * pre-state; survives reorgs.
   */
  async fund(address: Address, amount: bigint): Promise<bigint> {
    if (amount < 0n) throw new RangeError("amount must be ≥ 0");
    return this.lock.run(async () => {
      const balance = await this.credit(address, amount);
      this.funds.push({ address: address.toLowerCase() as Address, amount, afterBlock: this.head().number });
      this.journalAppend({ type: "fund", address: address.toLowerCase() as Address, amount: amount.toString() });
      return balance;
    });
  }

  private async credit(address: Address, amount: bigint): Promise<bigint> {
    const addr = createAddressFromString(address);
    const account = await this.state.getAccount(addr);
    const balance = (account?.balance ?? 0n) + amount;
    await this.state.modifyAccountFields(addr, { balance });
    return balance;
  }

  /**
   * Drops the last `depth` blocks: state returns to what the oldest dropped block was built
   * on (credits made later are re-applied), and their transactions go back to the mempool
   * to be mined again. The genesis block cannot be dropped.
   */
  async reorg(depth = 1): Promise<{ removed: DevnetBlock[]; returned: Hex[] }> {
    return this.lock.run(async () => {
      const head = this.head();
      if (!Number.isInteger(depth) || depth < 1) throw new RangeError("depth must be a positive integer");
      if (BigInt(depth) > head.number) throw new RangeError(`depth ${depth} exceeds the chain height ${head.number}`);
      const removed = this.blocks.splice(this.blocks.length - depth, depth);
      const oldest = removed[0]!;
      await this.state.setStateRoot(hexToBytes(oldest.preStateRoot));
      const newHead = this.head().number;
      const kept: FundEvent[] = [];
      for (const event of this.funds) {
        if (event.afterBlock >= oldest.number) {
          await this.credit(event.address, event.amount);
          kept.push({ ...event, afterBlock: newHead });
        } else {
          kept.push(event);
        }
      }
      this.funds = kept;
      const returned: Hex[] = [];
      for (const block of removed) {
        this.blocksByHash.delete(block.hash);
        for (const tx of block.transactions) {
          this.txIndex.delete(tx.hash);
          const { index: _i, receipt: _r, ...entry } = tx;
          if (!this.mempool.bySenderNonce(entry.from, entry.tx.nonce)) {
            this.mempool.add(entry);
            returned.push(entry.hash);
          }
        }
      }
      this.journalAppend({ type: "reorg", depth });
      return { removed, returned };
    });
  }

  // ---------------------------------------------------------------- calls

  /** `eth_call`: executes without a signature, fees or nonce checks, then discards the state. */
  async call(request: CallRequest, selector: BlockSelector = "latest"): Promise<{ returnData: Hex; gasUsed: bigint }> {
    return this.simulate(request, selector, async (simulate) => {
      const result = await simulate(request.gas ?? this.config.blockGasLimit);
      throwIfFailed(result);
      return { returnData: bytesToHex(result.execResult.returnValue), gasUsed: result.totalGasSpent };
    });
  }

  /** `eth_estimateGas`: the smallest gas limit with which the call succeeds (binary search). */
  async estimateGas(request: CallRequest, selector: BlockSelector = "latest"): Promise<bigint> {
    return this.simulate(request, selector, async (simulate, balance) => {
      const cap = request.gas ?? this.config.blockGasLimit;
      if (request.from && request.value && request.value > balance) {
        throw new ExecutionFailure("insufficient funds for transfer", false, "0x");
      }
      const atCap = await simulate(cap);
      throwIfFailed(atCap);
      const succeeds = async (gas: bigint) => {
        try {
          const r = await simulate(gas);
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

  private async simulate<T>(
    request: CallRequest,
    selector: BlockSelector,
    body: (simulate: (gas: bigint) => Promise<RunTxResult>, fromBalance: bigint) => Promise<T>,
  ): Promise<T> {
    return this.lock.run(async () => {
      const block = this.getBlock(selector);
      if (!block) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
      const atHead = block.number === this.head().number;
      let vm = this.vm;
      if (!atHead) {
        const next = this.blocks[Number(block.number) + 1]!;
        const state = this.state.shallowCopy();
        await state.setStateRoot(hexToBytes(next.preStateRoot));
        vm = await createVM({ common: this.common, stateManager: state, blockchain: this.vm.blockchain });
      }
      const from = (request.from ?? "0x0000000000000000000000000000000000000000").toLowerCase() as Address;
      const account = await vm.stateManager.getAccount(createAddressFromString(from));
      const evmBlock = executionBlock(this.common, {
        number: atHead ? block.number + 1n : block.number,
        timestamp: atHead ? BigInt(Math.floor(this.now() / 1000)) : block.timestamp,
        gasLimit: this.config.blockGasLimit,
        baseFeePerGas: 0n,
        coinbase: this.config.coinbase,
        parentHash: atHead ? block.hash : block.parentHash,
        mixHash: block.mixHash,
      });
      const simulate = async (gas: bigint): Promise<RunTxResult> => {
        await vm.stateManager.checkpoint();
        try {
          const tx = impersonatedTransaction(this.common, {
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
      return body(simulate, account?.balance ?? 0n);
    });
  }

  // ---------------------------------------------------------------- journal

  private journalAppend(entry: JournalEntry): void {
    if (!this.replaying) this.journal.append(entry);
  }

  private async replay(entries: JournalEntry[]): Promise<void> {
    this.replaying = true;
    try {
      for (const entry of entries) {
        switch (entry.type) {
          case "tx": {
            const tx = parseQuantumTransaction(entry.raw);
            if (!isSignedQuantumTransaction(tx)) throw new Error("journal holds an unsigned transaction");
            if (!this.txIndex.has(tx.hash)) this.mempool.add({ hash: tx.hash, raw: entry.raw, tx, from: tx.from, seq: this.seq++ });
            break;
          }
          case "evict":
            this.mempool.remove(entry.hash);
            break;
          case "fund":
            await this.credit(entry.address, BigInt(entry.amount));
            this.funds.push({ address: entry.address, amount: BigInt(entry.amount), afterBlock: this.head().number });
            break;
          case "block": {
            const txs = entry.txs.map((hash) => {
              const pooled = this.mempool.get(hash);
              if (!pooled) throw new Error(`journal replay: block ${entry.number} needs unknown transaction ${hash}`);
              return pooled;
            });
            const block = await this.produceBlock(BigInt(entry.timestamp), txs);
            if (block.hash !== entry.hash) {
              throw new Error(`journal replay diverged at block ${entry.number}: ${block.hash} != ${entry.hash}`);
            }
            break;
          }
          case "reorg":
            await this.reorg(entry.depth);
            break;
          case "genesis":
            throw new Error("second genesis entry in journal");
        }
      }
    } finally {
      this.replaying = false;
    }
  }
}

function executable(tx: QuantumTransactionSigned): ExecutableTransaction {
  return {
    from: tx.from,
    nonce: BigInt(tx.nonce),
    gas: tx.gas,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    accessList: tx.accessList,
  };
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

/** `Error(string)` payloads read as `: <reason>`, like geth. */
function decodeRevertReason(data: Hex): string {
  if (!data.startsWith("0x08c379a0") || data.length < 138) return "";
  try {
    const length = Number(BigInt(`0x${data.slice(74, 138)}`));
    const text = Buffer.from(data.slice(138, 138 + length * 2), "hex").toString("utf8");
    return `: ${text}`;
  } catch {
    return "";
  }
}

function describeSelector(selector: BlockSelector): string {
  if (typeof selector === "bigint") return selector.toString();
  if (typeof selector === "string") return selector;
  return selector.hash;
}
