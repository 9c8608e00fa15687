import { isSignedQuantumTransaction, parseQuantumTransaction } from "@qc/chain";
import { produceBlock } from "./block-producer";
import type { ChainContext } from "./context";
import { credit } from "./funding";
import type { JournalEntry } from "./journal";
import { reorg } from "./reorg";

/**
 * Rebuilds the chain from the journal entries after genesis by doing again what each line
 * records. The EVM is deterministic, so every block must come out with the hash it was
 * journalled with; a divergence stops the node rather than serve a different chain.
 */
export async function replayJournal(chain: ChainContext, entries: JournalEntry[]): Promise<void> {
  const { index, mempool } = chain;
  chain.replaying = true;
  try {
    for (const entry of entries) {
      switch (entry.type) {
        case "tx": {
          const tx = parseQuantumTransaction(entry.raw);
          if (!isSignedQuantumTransaction(tx)) throw new Error("journal holds an unsigned transaction");
          if (!index.hasTransaction(tx.hash)) mempool.add({ hash: tx.hash, raw: entry.raw, tx, from: tx.from, seq: chain.nextSeq() });
          break;
        }
        case "evict":
          mempool.remove(entry.hash);
          break;
        case "fund":
          await credit(chain.state, entry.address, BigInt(entry.amount));
          chain.funds.add(entry.address, BigInt(entry.amount), index.head().number);
          break;
        case "block": {
          const txs = entry.txs.map((hash) => {
            const pooled = mempool.get(hash);
            if (!pooled) throw new Error(`journal replay: block ${entry.number} needs unknown transaction ${hash}`);
            return pooled;
          });
          const baseFee = entry.baseFeePerGas === undefined ? undefined : BigInt(entry.baseFeePerGas);
          const block = await produceBlock(chain, BigInt(entry.timestamp), { replayTxs: txs, baseFeePerGas: baseFee });
          if (block.hash !== entry.hash) {
            throw new Error(`journal replay diverged at block ${entry.number}: ${block.hash} != ${entry.hash}`);
          }
          break;
        }
        case "reorg":
          await reorg(chain, entry.depth, { dropTransactions: entry.dropTransactions });
          break;
        case "genesis":
          throw new Error("second genesis entry in journal");
      }
    }
  } finally {
    chain.replaying = false;
  }
}
