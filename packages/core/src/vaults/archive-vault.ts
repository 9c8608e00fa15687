import { and, eq, schema, type Database } from "@qc/db";
import { emitEvent } from "../events/emit-event";
import { auditCustody, type CustodyActor } from "./custody-actor";
import { findVault, toVaultRecord, type VaultRecord } from "./vault-record";

/**
 * ACTIVE → ARCHIVED with one conditional UPDATE, its audit row and the `vault.archived` event
 * in one transaction. Idempotent: archiving an archived vault returns it unchanged and emits
 * nothing. Its wallets stay readable; it takes no new wallets.
 */
export async function archiveVault(
  deps: { db: Database; now(): Date },
  input: { tenantId: string; vaultId: string; actor: CustodyActor },
): Promise<VaultRecord> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const [row] = await tx
      .update(schema.vaults)
      .set({ status: "ARCHIVED", archivedAt: now, updatedAt: now })
      .where(and(eq(schema.vaults.id, input.vaultId), eq(schema.vaults.tenantId, input.tenantId), eq(schema.vaults.status, "ACTIVE")))
      .returning();
    if (!row) return toVaultRecord(await findVault(tx, input.tenantId, input.vaultId));
    const record = toVaultRecord(row);
    await auditCustody(tx, input.actor, input.tenantId, "vault.archived", { type: "vault", id: row.id });
    await emitEvent(tx, input.tenantId, "vault.archived", { vault: record });
    return record;
  });
}
