import type { NetworkCode } from "@qc/chain";
import { listVisibleAssetRows } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toAssetRecord, type AssetRecord } from "./asset-record";

/** Global native assets and the tenant's tokens, optionally of one network; by id, descending. */
export async function listAssets(
  deps: Pick<ServiceDeps, "db">,
  input: PageRequest & { tenantId: string; networkCode?: NetworkCode },
): Promise<{ assets: AssetRecord[]; page: PageInfo }> {
  const rows = await listVisibleAssetRows(deps.db, {
    tenantId: input.tenantId,
    networkCode: input.networkCode,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  return { assets: items.map(toAssetRecord), page };
}
