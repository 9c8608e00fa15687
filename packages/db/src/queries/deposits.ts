import { and, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { newRowId } from "../ids";
import { assets } from "../schema/custody";
import { chainFollowerBlocks, chainFollowers } from "../schema/deposits";
import { transactions, transactionStatusHistory } from "../schema/transfers";
import { insertAuditEventBatch } from "./audit";
import { insertOutboxEvents } from "./events";
import type { TransactionNetworkCode, TransactionRow } from "./transactions";

/**
 * CONTRACT §21's chain follower: its lease and cursor per network (`chain_followers`), its recent
 * blocks (`chain_follower_blocks`) and the deposits it records. Times of the lease are the
 * database's clock, so every daemon instance judges a lease by the same clock.
 */

export type FollowerRow = typeof chainFollowers.$inferSelect;

/**
 * Takes or renews the network's lease for `holder`: granted when nobody holds it, when `holder`
 * already does, or when the holder's lease has run out. Returns the row (with the cursor) when
 * `holder` holds the lease after this statement, undefined when another instance does.
 */
export async function acquireFollowerLease(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; holder: string; leaseSeconds: number },
): Promise<FollowerRow | undefined> {
  const expires = sql`now() + make_interval(secs => ${params.leaseSeconds})`;
  const [row] = await db
    .insert(chainFollowers)
    .values({ networkCode: params.networkCode, holder: params.holder, leaseExpiresAt: expires, updatedAt: sql`now()` })
    .onConflictDoUpdate({
      target: chainFollowers.networkCode,
      set: { holder: params.holder, leaseExpiresAt: expires, updatedAt: sql`now()` },
      setWhere: sql`${chainFollowers.holder} = ${params.holder} or ${chainFollowers.holder} is null or ${chainFollowers.leaseExpiresAt} is null or ${chainFollowers.leaseExpiresAt} < now()`,
    })
    .returning();
  return row;
}

/** Gives the lease up at once (a clean stop), so another instance takes over without waiting for it to run out. */
export async function releaseFollowerLease(db: Executor, params: { networkCode: TransactionNetworkCode; holder: string }): Promise<void> {
  await db
    .update(chainFollowers)
    .set({ holder: null, leaseExpiresAt: null, updatedAt: sql`now()` })
    .where(and(eq(chainFollowers.networkCode, params.networkCode), eq(chainFollowers.holder, params.holder)));
}

/**
 * Moves the cursor from `from` (the block number the caller read; null: not started) to `to`,
 * renewing the lease, only while `holder` holds it and the cursor is still at `from`. Run first in
 * the block's database transaction: it locks the row, so a second follower recording the same
 * block waits, then finds the cursor moved and records nothing. False: the block is not ours.
 */
export async function moveFollowerCursor(
  db: Executor,
  params: {
    networkCode: TransactionNetworkCode;
    holder: string;
    leaseSeconds: number;
    from: number | null;
    to: { blockNumber: number; blockHash: string };
  },
): Promise<boolean> {
  const rows = await db
    .update(chainFollowers)
    .set({
      blockNumber: params.to.blockNumber,
      blockHash: params.to.blockHash,
      leaseExpiresAt: sql`now() + make_interval(secs => ${params.leaseSeconds})`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(chainFollowers.networkCode, params.networkCode),
        eq(chainFollowers.holder, params.holder),
        params.from === null ? isNull(chainFollowers.blockNumber) : eq(chainFollowers.blockNumber, params.from),
      ),
    )
    .returning({ networkCode: chainFollowers.networkCode });
  return rows.length === 1;
}

/** The network's follower row (lease and cursor), or undefined before any follower ran. */
export async function findFollower(db: Executor, networkCode: TransactionNetworkCode): Promise<FollowerRow | undefined> {
  const [row] = await db.select().from(chainFollowers).where(eq(chainFollowers.networkCode, networkCode));
  return row;
}

/** Every network's follower row (the blocks-behind gauge). */
export function listFollowers(db: Executor): Promise<FollowerRow[]> {
  return db.select().from(chainFollowers);
}

export type FollowerBlockRow = typeof chainFollowerBlocks.$inferSelect;

