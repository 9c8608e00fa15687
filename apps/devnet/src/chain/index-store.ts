import type { Address, Hex } from "viem";
import type { DevnetBlock, DevnetLog, MinedTransaction } from "./types";

/** Thrown for a block number or hash the node does not have. */
export class UnknownBlockError extends Error {}

export type BlockSelector = "latest" | "pending" | "earliest" | bigint | { hash: Hex };

export type LogFilter = {
  fromBlock?: bigint;
  toBlock?: bigint;
  blockHash?: Hex;
  addresses?: Address[];
  topics?: (Hex | Hex[] | null)[];
};

export type MatchedLog = DevnetLog & { block: DevnetBlock; tx: MinedTransaction };

/**
 * The canonical chain: blocks by number and by hash, and mined transactions (with their
 * receipts and logs) by the `0x51` hash. Pending transactions live in the mempool instead.
 */
export class IndexStore {
  private readonly blocks: DevnetBlock[] = [];
  private readonly blocksByHash = new Map<Hex, DevnetBlock>();
  private readonly txIndex = new Map<Hex, { block: DevnetBlock; index: number }>();

  head(): DevnetBlock {
    const head = this.blocks.at(-1);
    if (!head) throw new Error("no genesis block");
    return head;
  }

  /** The block at a height, or undefined past the head (BLOCKHASH and state lookups use it). */
  atHeight(number: number): DevnetBlock | undefined {
    return this.blocks[number];
  }

  getBlock(selector: BlockSelector): DevnetBlock | undefined {
    if (selector === "latest" || selector === "pending") return this.head();
    if (selector === "earliest") return this.blocks[0];
    if (typeof selector === "bigint")
      return selector < BigInt(this.blocks.length) && selector >= 0n ? this.blocks[Number(selector)] : undefined;
    return this.blocksByHash.get(selector.hash.toLowerCase() as Hex);
  }

  append(block: DevnetBlock): void {
    this.blocks.push(block);
    this.blocksByHash.set(block.hash, block);
    for (const tx of block.transactions) this.txIndex.set(tx.hash, { block, index: tx.index });
  }

  /** Removes the last `depth` blocks and their transactions from every index; oldest first. */
  removeHead(depth: number): DevnetBlock[] {
    const removed = this.blocks.splice(this.blocks.length - depth, depth);
    for (const block of removed) {
      this.blocksByHash.delete(block.hash);
      for (const tx of block.transactions) this.txIndex.delete(tx.hash);
    }
    return removed;
  }

  hasTransaction(hash: Hex): boolean {
    return this.txIndex.has(hash);
  }

  /** A mined transaction with its block; `hash` in any case. */
  findTransaction(hash: Hex): { tx: MinedTransaction; block: DevnetBlock; index: number } | undefined {
    const mined = this.txIndex.get(hash.toLowerCase() as Hex);
    return mined ? { tx: mined.block.transactions[mined.index]!, block: mined.block, index: mined.index } : undefined;
  }

  blockRange(from: bigint, to: bigint): DevnetBlock[] {
    return this.blocks.slice(Number(from), Number(to + 1n));
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
          if (
            topics &&
            !topics.every((want, i) => want === null || want.length === 0 || (log.topics[i] !== undefined && want.includes(log.topics[i]!)))
          ) {
            continue;
          }
          out.push({ ...log, block, tx });
        }
      }
    }
    return out;
  }
}

export function describeSelector(selector: BlockSelector): string {
  if (typeof selector === "bigint") return selector.toString();
  if (typeof selector === "string") return selector;
  return selector.hash;
}
