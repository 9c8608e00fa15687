import type { NetworkCode } from "@qc/chain";
import { and, eq, schema, type Executor } from "@qc/db";
import { AppError } from "../errors";

type Row = typeof schema.vaults.$inferSelect;

export interface VaultRecord {
  id: string;
  tenantId: string;
  networkCode: NetworkCode;
  name: string;
  status: "ACTIVE" | "ARCHIVED";
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export function toVaultRecord(row: Row): VaultRecord {
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
export async function findVault(db: Executor, tenantId: string, vaultId: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(schema.vaults)
    .where(and(eq(schema.vaults.id, vaultId), eq(schema.vaults.tenantId, tenantId)));
  if (!row) throw new AppError("NOT_FOUND", "vault not found");
  return row;
}

/**
 * The tenant's vault, share-locked for the rest of the transaction and refused when archived:
 * a concurrent archive (an UPDATE) waits for this transaction, so no wallet is added to a vault
 * after its archive committed.
 */
export async function lockWritableVault(tx: Executor, tenantId: string, vaultId: string): Promise<Row> {
  const [row] = await tx
    .select()
    .from(schema.vaults)
    .where(and(eq(schema.vaults.id, vaultId), eq(schema.vaults.tenantId, tenantId)))
    .for("share");
  if (!row) throw new AppError("NOT_FOUND", "vault not found");
  if (row.status === "ARCHIVED") throw new AppError("VAULT_ARCHIVED", "the vault is archived and takes no new wallets", { details: { vaultId } });
  return row;
}