/** Stores a processed block's hashes (replacing what a reorg left at that height) and forgets those older than `keepFrom`. */
export async function storeFollowerBlock(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; blockNumber: number; blockHash: string; parentHash: string; keepFrom: number },
): Promise<void> {
  await db
    .insert(chainFollowerBlocks)
    .values({
      networkCode: params.networkCode,
      blockNumber: params.blockNumber,
      blockHash: params.blockHash,
      parentHash: params.parentHash,
    })
    .onConflictDoUpdate({
      target: [chainFollowerBlocks.networkCode, chainFollowerBlocks.blockNumber],
      set: { blockHash: params.blockHash, parentHash: params.parentHash, createdAt: sql`now()` },
    });
  await db
    .delete(chainFollowerBlocks)
    .where(and(eq(chainFollowerBlocks.networkCode, params.networkCode), lt(chainFollowerBlocks.blockNumber, params.keepFrom)));
}

/** The stored blocks at and below `upTo`, newest first (the walk back to a common ancestor). */
export function listFollowerBlocks(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; upTo: number },
): Promise<FollowerBlockRow[]> {
  return db
    .select()
    .from(chainFollowerBlocks)
    .where(and(eq(chainFollowerBlocks.networkCode, params.networkCode), sql`${chainFollowerBlocks.blockNumber} <= ${params.upTo}`))
    .orderBy(sql`${chainFollowerBlocks.blockNumber} desc`);
}

/**
 * A reorg: the cursor back to the common ancestor `to` and the stored blocks above it forgotten,
 * only while `holder` holds the lease. False when it does not.
 */
export async function rewindFollower(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; holder: string; to: { blockNumber: number; blockHash: string } },
): Promise<boolean> {
  const rows = await db
    .update(chainFollowers)
    .set({ blockNumber: params.to.blockNumber, blockHash: params.to.blockHash, updatedAt: sql`now()` })
    .where(and(eq(chainFollowers.networkCode, params.networkCode), eq(chainFollowers.holder, params.holder)))
    .returning({ networkCode: chainFollowers.networkCode });
  if (rows.length !== 1) return false;
  await db
    .delete(chainFollowerBlocks)
    .where(and(eq(chainFollowerBlocks.networkCode, params.networkCode), gt(chainFollowerBlocks.blockNumber, params.to.blockNumber)));
  return true;
}

/**
 * Rows per multi-row statement: PostgreSQL takes at most 65,535 parameters a statement, and a
 * deposit row has 22; a block with more deposits is written in several statements (still in
 * its one database transaction).
 */
const ROWS_PER_STATEMENT = 1000;

async function inChunks<T, R>(items: readonly T[], write: (chunk: readonly T[]) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) results.push(await write(items.slice(i, i + ROWS_PER_STATEMENT)));
  return results;
}

/** One incoming transfer seen in a block, before it is stored. */
export interface DepositCandidate {
  tenantId: string;
  walletId: string;
  chainId: number;
  sourceAddress: string;
  destinationAddress: string;
  /** The ERC-20 contract; null for native value. */
  tokenAddress: string | null;
  logIndex: number | null;
  amount: string;
  chainTxHash: string;
  requiredConfirmations: number;
}

/**
 * A block's deposits in one statement: INSERT … ON CONFLICT DO NOTHING (the unique index per
 * network, hash, log index and wallet: a replayed block adds nothing), each in CONFIRMING with
 * confirmations 1, its asset resolved in SQL — the network's native asset, or the tenant's TOKEN
 * asset with that contract on that network (null when the tenant has none). Returns only the
 * rows this statement inserted.
 */
