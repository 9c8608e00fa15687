import { ENDED_WITHOUT_TRANSFER, NONCE_HOLDING_STATUSES, RESERVING_STATUSES } from "@qc/domain";
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, lte, notInArray, or, sql, type Placeholder } from "drizzle-orm";
import type { Executor } from "../client";
import { assetVisibleTo } from "./assets";
import { insertColumns, preparedQuery, preparedRead, preparedStatement, rowValues, shapeStatementName } from "./prepared";
import { updateWhereStatus } from "./status";
import type { AuditRow } from "./audit";
import { nextEventSequence, type InsertOutboxEventParams } from "./events";
import { assets, walletNetworkLinks, wallets } from "../schema/custody";
import { transactions, transactionStatusHistory } from "../schema/transfers";

export type TransactionRow = typeof transactions.$inferSelect;
export type NewTransactionRow = typeof transactions.$inferInsert;
export type TransactionStatusValue = TransactionRow["status"];
export type TransactionSubStatusValue = NonNullable<TransactionRow["subStatus"]>;

/** The tenant's transaction, or undefined (also for another tenant's id). */
export async function findTransaction(db: Executor, tenantId: string, transactionId: string): Promise<TransactionRow | undefined> {
  // GET /v1/transactions/{id} (what integrators poll) and every pipeline step's re-read: a
  // prepared read (./prepared), pipelined outside a transaction.
  const [row] = await preparedRead(db, "qc_find_transaction", (executor) =>
    executor
      .select()
      .from(transactions)
      .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))))
      .prepare("qc_find_transaction"),
  ).execute({ transactionId, tenantId });
  return row;
}

/**
 * A new transaction and its trail in one statement (one round trip, atomic on its own): the row,
 * exactly as given (every column; nothing left to a database default, so the caller's row is
 * what is stored), its first status-history entry, its audit row and its first outbox event
 * with the aggregate's next sequence. Data-modifying CTEs: the three follow-up inserts select
 * from the inserted row, so none of them is written without it. The job that follows is the
 * caller's to enqueue in the same database transaction.
 */
export async function insertTransactionWithTrail(
  db: Executor,
  params: {
    row: TransactionRow;
    history: { id: string; actorType: string; actorId: string | null };
    audit: AuditRow & { id: string };
    event: InsertOutboxEventParams & { id: string };
  },
): Promise<{ eventSequence: number }> {
  const { row, history, audit, event } = params;
  // Every create runs this: a named prepared statement (./prepared), its values by placeholder.
  const values: Record<string, unknown> = {
    historyId: history.id,
    historyActorType: history.actorType,
    historyActorId: history.actorId,
    auditId: audit.id,
    auditTenantId: audit.tenantId ?? null,
    auditActorType: audit.actorType,
    auditActorId: audit.actorId ?? null,
    auditAction: audit.action,
    auditTargetType: audit.targetType ?? null,
    auditTargetId: audit.targetId ?? null,
    auditRequestId: audit.requestId ?? null,
    auditIp: audit.ip ?? null,
    auditDetails: JSON.stringify(audit.details ?? {}),
    eventId: event.id,
    eventTenantId: event.tenantId,
    eventType: event.type,
    eventAggregateType: event.aggregateType,
    eventAggregateId: event.aggregateId,
    eventData: JSON.stringify(event.data),
  };
  Object.assign(values, rowValues(transactions, row, "row_"));
  const result = await preparedStatement<{ event_sequence: number }>(db, "qc_insert_transaction_with_trail", () => {
    const columns = insertColumns(transactions, "row_");
    return sql`
    with inserted as (
      insert into transactions (${columns.names}) values (${columns.placeholders})
      returning id, tenant_id, status, sub_status, status_reason, created_at
    ), history as (
      insert into transaction_status_history (id, tenant_id, transaction_id, from_status, to_status, sub_status, reason, actor_type, actor_id, created_at)
      select ${sql.placeholder("historyId")}, tenant_id, id, null, status, sub_status, status_reason, ${sql.placeholder("historyActorType")}, ${sql.placeholder("historyActorId")}, created_at from inserted
    ), audit as (
      insert into audit_events (id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, ip, details)
      select ${sql.placeholder("auditId")}, ${sql.placeholder("auditTenantId")}::uuid, ${sql.placeholder("auditActorType")}, ${sql.placeholder("auditActorId")}, ${sql.placeholder("auditAction")}, ${sql.placeholder("auditTargetType")},
             ${sql.placeholder("auditTargetId")}, ${sql.placeholder("auditRequestId")}, ${sql.placeholder("auditIp")}, ${sql.placeholder("auditDetails")}::jsonb
        from inserted
    ), event as (
      insert into event_outbox (id, tenant_id, type, aggregate_type, aggregate_id, sequence, data)
      select ${sql.placeholder("eventId")}, ${sql.placeholder("eventTenantId")}::uuid, ${sql.placeholder("eventType")}, ${sql.placeholder("eventAggregateType")}, ${sql.placeholder("eventAggregateId")},
             ${nextEventSequence("eventAggregateType", "eventAggregateId")}, ${sql.placeholder("eventData")}::jsonb
        from inserted
      returning sequence
    )
    select sequence as event_sequence from event`;
  }).execute(values);
  const [inserted] = result.rows;
  if (!inserted) throw new Error("the transaction insert wrote no event");
  return { eventSequence: Number(inserted.event_sequence) };
}

