import { hexToBytes, type Hex } from "viem";
import type { ChainContext } from "./context";
import { credit } from "./funding";
import type { DevnetBlock } from "./types";

/**
 * Drops the last `depth` blocks: state returns to what the oldest dropped block was built
 * on (credits made later are re-applied), and their transactions go back to the mempool
 * to be mined again — or, with `dropTransactions`, are forgotten (the new chain never carries
 * them: a double spend, or a transaction the network lost). The genesis block cannot be dropped.
 */
export async function reorg(
  chain: ChainContext,
  depth: number,
  options: { dropTransactions?: boolean } = {},
): Promise<{ removed: DevnetBlock[]; returned: Hex[] }> {
  const { index, mempool } = chain;
  return chain.lock.run(async () => {
    const head = index.head();
    if (!Number.isInteger(depth) || depth < 1) throw new RangeError("depth must be a positive integer");
    if (BigInt(depth) > head.number) throw new RangeError(`depth ${depth} exceeds the chain height ${head.number}`);
    const removed = index.removeHead(depth);
    const oldest = removed[0]!;
    await chain.state.setStateRoot(hexToBytes(oldest.preStateRoot));
    for (const { address, amount } of chain.funds.rebase(oldest.number, index.head().number)) {
      await credit(chain.state, address, amount);
    }
    const returned: Hex[] = [];
    for (const block of options.dropTransactions ? [] : removed) {
      for (const tx of block.transactions) {
        const { index: _i, receipt: _r, ...entry } = tx;
        if (!mempool.bySenderNonce(entry.from, entry.tx.nonce)) {
          mempool.add(entry);
          returned.push(entry.hash);
        }
      }
    }
    chain.record({ type: "reorg", depth, ...(options.dropTransactions ? { dropTransactions: true } : {}) });
    return { removed, returned };
  });
}