export async function insertDeposits(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; blockNumber: number; blockHash: string; at: Date; deposits: readonly DepositCandidate[] },
): Promise<TransactionRow[]> {
  if (params.deposits.length === 0) return [];
  if (params.deposits.length > ROWS_PER_STATEMENT)
    return (await inChunks(params.deposits, (deposits) => insertDeposits(db, { ...params, deposits }))).flat();
  const assetOf = (d: DepositCandidate) =>
    d.tokenAddress === null
      ? sql`(select ${assets.id} from ${assets} where ${assets.networkCode} = ${params.networkCode} and ${assets.kind} = 'NATIVE')`
      : sql`(select ${assets.id} from ${assets} where ${assets.tenantId} = ${d.tenantId} and ${assets.networkCode} = ${params.networkCode} and ${assets.kind} = 'TOKEN' and ${assets.contractAddress} = ${d.tokenAddress})`;
  return db
    .insert(transactions)
    .values(
      params.deposits.map((d) => ({
        id: newRowId(),
        tenantId: d.tenantId,
        type: "DEPOSIT" as const,
        direction: "INBOUND" as const,
        networkCode: params.networkCode,
        chainId: d.chainId,
        sourceWalletId: null,
        sourceAddress: d.sourceAddress,
        destinationWalletId: d.walletId,
        destinationAddress: d.destinationAddress,
        tokenAddress: d.tokenAddress,
        logIndex: d.logIndex,
        assetId: assetOf(d),
        amount: d.amount,
        status: "CONFIRMING" as const,
        chainTxHash: d.chainTxHash,
        blockNumber: params.blockNumber,
        blockHash: params.blockHash,
        confirmations: 1,
        requiredConfirmations: d.requiredConfirmations,
        createdAt: params.at,
        updatedAt: params.at,
      })),
    )
    .onConflictDoNothing()
    .returning();
}

/**
 * The trail of many deposits moved (or created) together, in three statements for the whole
 * block: a status-history row each (from `fromStatus`: null for a creation), an event each with
 * its aggregate's next sequence (the deposit rows are locked by the statement that moved them, so
 * nobody appends meanwhile), and an audit row each. `data` gives each row's validated event data.
 */
export async function insertDepositTrail(
  db: Executor,
  params: {
    rows: readonly TransactionRow[];
    /** Default null: the rows were just created (event `transaction.created`, action of the same name). */
    fromStatus?: TransactionRow["status"] | null;
    eventType?: "transaction.created" | "transaction.status_changed";
    action?: string;
    actorType: string;
    actorId: string;
    /** Default: each row's `updatedAt`. */
    at?: Date;
    data: (row: TransactionRow) => Record<string, unknown>;
  },
): Promise<void> {
  if (params.rows.length === 0) return;
  if (params.rows.length > ROWS_PER_STATEMENT) {
    await inChunks(params.rows, (rows) => insertDepositTrail(db, { ...params, rows }));
    return;
  }
  const { fromStatus = null, eventType = "transaction.created", action = "transaction.created" } = params;
  const at = (row: TransactionRow) => params.at ?? row.updatedAt;
  await db.insert(transactionStatusHistory).values(
    params.rows.map((row) => ({
      id: newRowId(),
      tenantId: row.tenantId,
      transactionId: row.id,
      fromStatus,
      toStatus: row.status,
      subStatus: row.subStatus,
      reason: row.statusReason,
      actorType: params.actorType,
      actorId: params.actorId,
      createdAt: at(row),
    })),
  );
  await insertOutboxEvents(
    db,
    params.rows.map((row) => ({
      tenantId: row.tenantId,
      type: eventType,
      aggregateType: "transaction",
      aggregateId: row.id,
      data: params.data(row),
      createdAt: at(row),
    })),
  );
  await insertAuditEventBatch(
    db,
    params.rows.map((row) => ({
      id: newRowId(),
      tenantId: row.tenantId,
      actorType: params.actorType,
      actorId: params.actorId,
      actorUserId: null,
      action,
      targetType: "transaction",
      targetId: row.id,
      requestId: null,
      ip: null,
      details: { from: fromStatus, to: row.status, subStatus: row.subStatus, reason: row.statusReason },
      createdAt: at(row),
    })),
  );
}

/** A deposit seen again in a block after a reorg took its first block away. */
export interface DepositAnchor {
  chainTxHash: string;
  walletId: string;
  tokenAddress: string | null;
  amount: string;
  logIndex: number | null;
}

/**
 * Re-anchors deposits a reorg left without a block (CONFIRMING, block null) that this block
 * contains again: same hash and wallet (and token and amount; a log index may have changed and is
 * taken from the new block). One statement; returns the rows it moved.
 */
