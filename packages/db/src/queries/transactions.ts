import { and, desc, eq, gte, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { completeRow } from "../hot-path/columns";
import { defineQuery, defineRead } from "../hot-path/define-query";
import { assetVisibleTo } from "./assets";
import { updateWhereStatus } from "./status";
import { assets, walletNetworkLinks, wallets } from "../schema/custody";
import { transactions, transactionStatusHistory } from "../schema/transfers";

export type TransactionRow = typeof transactions.$inferSelect;
export type NewTransactionRow = typeof transactions.$inferInsert;
export type TransactionStatusValue = TransactionRow["status"];
export type TransactionSubStatusValue = NonNullable<TransactionRow["subStatus"]>;

/** The tenant's transaction, or undefined (also for another tenant's id). */
export async function findTransaction(db: Executor, tenantId: string, transactionId: string): Promise<TransactionRow | undefined> {
  // GET /v1/transactions/{id} (what integrators poll) and every pipeline step's re-read: a
  // prepared read (../hot-path), pipelined outside a transaction.
  const [row] = await findTransactionRead.on(db).execute({ transactionId, tenantId });
  return row;
}
const findTransactionRead = defineRead("qc_find_transaction", (db) =>
  db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId")))),
);

/**
 * The complete row an insert of `values` stores: every column the values leave out takes the
 * table's default as the schema declares it (`completeRow`), timestamps that default to now()
 * take `now` (the caller's clock). For `insertTransactionWithTrail`, which names every column.
 */
export function newTransactionRow(values: NewTransactionRow, now: Date): TransactionRow {
  return completeRow(transactions, values, now);
}

/** A transaction's status changes, oldest first. */
export function listStatusHistory(db: Executor, tenantId: string, transactionId: string) {
  return db
    .select()
    .from(transactionStatusHistory)
    .where(and(eq(transactionStatusHistory.tenantId, tenantId), eq(transactionStatusHistory.transactionId, transactionId)))
    .orderBy(transactionStatusHistory.id);
}

/** Locks the transaction's row for the rest of the database transaction; its status, or undefined. */
export async function lockTransactionStatus(
  db: Executor,
  tenantId: string,
  transactionId: string,
): Promise<TransactionStatusValue | undefined> {
  // Every status change takes it first: prepared (../hot-path), per pooled connection.
  const [row] = await lockTransactionStatusQuery.on(db).execute({ transactionId, tenantId });
  return row?.status;
}
const lockTransactionStatusQuery = defineQuery("qc_lock_transaction_status", (db) =>
  db
    .select({ status: transactions.status })
    .from(transactions)
    .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))))
    .for("update"),
);

/**
 * The confirmation count of a CONFIRMING transaction, only while its receipt is still in the
 * block stored on the row (a reorg is a status change, not an update). Undefined otherwise.
 */
export async function updateTransactionConfirmations(
  db: Executor,
  params: { tenantId: string; transactionId: string; blockHash: string; confirmations: number; at: Date },
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ confirmations: params.confirmations, updatedAt: params.at })
    .where(
      and(
        eq(transactions.id, params.transactionId),
        eq(transactions.tenantId, params.tenantId),
        eq(transactions.status, "CONFIRMING"),
        eq(transactions.blockHash, params.blockHash),
      ),
    )
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------
// Create, checks, release for signing and the read routes (the front half of the pipeline).

export type TransactionNetworkCode = TransactionRow["networkCode"];

/**
 * Everything create reads about a transfer's intent, in one statement: the tenant's source
 * wallet, the vault it is placed in on `networkCode` (null when not placed there) and the asset
 * (null unless the tenant sees it: a global native asset or one of its own). Undefined when the
 * wallet is not the tenant's.
 */
export async function findTransferIntentRows(
  db: Executor,
  params: { tenantId: string; walletId: string; networkCode: TransactionNetworkCode; assetId: string },
): Promise<{ wallet: typeof wallets.$inferSelect; vaultId: string | null; asset: typeof assets.$inferSelect | null } | undefined> {
  // Every create runs this: a prepared statement (../hot-path).
  const [row] = await findTransferIntentQuery
    .on(db)
    .execute({ tenantId: params.tenantId, walletId: params.walletId, networkCode: params.networkCode, assetId: params.assetId });
  return row;
}
const findTransferIntentQuery = defineQuery("qc_find_transfer_intent", (db) =>
  db
    .select({ wallet: wallets, vaultId: walletNetworkLinks.vaultId, asset: assets })
    .from(wallets)
    .leftJoin(
      walletNetworkLinks,
      and(
        eq(walletNetworkLinks.walletId, wallets.id),
        eq(walletNetworkLinks.tenantId, sql.placeholder("tenantId")),
        eq(walletNetworkLinks.networkCode, sql.placeholder("networkCode")),
      ),
    )
    .leftJoin(assets, and(eq(assets.id, sql.placeholder("assetId")), assetVisibleTo(sql.placeholder("tenantId"))))
    .where(and(eq(wallets.id, sql.placeholder("walletId")), eq(wallets.tenantId, sql.placeholder("tenantId")))),
);

