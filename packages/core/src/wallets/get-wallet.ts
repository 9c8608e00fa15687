import type { Database } from "@qc/db";
import { findWallet, toWalletRecordOf, type WalletRecord } from "./wallet-record";

export async function getWallet(deps: { db: Database }, input: { tenantId: string; walletId: string }): Promise<WalletRecord> {
  return toWalletRecordOf(deps.db, await findWallet(deps.db, input.tenantId, input.walletId));
}
