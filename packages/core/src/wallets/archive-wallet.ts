import { and, eq, schema, type Database } from "@qc/db";
import { auditCustody, type CustodyActor } from "../vaults/custody-actor";
import { findWallet, toWalletRecordOf, type WalletRecord } from "./wallet-record";

/**
 * ACTIVE → ARCHIVED (conditional UPDATE + audit row, one transaction); idempotent. An archived
 * wallet stays readable (record, balance) and can no longer be a transaction source.
 */
export async function archiveWallet(
  deps: { db: Database; now(): Date },
  input: { tenantId: string; walletId: string; actor: CustodyActor },
): Promise<WalletRecord> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const [row] = await tx
      .update(schema.wallets)
      .set({ status: "ARCHIVED", archivedAt: now, updatedAt: now })
      .where(and(eq(schema.wallets.id, input.walletId), eq(schema.wallets.tenantId, input.tenantId), eq(schema.wallets.status, "ACTIVE")))
      .returning();
    if (!row) return toWalletRecordOf(tx, await findWallet(tx, input.tenantId, input.walletId));
    await auditCustody(tx, input.actor, input.tenantId, "wallet.archived", { type: "wallet", id: row.id }, { address: row.address });
    return toWalletRecordOf(tx, row);
  });
}