/** One page of the tenant's transactions, newest first, optionally filtered: ids below `beforeId`, at most `limit` rows. */
export function listTransactionRows(
  db: Executor,
  params: {
    tenantId: string;
    status?: TransactionStatusValue | undefined;
    type?: TransactionRow["type"] | undefined;
    sourceWalletId?: string | undefined;
    /** Either side: the source wallet, or a deposit's destination wallet. */
    walletId?: string | undefined;
    externalId?: string | undefined;
    /** One batch's transfers (CONTRACT §18): read through transactions_tenant_batch_idx. */
    batchId?: string | undefined;
    /**
     * The creation window, `createdFrom` inclusive and `createdTo` exclusive: with no other filter
     * it reads transactions_tenant_created_idx (tenant, created_at) for a narrow window.
     */
    createdFrom?: Date | undefined;
    createdTo?: Date | undefined;
    beforeId?: string | undefined;
    limit: number;
  },
): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.tenantId, params.tenantId),
        params.status ? eq(transactions.status, params.status) : undefined,
        params.type ? eq(transactions.type, params.type) : undefined,
        params.sourceWalletId ? eq(transactions.sourceWalletId, params.sourceWalletId) : undefined,
        params.walletId
          ? or(eq(transactions.sourceWalletId, params.walletId), eq(transactions.destinationWalletId, params.walletId))
          : undefined,
        params.externalId !== undefined ? eq(transactions.externalId, params.externalId) : undefined,
        params.batchId !== undefined ? eq(transactions.batchId, params.batchId) : undefined,
        params.createdFrom !== undefined ? gte(transactions.createdAt, params.createdFrom) : undefined,
        params.createdTo !== undefined ? lt(transactions.createdAt, params.createdTo) : undefined,
        params.beforeId ? lt(transactions.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(transactions.id))
    .limit(params.limit);
}

/**
 * Everything the transfer checks read about a transaction, in one statement (one round trip
 * instead of four): the row, its source wallet, the vault the wallet is placed in on the row's
 * network (null when it is not placed there any more) and its asset (null when the tenant
 * cannot see it, or for a row without an asset). Undefined when the transaction is not the tenant's.
 */
export async function findTransferCheckRows(
  db: Executor,
  params: { tenantId: string; transactionId: string },
): Promise<
  | {
      transaction: TransactionRow;
      wallet: typeof wallets.$inferSelect | null;
      vaultId: string | null;
      asset: typeof assets.$inferSelect | null;
    }
  | undefined
> {
  // Every transfer's checks (and each retry) read it: a prepared read, planned once per connection.
  const [row] = await findTransferCheckRowsRead.on(db).execute({ tenantId: params.tenantId, transactionId: params.transactionId });
  return row;
}
const findTransferCheckRowsRead = defineRead("qc_find_transfer_check_rows", (db) =>
  db
    .select({ transaction: transactions, wallet: wallets, vaultId: walletNetworkLinks.vaultId, asset: assets })
    .from(transactions)
    .leftJoin(wallets, and(eq(wallets.id, transactions.sourceWalletId), eq(wallets.tenantId, sql.placeholder("tenantId"))))
    .leftJoin(
      walletNetworkLinks,
      and(
        eq(walletNetworkLinks.walletId, transactions.sourceWalletId),
        eq(walletNetworkLinks.tenantId, sql.placeholder("tenantId")),
        eq(walletNetworkLinks.networkCode, transactions.networkCode),
      ),
    )
    .leftJoin(assets, and(eq(assets.id, transactions.assetId), assetVisibleTo(sql.placeholder("tenantId"))))
    .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId")))),
);

/**
 * One more failed screening attempt (provider down or answering garbage), counted while the
 * transfer is still in `status` (SUBMITTED for its checks; QUEUED or SIGNED when they are taken
 * again before release or broadcast); the new count, or undefined when the row has moved on.
 */
export async function recordScreeningAttempt(
  db: Executor,
  params: { tenantId: string; transactionId: string; at: Date; status?: TransactionStatusValue },
): Promise<number | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ screeningAttempts: sql`${transactions.screeningAttempts} + 1`, updatedAt: params.at })
    .where(
      and(
        eq(transactions.id, params.transactionId),
        eq(transactions.tenantId, params.tenantId),
        eq(transactions.status, params.status ?? "SUBMITTED"),
      ),
    )
    .returning({ screeningAttempts: transactions.screeningAttempts });
  return row?.screeningAttempts;
}

/** The conditional status UPDATE of one transaction (see `updateWhereStatus`): the row if this call moved it. */
export function updateTransactionWhereStatus(
  db: Executor,
  key: { tenantId: string; transactionId: string },
  expected: readonly TransactionStatusValue[],
  set: Partial<NewTransactionRow>,
): Promise<TransactionRow | undefined> {
  return updateWhereStatus(db, transactions, { id: key.transactionId, tenantId: key.tenantId }, expected, set);
}
