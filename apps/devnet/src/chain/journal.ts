import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Address, Hex } from "viem";

/**
 * Persistence for `--data-dir`: an append-only JSON-lines journal of everything that changes
 * chain state, replayed on start. The EVM is deterministic, so re-executing the same raw
 * transactions in the same blocks with the same timestamps rebuilds identical state roots
 * and block hashes; each block line carries its hash and replay refuses to continue if
 * they diverge. Signatures are not re-verified on replay (they were at admission).
 */
export type JournalEntry =
  | {
      type: "genesis";
      version: 1;
      chainId: number;
      timestamp: string;
      blockGasLimit: string;
      minBaseFeePerGas: string;
      coinbase: Address;
      prefund: Record<Address, string>;
    }
  | { type: "tx"; raw: Hex }
  | { type: "evict"; hash: Hex }
  | { type: "fund"; address: Address; amount: string }
  /** `baseFeePerGas`: only for a block produced under a `baseFee` fault (faults are not journalled). */
  | { type: "block"; number: string; timestamp: string; txs: Hex[]; hash: Hex; baseFeePerGas?: string }
  | { type: "reorg"; depth: number; dropTransactions?: boolean };

export const JOURNAL_FILE = "chain.jsonl";

export class Journal {
  private readonly path: string | undefined;

  constructor(dataDir: string | undefined) {
    if (dataDir === undefined) {
      this.path = undefined;
      return;
    }
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, JOURNAL_FILE);
  }

  get enabled(): boolean {
    return this.path !== undefined;
  }

  /** Entries already on disk; a torn last line (crash mid-write) is dropped. */
  read(): JournalEntry[] {
    if (!this.path || !existsSync(this.path)) return [];
    const lines = readFileSync(this.path, "utf8").split("\n");
    const entries: JournalEntry[] = [];
    for (const [i, line] of lines.entries()) {
      if (line.trim() === "") continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch (error) {
        if (i >= lines.length - 2) {
          // Rewrite without the torn tail so later appends start on a clean line.
          writeFileSync(this.path, entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
          break;
        }
        throw new Error(`${this.path}: line ${i + 1} is not JSON`, { cause: error });
      }
    }
    return entries;
  }

  append(entry: JournalEntry): void {
    if (!this.path) return;
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }
}