/** One status change's history row; every transition writes one: a statement named by its shape (`shapeStatementName`). */
export async function insertStatusHistory(db: Executor, row: typeof transactionStatusHistory.$inferInsert): Promise<void> {
  const query = db.insert(transactionStatusHistory).values(row);
  const name = shapeStatementName("insert", transactionStatusHistory, row);
  await (name ? query.prepare(name).execute() : query);
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
export async function lockTransactionStatus(db: Executor, tenantId: string, transactionId: string): Promise<TransactionStatusValue | undefined> {
  // Every status change takes it first: prepared (./prepared), per pooled connection.
  const [row] = await preparedQuery(db, "qc_lock_transaction_status", (executor) =>
    executor
      .select({ status: transactions.status })
      .from(transactions)
      .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))))
      .for("update")
      .prepare("qc_lock_transaction_status"),
  ).execute({ transactionId, tenantId });
  return row?.status;
}

// ---------------------------------------------------------------------------------------------
// Signing, broadcast and confirmations (the back half of the pipeline).

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
export async function findTransactionForSigning(db: Executor, params: { tenantId: string; transactionId: string }): Promise<TransactionForSigning | undefined> {
  // Every signature submission, verification and broadcast reads it: a prepared read
  // (./prepared), so PostgreSQL plans the three-table join once per connection, not per call.
  const [row] = await preparedRead(db, "qc_find_transaction_for_signing", (executor) =>
    selectForSigning(executor, sql.placeholder("tenantId"))
      .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))))
      .prepare("qc_find_transaction_for_signing"),
  ).execute({ tenantId: params.tenantId, transactionId: params.transactionId });
  return row;
}

/** One page of the tenant's transactions in `status` with wallet key and asset, newest first: ids below `beforeId`. */
export function listTransactionsForSigning(
  db: Executor,
  params: { tenantId: string; status: TransactionStatusValue; beforeId?: string | undefined; limit: number },
): Promise<TransactionForSigning[]> {
  // What signers poll: prepared, one statement for the first page and one for the pages after it.
  // A page is not a read by key, so it stays on the pool (docs/decisions/foundation.md, "Pipelined reads").
  const name = params.beforeId ? "qc_list_transactions_for_signing_after" : "qc_list_transactions_for_signing";
  return preparedQuery(db, name, (executor) =>
    selectForSigning(executor, sql.placeholder("tenantId"))
      .where(
        and(
          eq(transactions.tenantId, sql.placeholder("tenantId")),
          eq(transactions.status, sql.placeholder("status")),
          params.beforeId ? lt(transactions.id, sql.placeholder("beforeId")) : undefined,
        ),
      )
      .orderBy(desc(transactions.id))
      .limit(sql.placeholder("limit"))
      .prepare(name),
  ).execute({ tenantId: params.tenantId, status: params.status, beforeId: params.beforeId, limit: params.limit });
}

/**
 * One more send of the stored raw transaction, counted while the row is BROADCASTING (the count
 * bounds re-sends of a dropped transaction). Undefined when the row has moved on.
 */
export async function recordTransactionSend(db: Executor, params: { tenantId: string; transactionId: string; at: Date }): Promise<TransactionRow | undefined> {
  // Every broadcast counts one: prepared (./prepared).
  const [row] = await preparedQuery(db, "qc_record_transaction_send", (executor) =>
    executor
      .update(transactions)
      .set({ sendAttempts: sql`${transactions.sendAttempts} + 1`, updatedAt: sql`${sql.placeholder("at")}::timestamptz` })
      .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId")), eq(transactions.status, "BROADCASTING")))
      .returning()
      .prepare("qc_record_transaction_send"),
  ).execute({ transactionId: params.transactionId, tenantId: params.tenantId, at: params.at.toISOString() });
  return row;
}

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

