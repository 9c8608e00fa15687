import type { NetworkCode } from "@qc/chain";
import { and, desc, eq, lt, schema, type Database } from "@qc/db";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toVaultRecord, type VaultRecord } from "./vault-record";

export interface ListVaultsInput extends PageRequest {
  tenantId: string;
  networkCode?: NetworkCode;
  status?: "ACTIVE" | "ARCHIVED";
}

/** The tenant's vaults, newest first, optionally filtered by network and status. */
export async function listVaults(deps: { db: Database }, input: ListVaultsInput): Promise<{ vaults: VaultRecord[]; page: PageInfo }> {
  const after = decodePageCursor(input.cursor);
  const rows = await deps.db
    .select()
    .from(schema.vaults)
    .where(
      and(
        eq(schema.vaults.tenantId, input.tenantId),
        input.networkCode ? eq(schema.vaults.networkCode, input.networkCode) : undefined,
        input.status ? eq(schema.vaults.status, input.status) : undefined,
        after ? lt(schema.vaults.id, after) : undefined,
      ),
    )
    .orderBy(desc(schema.vaults.id))
    .limit(input.limit + 1);
  const { items, page } = toPage(rows, input.limit);
  return { vaults: items.map(toVaultRecord), page };
}
