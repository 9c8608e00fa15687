import type { ServiceDeps } from "../deps/service-deps";
import { findVault, toVaultRecord, type VaultRecord } from "./vault-record";

export async function getVault(deps: Pick<ServiceDeps, "db">, input: { tenantId: string; vaultId: string }): Promise<VaultRecord> {
  return toVaultRecord(await findVault(deps.db, input.tenantId, input.vaultId));
}
