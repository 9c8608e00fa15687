import { AppError } from "../errors";
import type { WalletRecord } from "./wallet-record";

/**
 * The rule every value-moving path applies to its source wallet before anything else:
 * a WATCH_ONLY wallet is never a source (400 WATCH_ONLY_SOURCE, whatever its status), an
 * archived wallet neither (409 WALLET_ARCHIVED).
 */
export function assertTransferSource(wallet: Pick<WalletRecord, "id" | "type" | "status">): void {
  if (wallet.type === "WATCH_ONLY") {
    throw new AppError("WATCH_ONLY_SOURCE", "a watch-only wallet cannot be a transaction source", { details: { walletId: wallet.id } });
  }
  if (wallet.status !== "ACTIVE") {
    throw new AppError("WALLET_ARCHIVED", "an archived wallet cannot be a transaction source", { details: { walletId: wallet.id } });
  }
}
