import { findVaultRow, type VaultRow } from "@qc/db/queries";
import type { Executor } from "@qc/db";
import type { z } from "zod";
import { AppError } from "../errors";
import type { vaultRecordSchema } from "../records/record-schemas";

export type VaultRecord = z.infer<typeof vaultRecordSchema>;

export function toVaultRecord(row: VaultRow): VaultRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    networkCode: row.networkCode,
    name: row.name,
    status: row.status,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The tenant's vault, or 404 NOT_FOUND (also for another tenant's id: no existence leak). */
export async function findVault(db: Executor, tenantId: string, vaultId: string): Promise<VaultRow> {
  const row = await findVaultRow(db, { tenantId, vaultId });
  if (!row) throw new AppError("NOT_FOUND", "vault not found");
  return row;
}

/**
 * The tenant's vault, share-locked for the rest of the transaction and refused when archived:
 * a concurrent archive (an UPDATE) waits for this transaction, so no wallet is added to a vault
 * after its archive committed.
 */
export async function lockWritableVault(tx: Executor, tenantId: string, vaultId: string): Promise<VaultRow> {
  const row = await findVaultRow(tx, { tenantId, vaultId, lock: "share" });
  if (!row) throw new AppError("NOT_FOUND", "vault not found");
  if (row.status === "ARCHIVED")
    throw new AppError("VAULT_ARCHIVED", "the vault is archived and takes no new wallets", { details: { vaultId } });
  return row;
}
