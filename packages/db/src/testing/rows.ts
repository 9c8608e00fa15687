import type { Executor } from "../client";
import type { NewTransactionRow, TransactionRow } from "../queries/transactions";
import { transactions } from "../schema/transfers";

/**
 * A transaction row exactly as given, without its trail (no status history, audit row or
 * event): tests only. Production creates transactions with `insertTransactionWithTrail`.
 */
export async function insertTransaction(db: Executor, row: NewTransactionRow): Promise<TransactionRow> {
  const [inserted] = await db.insert(transactions).values(row).returning();
  return inserted!;
}
