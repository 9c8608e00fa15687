import type { NetworkCode } from "@qc/chain";
import { and, eq, inArray, isNull, or, schema, type Executor } from "@qc/db";
import { AppError } from "../errors";

type Row = typeof schema.assets.$inferSelect;

export interface AssetRecord {
  id: string;
  networkCode: NetworkCode;
  kind: "NATIVE" | "TOKEN";
  symbol: string;
  name: string;
  decimals: number;
  contractAddress: string | null;
}

export function toAssetRecord(row: Row): AssetRecord {
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

/** Assets a tenant sees: the global native ones and its own tokens. */
export function visibleTo(tenantId: string) {
  return or(isNull(schema.assets.tenantId), eq(schema.assets.tenantId, tenantId));
}

/** One asset the tenant can see, or 400 UNKNOWN_ASSET. */
export async function findVisibleAsset(db: Executor, tenantId: string, assetId: string): Promise<Row> {
  const [row] = await db.select().from(schema.assets).where(and(eq(schema.assets.id, assetId), visibleTo(tenantId)));
  if (!row) throw new AppError("UNKNOWN_ASSET", `unknown asset ${assetId}`, { details: { assetId } });
  return row;
}

/**
 * Validates a wallet's `assetIds` against the network of its vault: each must be an asset the
 * tenant sees on that network (400 UNKNOWN_ASSET naming the first that is not). Deduplicated,
 * order kept.
 */
export async function resolveWalletAssetIds(db: Executor, tenantId: string, networkCode: NetworkCode, assetIds: string[]): Promise<string[]> {
  const unique = [...new Set(assetIds)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ id: schema.assets.id })
    .from(schema.assets)
    .where(and(inArray(schema.assets.id, unique), eq(schema.assets.networkCode, networkCode), visibleTo(tenantId)));
  const known = new Set(rows.map((r) => r.id));
  const index = assetIds.findIndex((id) => !known.has(id));
  if (index >= 0) {
    throw new AppError("UNKNOWN_ASSET", `asset ${assetIds[index]} is not an asset of ${networkCode}`, {
      details: { assetId: assetIds[index], index, networkCode },
    });
  }
  return unique;
}
