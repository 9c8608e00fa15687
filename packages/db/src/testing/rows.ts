import type { Executor } from "../client";
import { newTransactionRow, type NewTransactionRow, type TransactionRow } from "../queries/transactions";
import { tenants, vaults, wallets } from "../schema";
import { transactions, transactionStatusHistory } from "../schema/transfers";

/**
 * A transaction row exactly as given, without its trail (no status history, audit row or
 * event): tests only. Production creates transactions with `insertTransactionWithTrail`.
 */
export async function insertTransaction(db: Executor, row: NewTransactionRow): Promise<TransactionRow> {
  const [inserted] = await db.insert(transactions).values(row).returning();
  return inserted!;
}

/**
 * A status-history row on its own, as a plain insert: tests only (the statements written in SQL are
 * compared with it). Production writes each with its move (`moveTransactionWithTrail`) or create.
 */
export async function insertStatusHistory(db: Executor, row: typeof transactionStatusHistory.$inferInsert): Promise<void> {
  await db.insert(transactionStatusHistory).values(row);
}

/**
 * A tenant with one vault and one REGISTERED wallet on QUANTUM_SANDBOX, and `transfer`: a complete
 * row of a transfer from that wallet (1000 units to 0x22…22, 3 confirmations), `values` over it.
 * For statements that need a source: tests only.
 */
export async function insertTenantWithWallet(db: Executor): Promise<{
  tenantId: string;
  transfer: (values: Partial<NewTransactionRow> & { externalId: string; status: TransactionRow["status"] }, now: Date) => TransactionRow;
}> {
  const [tenant] = await db.insert(tenants).values({ name: "A" }).returning();
  const tenantId = tenant!.id;
  const [vault] = await db.insert(vaults).values({ tenantId, networkCode: "QUANTUM_SANDBOX", name: "v" }).returning();
  const [wallet] = await db
    .insert(wallets)
    .values({ tenantId, vaultId: vault!.id, type: "REGISTERED", address: "0x" + "11".repeat(20), publicKey: "0x" + "ab".repeat(32) })
    .returning();
  const walletId = wallet!.id;
  const transfer = (values: Partial<NewTransactionRow> & { externalId: string; status: TransactionRow["status"] }, now: Date) =>
    newTransactionRow(
      {
        tenantId,
        networkCode: "QUANTUM_SANDBOX",
        chainId: 7,
        sourceWalletId: walletId,
        sourceAddress: "0x" + "11".repeat(20),
        destinationAddress: "0x" + "22".repeat(20),
        amount: "1000",
        requiredConfirmations: 3,
        ...values,
      },
      now,
    );
  return { tenantId, transfer };
}
