import type { Database } from "@qc/db";
import { findVault, toVaultRecord, type VaultRecord } from "./vault-record";

export async function getVault(deps: { db: Database }, input: { tenantId: string; vaultId: string }): Promise<VaultRecord> {
  return toVaultRecord(await findVault(deps.db, input.tenantId, input.vaultId));
}
