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

/**
 * Up to `limit` of the network's transactions awaiting a signature past their signing deadline
 * (PENDING_SIGNATURE, `signing_deadline <= at`), every tenant's, the most overdue first: what the
 * block watcher's sweep expires (`expireTransaction`). The partial index
 * transactions_pending_signature_deadline_idx holds only rows awaiting a signature; prepared.
 */
export async function listOverdueSigning(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; at: Date; limit: number },
): Promise<{ id: string; tenantId: string }[]> {
  return overdueSigningQuery.on(db).execute({ networkCode: params.networkCode, at: params.at.toISOString(), limit: params.limit });
}
const overdueSigningQuery = defineQuery("qc_list_overdue_signing", (db) =>
  db
    .select({ id: transactions.id, tenantId: transactions.tenantId })
    .from(transactions)
    .where(
      and(
        eq(transactions.networkCode, sql.placeholder("networkCode")),
        // A constant, as the partial index's predicate, for the generic plan to use it.
        sql`${transactions.status} = 'PENDING_SIGNATURE'`,
        sql`${transactions.signingDeadline} <= ${sql.placeholder("at")}::timestamptz`,
      ),
    )
    .orderBy(asc(transactions.signingDeadline))
    .limit(sql.placeholder("limit")),
);
