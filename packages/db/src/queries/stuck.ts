import { and, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { transactions } from "../schema/transfers";
import type { TransactionRow } from "./transactions";

/**
 * CONTRACT §17's `stuck`: set once, only while the transaction is still BROADCASTING (the
 * conditional UPDATE … WHERE stuck = false AND status = 'BROADCASTING'). The row when this call
 * set it; undefined when it was set already or the transaction moved on.
 */
export async function markTransactionStuck(
  db: Executor,
  key: { tenantId: string; transactionId: string; at: Date },
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ stuck: true, updatedAt: key.at })
    .where(
      and(
        eq(transactions.id, key.transactionId),
        eq(transactions.tenantId, key.tenantId),
        eq(transactions.status, "BROADCASTING"),
        eq(transactions.stuck, false),
      ),
    )
    .returning();
  return row;
}