export async function reanchorDeposits(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; blockNumber: number; blockHash: string; at: Date; anchors: readonly DepositAnchor[] },
): Promise<{ id: string }[]> {
  if (params.anchors.length === 0) return [];
  if (params.anchors.length > ROWS_PER_STATEMENT)
    return (await inChunks(params.anchors, (anchors) => reanchorDeposits(db, { ...params, anchors }))).flat();
  const values = sql.join(
    params.anchors.map(
      (a) => sql`(${a.chainTxHash}::text, ${a.walletId}::uuid, ${a.tokenAddress}::text, ${a.amount}::numeric, ${a.logIndex}::integer)`,
    ),
    sql`, `,
  );
  const result = await db.execute<{ id: string }>(sql`
    update ${transactions} t
       set block_number = ${params.blockNumber}, block_hash = ${params.blockHash}, log_index = v.log_index,
           confirmations = 1, updated_at = ${params.at}
      from (values ${values}) as v(chain_tx_hash, wallet_id, token_address, amount, log_index)
     where t.network_code = ${params.networkCode} and t.direction = 'INBOUND' and t.status = 'CONFIRMING'
       and t.block_number is null and t.chain_tx_hash = v.chain_tx_hash and t.destination_wallet_id = v.wallet_id
       and t.token_address is not distinct from v.token_address and t.amount = v.amount
    returning t.id`);
  return result.rows;
}

/**
 * A network's CONFIRMING deposits in blocks above `aboveBlock` (a reorg removed those blocks), or
 * with `unanchored`, those a reorg left without a block (each is anchored again or dropped).
 */
export function listConfirmingDeposits(
  db: Executor,
  params: { networkCode: TransactionNetworkCode } & ({ aboveBlock: number } | { unanchored: true }),
): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.networkCode, params.networkCode),
        eq(transactions.direction, "INBOUND"),
        eq(transactions.status, "CONFIRMING"),
        "aboveBlock" in params ? gt(transactions.blockNumber, params.aboveBlock) : isNull(transactions.blockNumber),
      ),
    );
}

/**
 * The confirmations of every anchored CONFIRMING deposit of the network at `head` (head − block
 * + 1), and COMPLETED (with `completedAt`) for those that reach their required confirmations, in
 * one statement. Returns the rows it completed (the caller writes their trail).
 */
export async function confirmDeposits(
  db: Executor,
  params: { networkCode: TransactionNetworkCode; head: number; at: Date },
): Promise<TransactionRow[]> {
  const confirmations = sql`(${params.head}::bigint - ${transactions.blockNumber} + 1)::integer`;
  const reached = sql`${confirmations} >= ${transactions.requiredConfirmations}`;
  const rows = await db
    .update(transactions)
    .set({
      confirmations: sql`${confirmations}`,
      status: sql`case when ${reached} then 'COMPLETED'::transaction_status else ${transactions.status} end`,
      completedAt: sql`case when ${reached} then ${params.at}::timestamptz else ${transactions.completedAt} end`,
      // A reason left by a reorg ("reorg: …") belongs to the CONFIRMING it explained.
      statusReason: sql`case when ${reached} then null else ${transactions.statusReason} end`,
      updatedAt: params.at,
    })
    .where(
      and(
        eq(transactions.networkCode, params.networkCode),
        eq(transactions.direction, "INBOUND"),
        eq(transactions.status, "CONFIRMING"),
        isNotNull(transactions.blockNumber),
        sql`${transactions.blockNumber} <= ${params.head}`,
        sql`${transactions.confirmations} <> ${confirmations}`,
      ),
    )
    .returning();
  return rows.filter((row) => row.status === "COMPLETED");
}

/** The deposit's sender screening, written once (only while none is recorded). Undefined: already written, or no such deposit. */
export async function recordDepositScreening(
  db: Executor,
  params: {
    tenantId: string;
    transactionId: string;
    screening: NonNullable<TransactionRow["screening"]>;
    at: Date;
  },
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .update(transactions)
    .set({ screening: params.screening, checkedAt: params.at, updatedAt: params.at })
    .where(
      and(
        eq(transactions.id, params.transactionId),
        eq(transactions.tenantId, params.tenantId),
        eq(transactions.direction, "INBOUND"),
        isNull(transactions.screening),
      ),
    )
    .returning();
  return row;
}
