import type { NetworkCode } from "@qc/chain";
import { listVaultRows } from "@qc/db/queries";
import type { VaultStatus } from "@qc/domain";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toVaultRecord, type VaultRecord } from "./vault-record";

export interface ListVaultsInput extends PageRequest {
  tenantId: string;
  networkCode?: NetworkCode;
  status?: VaultStatus;
}

/** The tenant's vaults, newest first, optionally filtered by network and status. */
export async function listVaults(
  deps: Pick<ServiceDeps, "db">,
  input: ListVaultsInput,
): Promise<{ vaults: VaultRecord[]; page: PageInfo }> {
  const rows = await listVaultRows(deps.db, {
    tenantId: input.tenantId,
    networkCode: input.networkCode,
    status: input.status,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  return { vaults: items.map(toVaultRecord), page };
}
