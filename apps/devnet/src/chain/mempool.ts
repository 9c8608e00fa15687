import type { Address, Hex } from "viem";
import type { PoolTransaction } from "./types";

/**
 * Pending transactions by hash and by (sender, nonce). Holds both executable transactions
 * and future ones waiting for a nonce gap to fill; block building decides which run.
 */
export class Mempool {
  private readonly byHash = new Map<Hex, PoolTransaction>();
  private readonly bySender = new Map<Address, Map<number, PoolTransaction>>();

  get size(): number {
    return this.byHash.size;
  }

  get(hash: Hex): PoolTransaction | undefined {
    return this.byHash.get(hash);
  }

  has(hash: Hex): boolean {
    return this.byHash.has(hash);
  }

  bySenderNonce(from: Address, nonce: number): PoolTransaction | undefined {
    return this.bySender.get(from)?.get(nonce);
  }

  /** Adds, replacing any transaction with the same sender and nonce; returns the replaced one. */
  add(entry: PoolTransaction): PoolTransaction | undefined {
    let nonces = this.bySender.get(entry.from);
    if (!nonces) {
      nonces = new Map();
      this.bySender.set(entry.from, nonces);
    }
    const replaced = nonces.get(entry.tx.nonce);
    if (replaced) this.byHash.delete(replaced.hash);
    nonces.set(entry.tx.nonce, entry);
    this.byHash.set(entry.hash, entry);
    return replaced;
  }

  remove(hash: Hex): PoolTransaction | undefined {
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    this.byHash.delete(hash);
    const nonces = this.bySender.get(entry.from);
    nonces?.delete(entry.tx.nonce);
    if (nonces && nonces.size === 0) this.bySender.delete(entry.from);
    return entry;
  }

  senders(): Address[] {
    return [...this.bySender.keys()];
  }

  /** This sender's transactions sorted by nonce. */
  forSender(from: Address): PoolTransaction[] {
    return [...(this.bySender.get(from)?.values() ?? [])].sort((a, b) => a.tx.nonce - b.tx.nonce);
  }

  /** Next nonce counting consecutive pool transactions from `stateNonce`. */
  pendingNonce(from: Address, stateNonce: number): number {
    const nonces = this.bySender.get(from);
    let next = stateNonce;
    while (nonces?.has(next)) next++;
    return next;
  }

  all(): PoolTransaction[] {
    return [...this.byHash.values()];
  }
}
