import { listTransactionRows } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import type { TransactionRecord } from "../records/record-schemas";
import { toTransactionRecord } from "./transaction-record";
import type { TransactionStatus, TransactionType } from "@qc/domain";

export interface ListTransactionsInput extends PageRequest {
  tenantId: string;
  status?: TransactionStatus | undefined;
  type?: TransactionType | undefined;
  sourceWalletId?: string | undefined;
  /** Either side: transactions sent from the wallet and deposits to it. */
  walletId?: string | undefined;
  externalId?: string | undefined;
  /** The transfers of one batch (CONTRACT §18); another tenant's batch lists nothing. */
  batchId?: string | undefined;
  /** Created at or after this instant. */
  createdFrom?: Date | undefined;
  /** Created before this instant. */
  createdTo?: Date | undefined;
}

/** The tenant's transactions, newest first, optionally filtered by status, type, wallet (source or either side), externalId, batch and creation window. */
export async function listTransactions(
  deps: Pick<ServiceDeps, "db">,
  input: ListTransactionsInput,
): Promise<{ transactions: TransactionRecord[]; page: PageInfo }> {
  const rows = await listTransactionRows(deps.db, {
    tenantId: input.tenantId,
    status: input.status,
    type: input.type,
    sourceWalletId: input.sourceWalletId,
    walletId: input.walletId,
    externalId: input.externalId,
    batchId: input.batchId,
    createdFrom: input.createdFrom,
    createdTo: input.createdTo,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  return { transactions: items.map(toTransactionRecord), page };
}
