import type { NetworkCode } from "@qc/chain";
import type { Executor } from "@qc/db";
import type { AssetKind } from "@qc/domain";
import { findVisibleAssetRow, listVisibleAssetIds, type AssetRow } from "@qc/db/queries";
import { AppError } from "../errors";

export interface AssetRecord {
  id: string;
  networkCode: NetworkCode;
  kind: AssetKind;
  symbol: string;
  name: string;
  decimals: number;
  contractAddress: string | null;
}

export function toAssetRecord(row: AssetRow): AssetRecord {
  return {
    id: row.id,
    networkCode: row.networkCode,
    kind: row.kind,
    symbol: row.symbol,
    name: row.name,
    decimals: row.decimals,
    contractAddress: row.contractAddress,
  };
}

/** One asset the tenant can see (a global native one or its own token), or 400 UNKNOWN_ASSET. */
export async function findVisibleAsset(db: Executor, tenantId: string, assetId: string): Promise<AssetRow> {
  const row = await findVisibleAssetRow(db, { tenantId, assetId });
  if (!row) throw new AppError("UNKNOWN_ASSET", `unknown asset ${assetId}`, { details: { assetId } });
  return row;
}

/**
 * Validates a wallet's `assetIds` against the network of its vault: each must be an asset the
 * tenant sees on that network (400 UNKNOWN_ASSET naming the first that is not). Deduplicated,
 * order kept.
 */
export async function resolveWalletAssetIds(
  db: Executor,
  tenantId: string,
  networkCode: NetworkCode,
  assetIds: string[],
): Promise<string[]> {
  const unique = [...new Set(assetIds)];
  if (unique.length === 0) return [];
  const known = new Set(await listVisibleAssetIds(db, { tenantId, networkCode, assetIds: unique }));
  const index = assetIds.findIndex((id) => !known.has(id));
  if (index >= 0) {
    throw new AppError("UNKNOWN_ASSET", `asset ${assetIds[index]} is not an asset of ${networkCode}`, {
      details: { assetId: assetIds[index], index, networkCode },
    });
  }
  return unique;
}
