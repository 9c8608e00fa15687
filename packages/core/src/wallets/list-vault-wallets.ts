import { listVaultWalletRows } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { findVault } from "../vaults/vault-record";
import { toWalletRecords, type WalletRecord } from "./wallet-record";

/** Wallets placed in a vault (home vault or a network link), newest first. */
export async function listVaultWallets(
  deps: Pick<ServiceDeps, "db">,
  input: PageRequest & { tenantId: string; vaultId: string },
): Promise<{ wallets: WalletRecord[]; page: PageInfo }> {
  const beforeId = decodePageCursor(input.cursor);
  await findVault(deps.db, input.tenantId, input.vaultId);
  const rows = await listVaultWalletRows(deps.db, { tenantId: input.tenantId, vaultId: input.vaultId, beforeId, limit: input.limit + 1 });
  const { items, page } = toPage(rows, input.limit);
  return { wallets: await toWalletRecords(deps.db, input.tenantId, items), page };
}
