import { and, desc, eq, lt, sql, type Placeholder } from "drizzle-orm";
import type { Executor } from "../client";
import { defineQuery, defineRead } from "../hot-path/define-query";
import { assets, wallets } from "../schema/custody";
import { transactions } from "../schema/transfers";
import { assetVisibleTo } from "./assets";
import type { TransactionRow, TransactionStatusValue } from "./transactions";

// Signing and broadcast (the back half of the pipeline): what signers poll and what signature
// verification and broadcast read.

/** What signature verification and broadcast read beside the transaction: its source wallet's key and its asset. */
export interface SigningSourceRow {
  id: string;
  type: (typeof wallets.$inferSelect)["type"];
  status: (typeof wallets.$inferSelect)["status"];
  address: string;
  publicKey: string | null;
}

export interface SigningAssetRow {
  kind: (typeof assets.$inferSelect)["kind"];
  contractAddress: string | null;
}

export interface TransactionForSigning {
  transaction: TransactionRow;
  /** Null only if the wallet row is gone (never expected: kept by a foreign key). */
  wallet: SigningSourceRow | null;
  /** Null for a row without an asset (contract deployment) or an asset the tenant cannot see. */
  asset: SigningAssetRow | null;
}

function selectForSigning(db: Executor, tenantId: string | Placeholder) {
  return db
    .select({
      transaction: transactions,
      wallet: { id: wallets.id, type: wallets.type, status: wallets.status, address: wallets.address, publicKey: wallets.publicKey },
      asset: { kind: assets.kind, contractAddress: assets.contractAddress },
    })
    .from(transactions)
    .leftJoin(wallets, and(eq(wallets.id, transactions.sourceWalletId), eq(wallets.tenantId, tenantId)))
    .leftJoin(assets, and(eq(assets.id, transactions.assetId), assetVisibleTo(tenantId)));
}

/** The tenant's transaction with its source wallet's key and its asset, or undefined. */
export async function findTransactionForSigning(
  db: Executor,
  params: { tenantId: string; transactionId: string },
): Promise<TransactionForSigning | undefined> {
  // Every signature submission, verification and broadcast reads it: a prepared read
  // (../hot-path), so PostgreSQL plans the three-table join once per connection, not per call.
  const [row] = await findForSigningRead.on(db).execute({ tenantId: params.tenantId, transactionId: params.transactionId });
  return row;
}
const findForSigningRead = defineRead("qc_find_transaction_for_signing", (db) =>
  selectForSigning(db, sql.placeholder("tenantId")).where(
    and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))),
  ),
);

/** One page of the tenant's transactions in `status` with wallet key and asset, newest first: ids below `beforeId`. */
export function listTransactionsForSigning(
  db: Executor,
  params: { tenantId: string; status: TransactionStatusValue; beforeId?: string | undefined; limit: number },
): Promise<TransactionForSigning[]> {
  // What signers poll: prepared, one statement for the first page and one for the pages after it.
  // A page is not a read by key, so it stays on the pool (docs/decisions/foundation.md, "Pipelined reads").
  const query = params.beforeId ? listForSigningAfterQuery : listForSigningQuery;
  return query.on(db).execute({ tenantId: params.tenantId, status: params.status, beforeId: params.beforeId, limit: params.limit });
}
const listForSigning = (db: Executor, after: boolean) =>
  selectForSigning(db, sql.placeholder("tenantId"))
    .where(
      and(
        eq(transactions.tenantId, sql.placeholder("tenantId")),
        eq(transactions.status, sql.placeholder("status")),
        after ? lt(transactions.id, sql.placeholder("beforeId")) : undefined,
      ),
    )
    .orderBy(desc(transactions.id))
    .limit(sql.placeholder("limit"));
const listForSigningQuery = defineQuery("qc_list_transactions_for_signing", (db) => listForSigning(db, false));
const listForSigningAfterQuery = defineQuery("qc_list_transactions_for_signing_after", (db) => listForSigning(db, true));

/**
 * One more send of the stored raw transaction, counted while the row is BROADCASTING (the count
 * bounds re-sends of a dropped transaction). Undefined when the row has moved on.
 */
export async function recordTransactionSend(
  db: Executor,
  params: { tenantId: string; transactionId: string; at: Date },
): Promise<TransactionRow | undefined> {
  const [row] = await recordTransactionSends(db, { rows: [params], at: params.at });
  return row;
}
/**
 * `recordTransactionSend` for many transactions at once (one statement, prepared: every broadcast
 * counts its sends here): the rows still BROADCASTING, counted.
 */
export async function recordTransactionSends(
  db: Executor,
  params: { rows: readonly { tenantId: string; transactionId: string }[]; at: Date },
): Promise<TransactionRow[]> {
  if (params.rows.length === 0) return [];
  return recordSendsQuery.on(db).execute({
    ids: params.rows.map((row) => row.transactionId),
    tenantIds: params.rows.map((row) => row.tenantId),
    at: params.at.toISOString(),
  });
}
const recordSendsQuery = defineQuery("qc_record_transaction_sends", (db) =>
  db
    .update(transactions)
    .set({ sendAttempts: sql`${transactions.sendAttempts} + 1`, updatedAt: sql`${sql.placeholder("at")}::timestamptz` })
    .where(
      and(
        sql`(${transactions.id}, ${transactions.tenantId}) in (select * from unnest(${sql.placeholder("ids")}::uuid[], ${sql.placeholder("tenantIds")}::uuid[]))`,
        eq(transactions.status, "BROADCASTING"),
      ),
    )
    .returning(),
);
