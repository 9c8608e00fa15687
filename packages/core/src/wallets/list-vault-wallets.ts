import { and, desc, eq, lt, schema, type Database } from "@qc/db";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { findVault } from "../vaults/vault-record";
import { toWalletRecords, type WalletRecord } from "./wallet-record";

/** Wallets placed in a vault (home vault or a network link), newest first. */
export async function listVaultWallets(
  deps: { db: Database },
  input: PageRequest & { tenantId: string; vaultId: string },
): Promise<{ wallets: WalletRecord[]; page: PageInfo }> {
  const after = decodePageCursor(input.cursor);
  await findVault(deps.db, input.tenantId, input.vaultId);
  const rows = await deps.db
    .select({ wallet: schema.wallets })
    .from(schema.wallets)
    .innerJoin(schema.walletNetworkLinks, eq(schema.walletNetworkLinks.walletId, schema.wallets.id))
    .where(
      and(
        eq(schema.wallets.tenantId, input.tenantId),
        eq(schema.walletNetworkLinks.vaultId, input.vaultId),
        after ? lt(schema.wallets.id, after) : undefined,
      ),
    )
    .orderBy(desc(schema.wallets.id))
    .limit(input.limit + 1);
  const { items, page } = toPage(rows.map((r) => r.wallet), input.limit);
  return { wallets: await toWalletRecords(deps.db, items), page };
}