type TransactionNetworkCode = TransactionRow["networkCode"];

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
  // Every create runs this: a prepared statement (./prepared).
  const [row] = await preparedQuery(db, "qc_find_transfer_intent", (executor) =>
    executor
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
      .where(and(eq(wallets.id, sql.placeholder("walletId")), eq(wallets.tenantId, sql.placeholder("tenantId"))))
      .prepare("qc_find_transfer_intent"),
  ).execute({ tenantId: params.tenantId, walletId: params.walletId, networkCode: params.networkCode, assetId: params.assetId });
  return row;
}

/** One page of the tenant's transactions, newest first, optionally filtered: ids below `beforeId`, at most `limit` rows. */
export function listTransactionRows(
  db: Executor,
  params: {
    tenantId: string;
    status?: TransactionStatusValue | undefined;
    sourceWalletId?: string | undefined;
    externalId?: string | undefined;
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
        params.sourceWalletId ? eq(transactions.sourceWalletId, params.sourceWalletId) : undefined,
        params.externalId !== undefined ? eq(transactions.externalId, params.externalId) : undefined,
        params.beforeId ? lt(transactions.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(transactions.id))
    .limit(params.limit);
}

/**
 * Count and sum (of `assetId`) of the tenant's transfers created in [from, to] that have not
 * ended without moving value, summed in SQL: the velocity windows of the policy engine and the
 * daily quotas. `upToId` keeps only transfers created no later than that one (ids are
 * time-ordered UUIDv7), so a transfer is judged by what came before it, whatever order the
 * checks run in. Narrowed to one source wallet, or to the wallets placed in one vault on the
 * transfer's network, when given. `count` counts every asset; `amount` only `assetId`.
 */
export async function summarizeTransfers(
  db: Executor,
  params: {
    tenantId: string;
    assetId: string;
    from: Date;
    to: Date;
    upToId?: string | undefined;
    sourceWalletId?: string | undefined;
    vaultId?: string | undefined;
  },
): Promise<{ count: number; amount: bigint }> {
  const placedInVault = params.vaultId
    ? sql`exists (select 1 from ${walletNetworkLinks} where ${walletNetworkLinks.tenantId} = ${params.tenantId}
        and ${walletNetworkLinks.walletId} = ${transactions.sourceWalletId}
        and ${walletNetworkLinks.networkCode} = ${transactions.networkCode}
        and ${walletNetworkLinks.vaultId} = ${params.vaultId})`
    : undefined;
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(${transactions.amount}) filter (where ${transactions.assetId} = ${params.assetId}), 0)::text`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.tenantId, params.tenantId),
        gte(transactions.createdAt, params.from),
        lte(transactions.createdAt, params.to),
        notInArray(transactions.status, [...ENDED_WITHOUT_TRANSFER]),
        params.upToId ? lte(transactions.id, params.upToId) : undefined,
        params.sourceWalletId ? eq(transactions.sourceWalletId, params.sourceWalletId) : undefined,
        placedInVault,
      ),
    );
  return { count: row?.count ?? 0, amount: BigInt(row?.amount ?? "0") };
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
): Promise<{ transaction: TransactionRow; wallet: typeof wallets.$inferSelect | null; vaultId: string | null; asset: typeof assets.$inferSelect | null } | undefined> {
  // Every transfer's checks (and each retry) read it: a prepared read, planned once per connection.
  const [row] = await preparedRead(db, "qc_find_transfer_check_rows", (executor) =>
    executor
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
      .where(and(eq(transactions.id, sql.placeholder("transactionId")), eq(transactions.tenantId, sql.placeholder("tenantId"))))
      .prepare("qc_find_transfer_check_rows"),
  ).execute({ tenantId: params.tenantId, transactionId: params.transactionId });
  return row;
}

/** A source: the wallet's transfers on one network, for one tenant. */
export interface TransferSource {
  tenantId: string;
  sourceWalletId: string;
  networkCode: TransactionNetworkCode;
}

/**
 * The rows of one source (served by `transactions_source_status_idx` with a status), by
 * placeholder: the release reads them for every transfer, so its queries below are prepared
 * (./prepared) and run with `sourceValues`.
 */
const ofSource = and(
  eq(transactions.tenantId, sql.placeholder("tenantId")),
  eq(transactions.sourceWalletId, sql.placeholder("sourceWalletId")),
  eq(transactions.networkCode, sql.placeholder("networkCode")),
);
const sourceValues = (source: TransferSource) => ({ tenantId: source.tenantId, sourceWalletId: source.sourceWalletId, networkCode: source.networkCode });

/**
 * What the source's cleared, not yet mined transfers (other than `excludeId`) still take from
 * its balance: the amounts of `assetId` and the fee caps (gas limit × max fee per gas, native)
 * of those released with fees.
 */
export async function sumSourceReservations(
  db: Executor,
  params: TransferSource & { assetId: string; excludeId: string },
): Promise<{ amount: bigint; fees: bigint }> {
  const [row] = await preparedQuery(db, "qc_sum_source_reservations", (executor) =>
    executor
      .select({
        amount: sql<string>`coalesce(sum(${transactions.amount}) filter (where ${transactions.assetId} = ${sql.placeholder("assetId")}), 0)::text`,
        fees: sql<string>`coalesce(sum(${transactions.gasLimit} * ${transactions.maxFeePerGas}), 0)::text`,
      })
      .from(transactions)
      .where(and(ofSource, inArray(transactions.status, [...RESERVING_STATUSES]), sql`${transactions.id} <> ${sql.placeholder("excludeId")}`))
      .prepare("qc_sum_source_reservations"),
  ).execute({ ...sourceValues(params), assetId: params.assetId, excludeId: params.excludeId });
  return { amount: BigInt(row?.amount ?? "0"), fees: BigInt(row?.fees ?? "0") };
}

/** The source's transfer that holds its nonce slot (PENDING_SIGNATURE or SIGNED), if any. */
export async function findNonceHoldingTransfer(
  db: Executor,
  params: TransferSource,
): Promise<Pick<TransactionRow, "id" | "status"> | undefined> {
  const [row] = await preparedQuery(db, "qc_find_nonce_holding_transfer", (executor) =>
    executor
      .select({ id: transactions.id, status: transactions.status })
      .from(transactions)
      .where(and(ofSource, inArray(transactions.status, [...NONCE_HOLDING_STATUSES])))
      .limit(1)
      .prepare("qc_find_nonce_holding_transfer"),
  ).execute(sourceValues(params));
  return row;
}

/**
 * The source's oldest transfer (UUIDv7: first created) in one of `statuses`, if any. With QUEUED
 * it is the next to release; with SUBMITTED and QUEUED, the first of those still waiting for
 * their turn — release goes in creation order, so a transfer is released only when that is itself
 * and one whose checks finish first does not overtake an older one still in them.
 */
export async function findOldestTransferIn(
  db: Executor,
  params: TransferSource & { statuses: readonly ("SUBMITTED" | "QUEUED")[] },
): Promise<Pick<TransactionRow, "id" | "status"> | undefined> {
  // One prepared statement per set of statuses (at most three: the type allows two values).
  const statuses = [...new Set(params.statuses)].sort();
  const name = `qc_find_oldest_transfer_in_${statuses.join("_").toLowerCase()}`;
  const [row] = await preparedQuery(db, name, (executor) =>
    executor
      .select({ id: transactions.id, status: transactions.status })
      .from(transactions)
      .where(and(ofSource, inArray(transactions.status, statuses)))
      .orderBy(asc(transactions.id))
      .limit(1)
      .prepare(name),
  ).execute(sourceValues(params));
  return row;
}

/**
 * The highest nonce the source has used on chain through this service: transfers broadcast
 * (BROADCASTING, CONFIRMING, COMPLETED) or mined and reverted. Null when there is none.
 */
export async function findHighestBroadcastNonce(
  db: Executor,
  params: TransferSource,
): Promise<number | null> {
  const [row] = await preparedQuery(db, "qc_find_highest_broadcast_nonce", (executor) =>
    executor
      .select({ nonce: sql<number | null>`max(${transactions.nonce})` })
      .from(transactions)
      .where(
        and(
          ofSource,
          isNotNull(transactions.nonce),
          or(
            inArray(transactions.status, ["BROADCASTING", "CONFIRMING", "COMPLETED"]),
            and(eq(transactions.status, "FAILED"), eq(transactions.subStatus, "REVERTED_ON_CHAIN")),
          ),
        ),
      )
      .prepare("qc_find_highest_broadcast_nonce"),
  ).execute(sourceValues(params));
  return row?.nonce ?? null;
}

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
    .where(and(eq(transactions.id, params.transactionId), eq(transactions.tenantId, params.tenantId), eq(transactions.status, params.status ?? "SUBMITTED")))
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
