import { listTransactionRows } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import type { TransactionRecord } from "../records/record-schemas";
import { toTransactionRecord } from "./transaction-record";
import type { TransactionStatus } from "./transaction-status";

export interface ListTransactionsInput extends PageRequest {
  tenantId: string;
  status?: TransactionStatus | undefined;
  sourceWalletId?: string | undefined;
  externalId?: string | undefined;
}

/** The tenant's transactions, newest first, optionally filtered by status, source wallet and externalId. */
export async function listTransactions(
  deps: Pick<ServiceDeps, "db">,
  input: ListTransactionsInput,
): Promise<{ transactions: TransactionRecord[]; page: PageInfo }> {
  const rows = await listTransactionRows(deps.db, {
    tenantId: input.tenantId,
    status: input.status,
    sourceWalletId: input.sourceWalletId,
    externalId: input.externalId,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  return { transactions: items.map(toTransactionRecord), page };
}
