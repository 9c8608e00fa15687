import { and, desc, eq, inArray, isNull, lt, or, type Placeholder } from "drizzle-orm";
import type { Executor } from "../client";
import { assets } from "../schema/custody";

export type AssetRow = typeof assets.$inferSelect;
type AssetNetworkCode = AssetRow["networkCode"];

/** Assets a tenant sees: the global native ones (no tenant) and its own tokens. */
export const assetVisibleTo = (tenantId: string | Placeholder) => or(isNull(assets.tenantId), eq(assets.tenantId, tenantId));

/** An asset the tenant can see, or undefined. */
export async function findVisibleAssetRow(db: Executor, params: { tenantId: string; assetId: string }): Promise<AssetRow | undefined> {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, params.assetId), assetVisibleTo(params.tenantId)));
  return row;
}

/** Which of `assetIds` are assets the tenant sees on `networkCode`. */
export async function listVisibleAssetIds(
  db: Executor,
  params: { tenantId: string; networkCode: AssetNetworkCode; assetIds: string[] },
): Promise<string[]> {
  if (params.assetIds.length === 0) return [];
  const rows = await db
    .select({ id: assets.id })
    .from(assets)
    .where(and(inArray(assets.id, params.assetIds), eq(assets.networkCode, params.networkCode), assetVisibleTo(params.tenantId)));
  return rows.map((r) => r.id);
}

/** One page of the assets the tenant sees, by id descending: ids below `beforeId`, at most `limit` rows. */
export function listVisibleAssetRows(
  db: Executor,
  params: { tenantId: string; networkCode?: AssetNetworkCode | undefined; beforeId?: string | undefined; limit: number },
): Promise<AssetRow[]> {
  return db
    .select()
    .from(assets)
    .where(
      and(
        assetVisibleTo(params.tenantId),
        params.networkCode ? eq(assets.networkCode, params.networkCode) : undefined,
        params.beforeId ? lt(assets.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(assets.id))
    .limit(params.limit);
}

/** The tenant's token at `contractAddress` (canonical form) on `networkCode`, or undefined. */
export async function findTokenAsset(
  db: Executor,
  params: { tenantId: string; networkCode: AssetNetworkCode; contractAddress: string },
): Promise<AssetRow | undefined> {
  const [row] = await db
    .select()
    .from(assets)
    .where(
      and(
        eq(assets.tenantId, params.tenantId),
        eq(assets.networkCode, params.networkCode),
        eq(assets.contractAddress, params.contractAddress),
      ),
    );
  return row;
}

export async function insertTokenAsset(
  db: Executor,
  params: {
    tenantId: string;
    networkCode: AssetNetworkCode;
    symbol: string;
    name: string;
    decimals: number;
    contractAddress: string;
    createdAt: Date;
  },
): Promise<AssetRow> {
  const [row] = await db
    .insert(assets)
    .values({ ...params, kind: "TOKEN" })
    .returning();
  return row!;
}
