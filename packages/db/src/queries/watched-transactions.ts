import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { defineQuery } from "../hot-path/define-query";
import { transactions } from "../schema/transfers";
import type { TransactionNetworkCode, TransactionRow } from "./transactions";

/**
 * A page of the network's transfers the confirmation watcher follows (OUTBOUND, BROADCASTING or
 * CONFIRMING, with a hash), every tenant's, in id order after `afterId` (null: from the start).
 * The block watcher reads them once per new block; prepared (../hot-path).
 */
export async function listWatchedTransactions(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; afterId: string | null; limit: number },
): Promise<TransactionRow[]> {
  // The zero UUID sorts before every id: one statement for the first page and the next ones.
  return watchedQuery.on(db).execute({ networkCode: params.networkCode, afterId: params.afterId ?? ZERO_ID, limit: params.limit });
}
const ZERO_ID = "00000000-0000-0000-0000-000000000000";
const watchedQuery = defineQuery("qc_list_watched_transactions", (db) =>
  db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.networkCode, sql.placeholder("networkCode")),
        // Written as constants, not parameters: a prepared statement's generic plan can then use
        // the partial index transactions_outbound_watched_idx, whose predicate this repeats.
        sql`${transactions.direction} = 'OUTBOUND' and ${transactions.status} in ('BROADCASTING', 'CONFIRMING') and ${transactions.chainTxHash} is not null`,
        gt(transactions.id, sql.placeholder("afterId")),
      ),
    )
    .orderBy(asc(transactions.id))
    .limit(sql.placeholder("limit")),
);
