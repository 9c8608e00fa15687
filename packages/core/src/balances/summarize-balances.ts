import { readErc20Balance, readNativeBalance, type NetworkCode } from "@qc/chain";
import { listBalancePlacements, type BalancePlacementRow } from "@qc/db/queries";
import { RPC_BATCH_SIZE, type ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { mapBounded } from "../map-bounded";
import { chainUnavailable } from "./chain-errors";

/** Balances read per overview, at most: beyond it the summary says `truncated` instead of reading without end. */
export const SUMMARY_READ_LIMIT = 2_000;
/** JSON-RPC batches in flight per network at once: enough to overlap round trips, few enough not to flood a provider. */
export const SUMMARY_BATCHES_IN_FLIGHT = 4;

export interface AssetTotal {
  assetId: string;
  networkCode: NetworkCode;
  symbol: string;
  name: string;
  decimals: number;
  /** Sum over the wallets, base units as a decimal integer string; null when the network could not be read. */
  balance: string | null;
  walletCount: number;
}

export interface NetworkReading {
  networkCode: NetworkCode;
  /** AVAILABLE: every balance of the network was read at `blockNumber`. UNAVAILABLE: none is shown. */
  status: "AVAILABLE" | "UNAVAILABLE";
  blockNumber: number | null;
  /** Why the network could not be read (the UNAVAILABLE error's message); null when available. */
  message: string | null;
}

export interface VaultBalances {
  vaultId: string;
  name: string;
  networkCode: NetworkCode;
  assets: AssetTotal[];
}

export interface BalanceSummary {
  networks: NetworkReading[];
  /** Per asset, across the organization. */
  totals: AssetTotal[];
  /** Per vault (a placement counts in the vault it is placed in), per asset. */
  vaults: VaultBalances[];
  /** More balances than SUMMARY_READ_LIMIT: the first ones only were read. */
  truncated: boolean;
  queriedAt: string;
}

type Reading = { status: "AVAILABLE"; blockNumber: bigint; balances: bigint[] } | { status: "UNAVAILABLE"; error: AppError };

/**
 * One network's balances at one block: the first read asks for the head and is answered at it,
 * every other read is pinned to that block (a consistent snapshot, and no `eth_blockNumber` per
 * read), sent as JSON-RPC batches of RPC_BATCH_SIZE calls, SUMMARY_BATCHES_IN_FLIGHT at a time.
 * Any failure makes the whole network UNAVAILABLE: a partial sum would read as a loss.
 */
async function readNetwork(deps: Pick<ServiceDeps, "chain">, networkCode: NetworkCode, rows: BalancePlacementRow[]): Promise<Reading> {
  const readOne = (row: BalancePlacementRow, blockNumber?: bigint) =>
    row.assetKind === "TOKEN"
      ? readErc20Balance(client, { token: row.contractAddress!, owner: row.address, blockNumber })
      : readNativeBalance(client, { address: row.address, blockNumber });
  let client: ReturnType<ServiceDeps["chain"]["batchClient"]>;
  try {
    client = deps.chain.batchClient(networkCode);
    const first = await readOne(rows[0]!);
    const batches: BalancePlacementRow[][] = [];
    for (let i = 1; i < rows.length; i += RPC_BATCH_SIZE) batches.push(rows.slice(i, i + RPC_BATCH_SIZE));
    // A batch's reads start in one tick, so the client sends them as one request.
    const read = await mapBounded(batches, SUMMARY_BATCHES_IN_FLIGHT, (batch) =>
      Promise.all(batch.map(async (row) => (await readOne(row, first.blockNumber)).balance)),
    );
    return { status: "AVAILABLE", blockNumber: first.blockNumber, balances: [first.balance, ...read.flat()] };
  } catch (error) {
    return { status: "UNAVAILABLE", error: chainUnavailable(networkCode, error) };
  }
}

/**
 * What the tenant holds, read live from the chains: per asset across the organization and per
 * vault, from every placement of every wallet (the network's native asset and the wallet's tracked
 * tokens), as GET /v1/wallets/{id}/balance reads one. Networks are read in parallel, each at one
 * block; a network that cannot be read is reported UNAVAILABLE with null sums, never as zero.
 */
export async function summarizeBalances(
  deps: Pick<ServiceDeps, "db" | "chain" | "now">,
  input: { tenantId: string },
): Promise<BalanceSummary> {
  const rows = await listBalancePlacements(deps.db, { tenantId: input.tenantId, limit: SUMMARY_READ_LIMIT + 1 });
  const truncated = rows.length > SUMMARY_READ_LIMIT;
  if (truncated) rows.length = SUMMARY_READ_LIMIT;
  const byNetwork = new Map<NetworkCode, BalancePlacementRow[]>();
  for (const row of rows) {
    const list = byNetwork.get(row.networkCode);
    if (list) list.push(row);
    else byNetwork.set(row.networkCode, [row]);
  }
  const readings = new Map(
    await Promise.all(
      [...byNetwork].map(async ([networkCode, list]) => [networkCode, await readNetwork(deps, networkCode, list)] as const),
    ),
  );

  const totals = new Map<string, AssetTotal & { sum: bigint }>();
  const vaults = new Map<string, VaultBalances & { sums: Map<string, AssetTotal & { sum: bigint }> }>();
  const add = (into: Map<string, AssetTotal & { sum: bigint }>, row: BalancePlacementRow, amount: bigint | null) => {
    const entry = into.get(row.assetId) ?? {
      assetId: row.assetId,
      networkCode: row.networkCode,
      symbol: row.symbol,
      name: row.name,
      decimals: row.decimals,
      balance: null,
      walletCount: 0,
      sum: 0n,
    };
    entry.walletCount += 1;
    if (amount !== null) entry.sum += amount;
    into.set(row.assetId, entry);
  };
  for (const [networkCode, list] of byNetwork) {
    const reading = readings.get(networkCode)!;
    list.forEach((row, i) => {
      const amount = reading.status === "AVAILABLE" ? reading.balances[i]! : null;
      add(totals, row, amount);
      const vault = vaults.get(row.vaultId) ?? { vaultId: row.vaultId, name: row.vaultName, networkCode, assets: [], sums: new Map() };
      add(vault.sums, row, amount);
      vaults.set(row.vaultId, vault);
    });
  }
  const finish = (entry: AssetTotal & { sum: bigint }): AssetTotal => {
    const { sum, ...total } = entry;
    return { ...total, balance: readings.get(entry.networkCode)!.status === "AVAILABLE" ? sum.toString() : null };
  };
  return {
    networks: [...readings].map(([networkCode, reading]) =>
      reading.status === "AVAILABLE"
        ? { networkCode, status: "AVAILABLE", blockNumber: Number(reading.blockNumber), message: null }
        : { networkCode, status: "UNAVAILABLE", blockNumber: null, message: reading.error.message },
    ),
    totals: [...totals.values()].map(finish),
    vaults: [...vaults.values()].map(({ sums, ...vault }) => ({ ...vault, assets: [...sums.values()].map(finish) })),
    truncated,
    queriedAt: deps.now().toISOString(),
  };
}
