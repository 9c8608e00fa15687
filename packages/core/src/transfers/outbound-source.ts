import type { TransactionRow, TransferSource } from "@qc/db/queries";
import { AppError } from "../errors";

/**
 * The wallet and network an OUTBOUND transaction is sent from. Deposits (INBOUND, CONTRACT §21)
 * have no source wallet and never reach the sending pipeline; one that did is an internal error,
 * refused before anything is signed or sent.
 */
export function outboundSource(row: Pick<TransactionRow, "id" | "tenantId" | "sourceWalletId" | "networkCode">): TransferSource {
  if (row.sourceWalletId === null) {
    throw new AppError("INTERNAL", "an inbound transaction has no source wallet to send from", { details: { transactionId: row.id } });
  }
  return { tenantId: row.tenantId, sourceWalletId: row.sourceWalletId, networkCode: row.networkCode };
}
