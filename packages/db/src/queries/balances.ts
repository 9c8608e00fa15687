import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import type { AssetRow } from "./assets";

type BalanceNetworkCode = AssetRow["networkCode"];

/** One balance to read: a wallet's placement on a network and one asset it holds there. */
export interface BalancePlacementRow {
  walletId: string;
  address: string;
  vaultId: string;
  vaultName: string;
  networkCode: BalanceNetworkCode;
  assetId: string;
  assetKind: AssetRow["kind"];
  symbol: string;
  name: string;
  decimals: number;
  contractAddress: string | null;
}

/**
 * Every balance the tenant's overview reads: each placement of each of its wallets (archived
 * ones too: they may still hold funds) with the network's native asset and the wallet's tracked
 * tokens of that network, by network, vault, wallet and asset. At most `limit` rows.
 */
export async function listBalancePlacements(db: Executor, params: { tenantId: string; limit: number }): Promise<BalancePlacementRow[]> {
  const result = await db.execute<{
    wallet_id: string;
    address: string;
    vault_id: string;
    vault_name: string;
    network_code: BalanceNetworkCode;
    asset_id: string;
    asset_kind: AssetRow["kind"];
    symbol: string;
    name: string;
    decimals: number;
    contract_address: string | null;
  }>(sql`
    select w.id as wallet_id, w.address, l.vault_id, v.name as vault_name, l.network_code,
      a.id as asset_id, a.kind as asset_kind, a.symbol, a.name, a.decimals, a.contract_address
    from wallet_network_links l
    join wallets w on w.id = l.wallet_id and w.tenant_id = ${params.tenantId}
    join vaults v on v.id = l.vault_id and v.tenant_id = ${params.tenantId}
    join assets a on a.network_code = l.network_code
      and (a.kind = 'NATIVE' or (a.tenant_id = ${params.tenantId} and a.id = any(w.asset_ids)))
    where l.tenant_id = ${params.tenantId}
    order by l.network_code, l.vault_id, w.id, a.kind, a.id
    limit ${params.limit}`);
  return result.rows.map((r) => ({
    walletId: r.wallet_id,
    address: r.address,
    vaultId: r.vault_id,
    vaultName: r.vault_name,
    networkCode: r.network_code,
    assetId: r.asset_id,
    assetKind: r.asset_kind,
    symbol: r.symbol,
    name: r.name,
    decimals: Number(r.decimals),
    contractAddress: r.contract_address,
  }));
}

/** One day's moves of one asset: base units summed in numeric, as decimal integer strings. */
export interface DailyFlowRow {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  assetId: string;
  networkCode: BalanceNetworkCode;
  symbol: string;
  decimals: number;
  outflow: string;
  inflow: string;
}

/**
 * The tenant's value moved per UTC day and asset since `since`, by the day each transaction was
 * COMPLETED: outflows are its OUTBOUND transactions (transfers, replacements, deployments with
 * value), inflows its deposits (`DEPOSIT`, INBOUND). Sums are numeric, returned as text: exact
 * for any uint256. Transactions without an asset (a token the tenant has not added) are left out.
 */
export async function sumDailyFlows(db: Executor, params: { tenantId: string; since: Date }): Promise<DailyFlowRow[]> {
  const result = await db.execute<{
    day: string;
    asset_id: string;
    network_code: BalanceNetworkCode;
    symbol: string;
    decimals: number;
    outflow: string;
    inflow: string;
  }>(sql`
    select to_char(date_trunc('day', t.completed_at at time zone 'UTC'), 'YYYY-MM-DD') as day, t.asset_id,
      a.network_code, a.symbol, a.decimals,
      coalesce(sum(t.amount) filter (where t.direction = 'OUTBOUND'), 0)::text as outflow,
      coalesce(sum(t.amount) filter (where t.direction = 'INBOUND' and t.type = 'DEPOSIT'), 0)::text as inflow
    from transactions t
    join assets a on a.id = t.asset_id
    where t.tenant_id = ${params.tenantId} and t.status = 'COMPLETED' and t.completed_at >= ${params.since.toISOString()}
    group by 1, 2, 3, 4, 5
    order by 1, 2`);
  return result.rows.map((r) => ({
    day: r.day,
    assetId: r.asset_id,
    networkCode: r.network_code,
    symbol: r.symbol,
    decimals: Number(r.decimals),
    outflow: r.outflow,
    inflow: r.inflow,
  }));
}

/** The last block, per UTC day, at which a wallet's completed transaction moved value on a network. */
export interface WalletFlowBlockRow {
  day: string;
  /** The highest block of the day's completed transactions (either side). */
  lastBlock: number;
  /** The lowest one: the balance before the window's first move is read just below it. */
  firstBlock: number;
}

/**
 * The days since `since` (UTC, by completion) on which the wallet's COMPLETED transactions — sent
 * from it, or deposits to it — were mined on `networkCode`, with their lowest and highest block.
 */
export async function listWalletFlowBlocks(
  db: Executor,
  params: { tenantId: string; walletId: string; networkCode: BalanceNetworkCode; since: Date },
): Promise<WalletFlowBlockRow[]> {
  const result = await db.execute<{ day: string; last_block: string; first_block: string }>(sql`
    select to_char(date_trunc('day', t.completed_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
      max(t.block_number)::text as last_block, min(t.block_number)::text as first_block
    from transactions t
    where t.tenant_id = ${params.tenantId} and t.network_code = ${params.networkCode}
      and (t.source_wallet_id = ${params.walletId} or t.destination_wallet_id = ${params.walletId})
      and t.status = 'COMPLETED' and t.block_number is not null and t.completed_at >= ${params.since.toISOString()}
    group by 1
    order by 1`);
  return result.rows.map((r) => ({ day: r.day, lastBlock: Number(r.last_block), firstBlock: Number(r.first_block) }));
}
