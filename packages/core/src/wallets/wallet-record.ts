import type { NetworkCode } from "@qc/chain";
import { and, asc, eq, inArray, schema, type Executor } from "@qc/db";
import { AppError } from "../errors";

type Row = typeof schema.wallets.$inferSelect;
type LinkRow = typeof schema.walletNetworkLinks.$inferSelect;

export type WalletType = "SIGNER_MANAGED" | "REGISTERED" | "WATCH_ONLY";

export interface WalletRecord {
  id: string;
  /** The home vault; its network is the wallet's home network. */
  vaultId: string;
  tenantId: string;
  assetIds: string[];
  /** Every placement, the home vault's included, in the order they were made. */
  networkLinks: { networkCode: NetworkCode; vaultId: string }[];
  /** Lower-case 0x + 40 hex. */
  address: string;
  /** ML-DSA-87 public key (0x hex); null for WATCH_ONLY. */
  publicKey: string | null;
  label: string | null;
  status: "ACTIVE" | "ARCHIVED";
  type: WalletType;
  createdAt: string;
}

export function toWalletRecord(row: Row, links: Pick<LinkRow, "networkCode" | "vaultId">[]): WalletRecord {
  return {
    id: row.id,
    vaultId: row.vaultId,
    tenantId: row.tenantId,
    assetIds: row.assetIds,
    networkLinks: links.map((l) => ({ networkCode: l.networkCode, vaultId: l.vaultId })),
    address: row.address,
    publicKey: row.publicKey,
    label: row.label,
    status: row.status,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Records for wallet rows, with their placements read in one query; order of `rows` kept. */
export async function toWalletRecords(db: Executor, rows: Row[]): Promise<WalletRecord[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select()
    .from(schema.walletNetworkLinks)
    .where(inArray(schema.walletNetworkLinks.walletId, rows.map((r) => r.id)))
    .orderBy(asc(schema.walletNetworkLinks.id));
  const byWallet = new Map<string, LinkRow[]>();
  for (const link of links) byWallet.set(link.walletId, [...(byWallet.get(link.walletId) ?? []), link]);
  return rows.map((row) => toWalletRecord(row, byWallet.get(row.id) ?? []));
}

export async function toWalletRecordOf(db: Executor, row: Row): Promise<WalletRecord> {
  return (await toWalletRecords(db, [row]))[0]!;
}

/** The tenant's wallet, or 404 NOT_FOUND (also for another tenant's id). */
export async function findWallet(db: Executor, tenantId: string, walletId: string, lock?: "update"): Promise<Row> {
  const query = db
    .select()
    .from(schema.wallets)
    .where(and(eq(schema.wallets.id, walletId), eq(schema.wallets.tenantId, tenantId)));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw new AppError("NOT_FOUND", "wallet not found");
  return row;
}
