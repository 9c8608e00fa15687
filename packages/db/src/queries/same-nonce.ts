import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { defineQuery } from "../hot-path/define-query";
import { transactions } from "../schema/transfers";
import type { TransactionNetworkCode, TransactionRow } from "./transactions";

// Every transaction of one (source wallet, network, nonce): an original, its replacements and
// cancellations (CONTRACT §17). Served by transactions_source_nonce_idx.

/** One nonce of a source, and the transaction asking about its others. */
export interface SameNonceKey {
  tenantId: string;
  sourceWalletId: string;
  networkCode: TransactionNetworkCode;
  nonce: number;
  /** The asking transaction, left out of the answer. */
  excludeId: string;
}

/**
 * The source's other OUTBOUND transactions of `nonce`, oldest first, whatever their status. Read
 * at every completion (whose siblings then end), so a prepared statement (../hot-path).
 */
export async function findSameNonceTransactions(db: Executor, key: SameNonceKey): Promise<TransactionRow[]> {
  return sameNonceQuery.on(db).execute({ ...key });
}
const sameNonceQuery = defineQuery("qc_find_same_nonce_transactions", (db) =>
  db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.tenantId, sql.placeholder("tenantId")),
        eq(transactions.sourceWalletId, sql.placeholder("sourceWalletId")),
        eq(transactions.networkCode, sql.placeholder("networkCode")),
        eq(transactions.nonce, sql.placeholder("nonce")),
        eq(transactions.direction, "OUTBOUND"),
        ne(transactions.id, sql.placeholder("excludeId")),
      ),
    )
    .orderBy(asc(transactions.id)),
);
