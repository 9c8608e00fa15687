import { and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { walletNetworkLinks, wallets } from "../schema/custody";
import { defineQuery, defineRead } from "../hot-path/define-query";
import { newRowId } from "../ids";
import { updateWhereStatus } from "./status";

export type WalletRow = typeof wallets.$inferSelect;
export type NewWalletRow = typeof wallets.$inferInsert;
export type WalletNetworkLinkRow = typeof walletNetworkLinks.$inferSelect;

export interface WalletKey {
  tenantId: string;
  walletId: string;
}

/**
 * The tenant's wallet, or undefined (also for another tenant's id); `lock` holds the row until
 * commit. "no key update" serializes with other lockers and writers of the row but lets the
 * foreign-key checks of rows that reference it through (a create's transaction row takes FOR KEY
 * SHARE on its source wallet).
 */
export async function findWalletRow(
  db: Executor,
  params: WalletKey & { lock?: "update" | "no key update" | undefined },
): Promise<WalletRow | undefined> {
  // Every transfer's release locks its source wallet this way: prepared (../hot-path), one
  // statement per lock; without one, a pipelined read.
  const query = params.lock ? findWalletLocked[params.lock] : findWalletRead;
  const [row] = await query.on(db).execute({ walletId: params.walletId, tenantId: params.tenantId });
  return row;
}
const selectWallet = (db: Executor) =>
  db
    .select()
    .from(wallets)
    .where(and(eq(wallets.id, sql.placeholder("walletId")), eq(wallets.tenantId, sql.placeholder("tenantId"))));
const findWalletRead = defineRead("qc_find_wallet", selectWallet);
const findWalletLocked = {
  update: defineQuery("qc_find_wallet_for_update", (db) => selectWallet(db).for("update")),
  "no key update": defineQuery("qc_find_wallet_for_no_key_update", (db) => selectWallet(db).for("no key update")),
};

/** Whether the tenant already has a wallet at `address` (canonical form). */
export async function walletAddressTaken(db: Executor, params: { tenantId: string; address: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: wallets.id })
    .from(wallets)
    .where(and(eq(wallets.tenantId, params.tenantId), eq(wallets.address, params.address)));
  return row !== undefined;
}

/** Which of `addresses` are wallets of the tenant already. */
export async function listTakenWalletAddresses(db: Executor, params: { tenantId: string; addresses: string[] }): Promise<string[]> {
  if (params.addresses.length === 0) return [];
  const rows = await db
    .select({ address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.tenantId, params.tenantId), inArray(wallets.address, params.addresses)));
  return rows.map((r) => r.address);
}

export async function insertWalletRow(db: Executor, row: NewWalletRow): Promise<WalletRow> {
  const [inserted] = await db.insert(wallets).values(row).returning();
  return inserted!;
}

/** ACTIVE → ARCHIVED; undefined when the wallet was not active (or is unknown). */
export function archiveActiveWallet(db: Executor, params: WalletKey & { archivedAt: Date }): Promise<WalletRow | undefined> {
  return updateWhereStatus(db, wallets, { id: params.walletId, tenantId: params.tenantId }, ["ACTIVE"], {
    status: "ARCHIVED",
    archivedAt: params.archivedAt,
    updatedAt: params.archivedAt,
  });
}

/**
 * One page of the wallets placed in a vault (home vault or a network link), newest first: ids
 * below `beforeId`, at most `limit` rows.
 */
