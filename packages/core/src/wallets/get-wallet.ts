import type { ServiceDeps } from "../deps/service-deps";
import { findWallet, toWalletRecordOf, type WalletRecord } from "./wallet-record";

export async function getWallet(deps: Pick<ServiceDeps, "db">, input: { tenantId: string; walletId: string }): Promise<WalletRecord> {
  return toWalletRecordOf(deps.db, await findWallet(deps.db, input.tenantId, input.walletId));
}
