import type { NetworkCode } from "@qc/chain";
import { and, desc, eq, lt, schema, type Database } from "@qc/db";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toAssetRecord, visibleTo, type AssetRecord } from "./asset-record";

/** Global native assets and the tenant's tokens, optionally of one network; by id, descending. */
export async function listAssets(
  deps: { db: Database },
  input: PageRequest & { tenantId: string; networkCode?: NetworkCode },
): Promise<{ assets: AssetRecord[]; page: PageInfo }> {
  const after = decodePageCursor(input.cursor);
  const rows = await deps.db
    .select()
    .from(schema.assets)
    .where(
      and(
        visibleTo(input.tenantId),
        input.networkCode ? eq(schema.assets.networkCode, input.networkCode) : undefined,
        after ? lt(schema.assets.id, after) : undefined,
      ),
    )
    .orderBy(desc(schema.assets.id))
    .limit(input.limit + 1);
  const { items, page } = toPage(rows, input.limit);
  return { assets: items.map(toAssetRecord), page };
}
