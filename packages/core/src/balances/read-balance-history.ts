import { readNativeBalance, type NetworkCode } from "@qc/chain";
import { listWalletFlowBlocks } from "@qc/db/queries";
import { findVisibleAsset } from "../assets/asset-record";
import { nativeAssetId } from "../assets/native-assets";
import type { ServiceDeps } from "../deps/service-deps";
import { findVault } from "../vaults/vault-record";
import { findWallet } from "../wallets/wallet-record";
import { chainUnavailable } from "./chain-errors";
import { windowStart } from "./summarize-daily-flows";

export interface BalanceHistoryDay {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** End-of-day balance in base units (today: the live balance). */
  balance: string;
  /** The block it was read at. */
  blockNumber: number;
}

export interface BalanceHistory {
  walletId: string;
  networkCode: NetworkCode;
  assetId: string;
  symbol: string;
  decimals: number;
  /** Oldest first, one per day of the window, today last. */
  days: BalanceHistoryDay[];
  queriedAt: string;
}

const DAY_MS = 86_400_000;

/**
 * A wallet's end-of-day balance of its home network's native asset over the last `days` UTC
 * days, read from the chain at past blocks: the balance changes only in blocks that hold the
 * wallet's transactions, so a day's closing balance is the balance at the highest block of its
 * completed transactions that day (fees included, as the chain charged them), a quiet day keeps
 * the day before's, the days before the window's first move take the balance just below its
 * block, and today is the live balance. The reads go as JSON-RPC batches (two requests). A node
 * that cannot answer (down, or without the state of an old block) is 503 UNAVAILABLE.
 */
export async function readBalanceHistory(
  deps: Pick<ServiceDeps, "db" | "chain" | "now">,
  input: { tenantId: string; walletId: string; days: number },
): Promise<BalanceHistory> {
  const wallet = await findWallet(deps.db, input.tenantId, input.walletId);
  const home = await findVault(deps.db, input.tenantId, wallet.vaultId);
  const networkCode = home.networkCode;
  const asset = await findVisibleAsset(deps.db, input.tenantId, nativeAssetId(networkCode));
  const now = deps.now();
  const since = windowStart(now, input.days);
  const moves = await listWalletFlowBlocks(deps.db, { tenantId: input.tenantId, walletId: wallet.id, networkCode, since });
  // Every read at once: one JSON-RPC batch (the window has at most `days` + 2 of them).
  const client = deps.chain.batchClient(networkCode);
  const read = async (blockNumber?: bigint) => readNativeBalance(client, { address: wallet.address, blockNumber });
  try {
    const firstBlock = moves.length > 0 ? Math.min(...moves.map((m) => m.firstBlock)) : null;
    const [live, before, ...closes] = await Promise.all([
      read(),
      firstBlock !== null && firstBlock > 0 ? read(BigInt(firstBlock - 1)) : Promise.resolve(null),
      ...moves.map((m) => read(BigInt(m.lastBlock))),
    ]);
    const closeByDay = new Map(moves.map((m, i) => [m.day, closes[i]!]));
    // Before the first move in the window: the balance below it, or (no move at all) the live one.
    let carried = before ?? live;
    const days: BalanceHistoryDay[] = [];
    for (let i = 0; i < input.days; i++) {
      const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      const isToday = i === input.days - 1;
      carried = isToday ? live : (closeByDay.get(day) ?? carried);
      days.push({ day, balance: carried.balance.toString(), blockNumber: Number(carried.blockNumber) });
    }
    return {
      walletId: wallet.id,
      networkCode,
      assetId: asset.id,
      symbol: asset.symbol,
      decimals: asset.decimals,
      days,
      queriedAt: now.toISOString(),
    };
  } catch (error) {
    throw chainUnavailable(networkCode, error);
  }
}
