import type { Common } from "@ethereumjs/common";
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import type { VM } from "@ethereumjs/vm";
import type { DevnetChainConfig } from "../config";
import type { FaultInjector } from "../faults";
import { AsyncLock } from "../lock";
import { nextBaseFee } from "./block-header";
import { FundLedger } from "./fund-ledger";
import type { IndexStore } from "./index-store";
import type { Journal, JournalEntry } from "./journal";
import { Mempool } from "./mempool";

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

/**
 * Everything the chain modules (admission, block production, simulation, reorg, replay) share:
 * one EVM state, one block store, one mempool, one journal, all guarded by one lock.
 */
export class ChainContext {
  readonly lock = new AsyncLock();
  readonly mempool = new Mempool();
  readonly funds = new FundLedger();
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
  /** While the journal is replayed, nothing is appended to it again. */
  replaying = false;
  private seq = 0;

  constructor(
    readonly config: DevnetChainConfig,
    readonly common: Common,
    readonly vm: VM,
    readonly index: IndexStore,
    private readonly journal: Journal,
    readonly faults: FaultInjector | undefined,
    /** Clock in ms (tests may pin it). */
    readonly now: () => number,
  ) {}

  get state(): MerkleStateManager {
    return this.vm.stateManager as MerkleStateManager;
  }

  /** Base fee the next block will charge: a `baseFee` fault's, else the market's. */
  nextBaseFee(): bigint {
    return this.faults?.baseFeeOverride ?? this.marketBaseFee();
  }

  /**
   * The next block's EIP-1559 base fee, whatever a `baseFee` fault imposes: admission requires
   * maxFeePerGas ≥ this, so under a spike the pool keeps what would have been minable before it.
   */
  marketBaseFee(): bigint {
    return nextBaseFee(this.index.head(), this.config.minBaseFeePerGas);
  }

  /** Admission order of the next pooled transaction. */
  nextSeq(): number {
    return this.seq++;
  }

  record(entry: JournalEntry): void {
    if (!this.replaying) this.journal.append(entry);
  }
}