export async function listVaultWalletRows(
  db: Executor,
  params: { tenantId: string; vaultId: string; beforeId?: string | undefined; limit: number },
): Promise<WalletRow[]> {
  const rows = await db
    .select({ wallet: wallets })
    .from(wallets)
    .innerJoin(walletNetworkLinks, eq(walletNetworkLinks.walletId, wallets.id))
    .where(
      and(
        eq(wallets.tenantId, params.tenantId),
        eq(walletNetworkLinks.tenantId, params.tenantId),
        eq(walletNetworkLinks.vaultId, params.vaultId),
        params.beforeId ? lt(wallets.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(wallets.id))
    .limit(params.limit);
  return rows.map((r) => r.wallet);
}

/** The placements of the tenant's wallets `walletIds`, oldest first. */
export function listNetworkLinks(db: Executor, params: { tenantId: string; walletIds: string[] }): Promise<WalletNetworkLinkRow[]> {
  return db
    .select()
    .from(walletNetworkLinks)
    .where(and(eq(walletNetworkLinks.tenantId, params.tenantId), inArray(walletNetworkLinks.walletId, params.walletIds)))
    .orderBy(asc(walletNetworkLinks.id));
}

/** The wallet's placement on `networkCode`, or undefined. */
export async function findNetworkLink(
  db: Executor,
  params: WalletKey & { networkCode: WalletNetworkLinkRow["networkCode"] },
): Promise<WalletNetworkLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(walletNetworkLinks)
    .where(
      and(
        eq(walletNetworkLinks.tenantId, params.tenantId),
        eq(walletNetworkLinks.walletId, params.walletId),
        eq(walletNetworkLinks.networkCode, params.networkCode),
      ),
    );
  return row;
}

/**
 * The LISTEN channel on which every new placement is announced, its payload the link's id: each
 * daemon's wallet directory (packages/core/src/deposits/wallet-directory.ts) loads it from there.
 */
export const WALLET_LINKS_CHANNEL = "qc_wallet_links";

/**
 * Places a wallet on a network, and announces the placement on WALLET_LINKS_CHANNEL in the same
 * statement: inside the caller's transaction, PostgreSQL delivers the notification on commit (a
 * rolled-back placement is never announced). Every insert of a placement goes through here.
 */
export async function insertNetworkLink(
  db: Executor,
  row: { tenantId: string; walletId: string; networkCode: WalletNetworkLinkRow["networkCode"]; vaultId: string; createdAt: Date },
): Promise<void> {
  await db.execute(sql`
    with link as (
      insert into ${walletNetworkLinks} (id, tenant_id, wallet_id, network_code, vault_id, created_at)
      values (${newRowId()}, ${row.tenantId}, ${row.walletId}, ${row.networkCode}, ${row.vaultId}, ${row.createdAt})
      returning id
    )
    select pg_notify(${WALLET_LINKS_CHANNEL}, link.id::text) from link`);
}

/** A placement as the deposits' wallet directory keeps it: which wallet has which address on which network, since when. */
export interface FollowedLinkRow {
  linkId: string;
  networkCode: WalletNetworkLinkRow["networkCode"];
  address: string;
  tenantId: string;
  walletId: string;
  /** The link's createdAt: the wallet is followed on this network from then on. */
  placedAt: Date;
}

/*
 * The directory's two reads span every tenant on purpose: the chain follower matches a block's
 * transfers against all of them. Archived wallets are included (a deposit to one is still recorded:
 * the funds arrived).
 */
const selectFollowedLinks = (db: Executor) =>
  db
    .select({
      linkId: walletNetworkLinks.id,
      networkCode: walletNetworkLinks.networkCode,
      address: wallets.address,
      tenantId: walletNetworkLinks.tenantId,
      walletId: walletNetworkLinks.walletId,
      placedAt: walletNetworkLinks.createdAt,
    })
    .from(walletNetworkLinks)
    .innerJoin(wallets, and(eq(wallets.id, walletNetworkLinks.walletId), eq(wallets.tenantId, walletNetworkLinks.tenantId)));

/**
 * One page of every placement, by link id: ids above `afterLinkId`, at most `limit` rows. The page
 * is cut from the links alone (their primary key) and then joined: joined first, each page would
 * join every wallet again and sort them (quadratic in the pages).
 */
export function listFollowedLinkPage(
  db: Executor,
  params: { afterLinkId?: string | undefined; limit: number },
): Promise<FollowedLinkRow[]> {
  const page = db
    .select({
      id: walletNetworkLinks.id,
      networkCode: walletNetworkLinks.networkCode,
      tenantId: walletNetworkLinks.tenantId,
      walletId: walletNetworkLinks.walletId,
      createdAt: walletNetworkLinks.createdAt,
    })
    .from(walletNetworkLinks)
    .where(params.afterLinkId ? gt(walletNetworkLinks.id, params.afterLinkId) : undefined)
    .orderBy(asc(walletNetworkLinks.id))
    .limit(params.limit)
    .as("page");
  return db
    .select({
      linkId: page.id,
      networkCode: page.networkCode,
      address: wallets.address,
      tenantId: page.tenantId,
      walletId: page.walletId,
      placedAt: page.createdAt,
    })
    .from(page)
    .innerJoin(wallets, and(eq(wallets.id, page.walletId), eq(wallets.tenantId, page.tenantId)))
    .orderBy(asc(page.id));
}

/** The placements `linkIds` (those that exist). */
export function findFollowedLinks(db: Executor, params: { linkIds: string[] }): Promise<FollowedLinkRow[]> {
  if (params.linkIds.length === 0) return Promise.resolve([]);
  return selectFollowedLinks(db).where(inArray(walletNetworkLinks.id, params.linkIds));
}
