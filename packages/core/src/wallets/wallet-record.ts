import type { Executor } from "@qc/db";
import { findWalletRow, listNetworkLinks, type WalletNetworkLinkRow, type WalletRow } from "@qc/db/queries";
import type { z } from "zod";
import { AppError } from "../errors";
import type { walletRecordSchema } from "../records/record-schemas";

export type { WalletType } from "@qc/domain";

export type WalletRecord = z.infer<typeof walletRecordSchema>;

export function toWalletRecord(row: WalletRow, links: Pick<WalletNetworkLinkRow, "networkCode" | "vaultId">[]): WalletRecord {
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

/** Records for the tenant's wallet rows, with their placements read in one query; order of `rows` kept. */
export async function toWalletRecords(db: Executor, tenantId: string, rows: WalletRow[]): Promise<WalletRecord[]> {
  if (rows.length === 0) return [];
  const links = await listNetworkLinks(db, { tenantId, walletIds: rows.map((r) => r.id) });
  const byWallet = new Map<string, WalletNetworkLinkRow[]>();
  for (const link of links) byWallet.set(link.walletId, [...(byWallet.get(link.walletId) ?? []), link]);
  return rows.map((row) => toWalletRecord(row, byWallet.get(row.id) ?? []));
}

export async function toWalletRecordOf(db: Executor, row: WalletRow): Promise<WalletRecord> {
  return (await toWalletRecords(db, row.tenantId, [row]))[0]!;
}

/** The tenant's wallet, or 404 NOT_FOUND (also for another tenant's id). */
export async function findWallet(db: Executor, tenantId: string, walletId: string, lock?: "update"): Promise<WalletRow> {
  const row = await findWalletRow(db, { tenantId, walletId, lock });
  if (!row) throw new AppError("NOT_FOUND", "wallet not found");
  return row;
}
