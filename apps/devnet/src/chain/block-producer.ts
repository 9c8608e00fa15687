import { createAddressFromString } from "@ethereumjs/util";
import type { RunTxResult } from "@ethereumjs/vm";
import type { QuantumTransactionSigned } from "@qc/chain";
import { bytesToHex, concatHex, keccak256, numberToHex, type Address, type Hex } from "viem";
import { mergeBlooms, receiptsRoot, sealBlock, transactionsRoot, ZERO_HASH } from "./block-header";
import type { ChainContext } from "./context";
import { executeTransaction, executionBlock, impersonatedTransaction, type ExecutableTransaction } from "./execution";
import { credit } from "./funding";
import type { DevnetBlock, DevnetLog, DevnetReceipt, MinedTransaction, PoolTransaction } from "./types";

type RunOutcome = "ok" | "skip" | { error: unknown };

const INSUFFICIENT_BALANCE = /enough funds|insufficient/i;

/** Block 0: the prefunded accounts on an empty state. */
export async function createGenesis(chain: ChainContext, timestamp: bigint, prefund: Record<Address, bigint>): Promise<void> {
  const emptyRoot = bytesToHex(await chain.state.getStateRoot());
  for (const [address, amount] of Object.entries(prefund)) {
    await credit(chain.state, address as Address, amount);
  }
  const stateRoot = bytesToHex(await chain.state.getStateRoot());
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
      gasLimit: chain.config.blockGasLimit,
      baseFeePerGas: chain.config.minBaseFeePerGas,
      miner: chain.config.coinbase,
      mixHash: ZERO_HASH,
      extraData: "0x",
    },
    emptyRoot,
    [],
  );
  chain.index.append(genesis);
}

/** Mines `count` blocks now, each taking the best executable pool transactions. */
export async function mine(chain: ChainContext, count: number): Promise<DevnetBlock[]> {
  const mined: DevnetBlock[] = [];
  for (let i = 0; i < count; i++) {
    mined.push(await chain.lock.run(() => produceBlock(chain, BigInt(Math.floor(chain.now() / 1000)))));
  }
  return mined;
}

/**
 * Builds, executes and appends the next block. With `replayTxs` (journal replay) exactly those
 * transactions are included, and one that no longer executes is an error; otherwise the pool
 * is drained by `selectAndRun`. Its base fee is a `baseFee` fault's when one is set (on replay:
 * the one journalled with the block), else EIP-1559's. The caller holds the lock.
 */
export async function produceBlock(
  chain: ChainContext,
  timestamp: bigint,
  replay?: { replayTxs: PoolTransaction[]; baseFeePerGas: bigint | undefined },
): Promise<DevnetBlock> {
  const { config, common, vm, index, mempool, metrics } = chain;
  const replayTxs = replay?.replayTxs;
  const started = performance.now();
  const parent = index.head();
  const number = parent.number + 1n;
  const marketBaseFee = chain.marketBaseFee();
  const baseFeePerGas = (replay ? replay.baseFeePerGas : chain.faults?.baseFeeOverride) ?? marketBaseFee;
  const blockTime = timestamp > parent.timestamp ? timestamp : parent.timestamp;
  const mixHash = keccak256(concatHex([parent.hash, numberToHex(number, { size: 32 })]));
  const preStateRoot = bytesToHex(await chain.state.getStateRoot());
  // Built on first use: most devnet blocks are empty and never need an EVM header.
  let evmBlock: ReturnType<typeof executionBlock> | undefined;
  const header = () =>
    (evmBlock ??= executionBlock(common, {
      number,
      timestamp: blockTime,
      gasLimit: config.blockGasLimit,
      baseFeePerGas,
      coinbase: config.coinbase,
      parentHash: parent.hash,
      mixHash,
    }));

  const included: MinedTransaction[] = [];
  const progress = { gasUsed: 0n, logIndex: 0 };
  const run = async (entry: PoolTransaction): Promise<RunOutcome> => {
    if (progress.gasUsed + entry.tx.gas > config.blockGasLimit) return "skip";
    if (entry.tx.maxFeePerGas < baseFeePerGas) return "skip";
    let result: RunTxResult;
    try {
      result = await executeTransaction(vm, header(), impersonatedTransaction(common, executable(entry.tx)), progress.gasUsed);
    } catch (error) {
      return { error };
    }
    progress.gasUsed += result.totalGasSpent;
    const tip =
      entry.tx.maxPriorityFeePerGas < entry.tx.maxFeePerGas - baseFeePerGas
        ? entry.tx.maxPriorityFeePerGas
        : entry.tx.maxFeePerGas - baseFeePerGas;
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
  } else if (mempool.size > 0) {
    await selectAndRun(chain, baseFeePerGas, run, () => progress.gasUsed);
  }

  const stateRoot = bytesToHex(await chain.state.getStateRoot());
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
      gasLimit: config.blockGasLimit,
      baseFeePerGas,
      miner: config.coinbase,
      mixHash,
      extraData: "0x",
    },
    preStateRoot,
    included,
    marketBaseFee,
  );
  index.append(block);
  for (const tx of included) mempool.remove(tx.hash);
  chain.record({
    type: "block",
    number: number.toString(),
    timestamp: blockTime.toString(),
    txs: included.map((t) => t.hash),
    hash: block.hash,
    ...(baseFeePerGas !== marketBaseFee ? { baseFeePerGas: baseFeePerGas.toString() } : {}),
  });
  metrics.blocksMined++;
  metrics.transactionsMined += included.length;
  metrics.miningMs += performance.now() - started;
  return block;
}

/**
 * Greedy block building: per sender, only the run of consecutive nonces starting at the
 * account's nonce is executable (a gap waits); across senders, highest effective tip first,
 * admission order breaking ties.
 */
async function selectAndRun(
  chain: ChainContext,
  baseFee: bigint,
  run: (entry: PoolTransaction) => Promise<RunOutcome>,
  gasUsed: () => bigint,
): Promise<void> {
  const { mempool } = chain;
  const queues: PoolTransaction[][] = [];
  for (const sender of mempool.senders()) {
    const nonce = Number((await chain.state.getAccount(createAddressFromString(sender)))?.nonce ?? 0n);
    const queue: PoolTransaction[] = [];
    for (const entry of mempool.forSender(sender)) {
      if (entry.tx.nonce < nonce) {
        evict(chain, entry.hash);
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
  while (queues.length > 0 && chain.config.blockGasLimit - gasUsed() >= 21_000n) {
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
    if (outcome !== "skip" && !INSUFFICIENT_BALANCE.test(String((outcome.error as Error)?.message))) evict(chain, entry.hash);
  }
}

function evict(chain: ChainContext, hash: Hex): void {
  if (chain.mempool.remove(hash)) chain.record({ type: "evict", hash });
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
