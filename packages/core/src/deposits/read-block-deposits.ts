import { ERC20_ABI, NETWORKS, type NetworkCode, type QuantumPublicClient } from "@qc/chain";
import type { DepositCandidate } from "@qc/db/queries";
import type { Hex } from "viem";
import { chainUnavailable } from "../balances/chain-errors";

/**
 * What the follower needs of the wallet directory (./wallet-directory's WalletDirectory is one):
 * the O(1) match of a canonical address to the wallets placed there, each with its placement
 * time, and (when it has one) a wait until it holds every committed placement.
 */
export interface DepositMatcher {
  lookup(networkCode: NetworkCode, address: string): readonly { tenantId: string; walletId: string; address: string; placedAt: Date }[];
  sync?(timeoutMs?: number): Promise<void>;
}

/** A block as the follower reads it: its identity and the deposits it carries to followed wallets. */
export interface BlockDeposits {
  number: number;
  hash: string;
  parentHash: string;
  /** Seconds since the epoch. */
  timestamp: number;
  deposits: DepositCandidate[];
}

const TRANSFER_EVENT = ERC20_ABI.find((item) => item.type === "event" && item.name === "Transfer")!;

/**
 * Reads one block: `getBlock` with its transactions (native value sent to a followed address) and
 * ONE `getLogs` by the block's hash for every ERC-20 `Transfer` of the block (topic0 only, decoded
 * strictly: an ERC-721 `Transfer`, whose value is indexed, does not decode and is skipped), each
 * matched in memory through the directory — two RPC calls per block whatever the number of
 * wallets (docs/deposits.md). A wallet counts from its placement: a block older than the
 * placement (to the second) credits nothing to it. Addresses are compared lower-case.
 */
export async function readBlockDeposits(
  deps: { client: QuantumPublicClient; matcher: DepositMatcher; requiredConfirmations: number },
  networkCode: NetworkCode,
  blockNumber: number,
): Promise<BlockDeposits> {
  const { client, matcher } = deps;
  try {
    const block = await client.getBlock({ blockNumber: BigInt(blockNumber), includeTransactions: true });
    const logs = await client.getLogs({ blockHash: block.hash!, event: TRANSFER_EVENT, strict: true });
    const timestamp = Number(block.timestamp);
    const chainId = NETWORKS[networkCode].chainId;
    const followed = (address: string) =>
      matcher.lookup(networkCode, address.toLowerCase()).filter((w) => Math.floor(w.placedAt.getTime() / 1000) <= timestamp);
    const deposits: DepositCandidate[] = [];
    const valueTransfers = block.transactions.filter((tx) => tx.to && tx.value > 0n && followed(tx.to).length > 0);
    const reverted = await revertedCalls(client, valueTransfers);
    for (const tx of valueTransfers) {
      if (reverted.has(tx.hash)) continue;
      for (const wallet of followed(tx.to!)) {
        deposits.push({
          tenantId: wallet.tenantId,
          walletId: wallet.walletId,
          chainId,
          sourceAddress: tx.from.toLowerCase(),
          destinationAddress: wallet.address,
          tokenAddress: null,
          logIndex: null,
          amount: tx.value.toString(),
          chainTxHash: tx.hash.toLowerCase(),
          requiredConfirmations: deps.requiredConfirmations,
        });
      }
    }
    for (const log of logs) {
      if (log.removed || log.args.value === 0n) continue;
      for (const wallet of followed(log.args.to)) {
        deposits.push({
          tenantId: wallet.tenantId,
          walletId: wallet.walletId,
          chainId,
          sourceAddress: log.args.from.toLowerCase(),
          destinationAddress: wallet.address,
          tokenAddress: log.address.toLowerCase(),
          logIndex: log.logIndex,
          amount: log.args.value.toString(),
          chainTxHash: (log.transactionHash as Hex).toLowerCase(),
          requiredConfirmations: deps.requiredConfirmations,
        });
      }
    }
    return { number: blockNumber, hash: block.hash!.toLowerCase(), parentHash: block.parentHash.toLowerCase(), timestamp, deposits };
  } catch (error) {
    throw chainUnavailable(networkCode, error);
  }
}

/**
 * The value transfers among `transactions` that reverted (their value did not move), reading the
 * receipt only of those that may have run code: a call with data, or more than a transfer's
 * 21,000 gas (the recipient may be a contract: a watch-only address can be anything). A plain
 * transfer is taken as done without its receipt (docs/deposits.md says when that is wrong).
 */
async function revertedCalls(
  client: QuantumPublicClient,
  transactions: readonly { hash: Hex; input: Hex; gas: bigint }[],
): Promise<Set<Hex>> {
  const calls = transactions.filter((tx) => tx.input !== "0x" || tx.gas !== 21_000n);
  const receipts = await Promise.all(calls.map((tx) => client.getTransactionReceipt({ hash: tx.hash })));
  return new Set(receipts.filter((r) => r.status !== "success").map((r) => r.transactionHash));
}

/** The chain's hash at `blockNumber` (the walk back to a common ancestor), or null above the head. */
export async function readBlockHash(client: QuantumPublicClient, networkCode: NetworkCode, blockNumber: number): Promise<string | null> {
  try {
    const block = await client.getBlock({ blockNumber: BigInt(blockNumber) }).catch((error: unknown) => {
      if ((error as { name?: string }).name === "BlockNotFoundError") return null;
      throw error;
    });
    return block?.hash ? block.hash.toLowerCase() : null;
  } catch (error) {
    throw chainUnavailable(networkCode, error);
  }
}
