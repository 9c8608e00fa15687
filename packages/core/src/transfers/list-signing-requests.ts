import { MLDSA87_DESCRIPTOR, TRANSACTION_SIGNATURE_CONTEXT } from "@qc/chain";
import { listTransactionsForSigning } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import type { TransactionRecord } from "../records/record-schemas";
import { failTransaction } from "./fail-transaction";
import { toTransactionRecord } from "./transaction-record";
import { checkSigningRequest } from "./verify-transaction-signature";

/** What the signer signs (CONTRACT §6): the unsigned `0x51` transaction, its signing hash, the key descriptor and the ML-DSA context. */
export interface SigningRequest {
  unsignedTransaction: string;
  signingHash: string;
  descriptor: string;
  context: string;
}

export type SigningRequestRecord = TransactionRecord & { signingRequest: SigningRequest };

export interface ListSigningRequestsInput extends PageRequest {
  tenantId: string;
  status: "PENDING_SIGNATURE";
}

/**
 * The tenant's transactions awaiting signature, newest first, each with its signing request
 * rebuilt from the stored intent. A row whose stored request differs from the rebuild (changed
 * after release) is never handed to a signer: it is failed closed (FAILED/SIGNATURE_MISMATCH,
 * which frees its source for the next transfer) and left out of the page.
 */
export async function listSigningRequests(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log">,
  input: ListSigningRequestsInput,
): Promise<{ transactions: SigningRequestRecord[]; page: PageInfo }> {
  const rows = await listTransactionsForSigning(deps.db, {
    tenantId: input.tenantId,
    status: input.status,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(
    rows.map((row) => ({ ...row, id: row.transaction.id })),
    input.limit,
  );
  const transactions: SigningRequestRecord[] = [];
  for (const context of items) {
    const check = checkSigningRequest(context);
    if (!check.ok) {
      deps.log.error(
        { transactionId: context.transaction.id, tenantId: input.tenantId, reason: check.reason },
        "signing request does not match its intent: failed closed",
      );
      await failTransaction(deps, {
        row: context.transaction,
        from: "PENDING_SIGNATURE",
        subStatus: "SIGNATURE_MISMATCH",
        reason: check.reason,
        actor: systemActor("transfers.verify"),
      });
      continue;
    }
    transactions.push({
      ...toTransactionRecord(context.transaction),
      signingRequest: {
        unsignedTransaction: check.rebuilt.unsignedTransaction,
        signingHash: check.rebuilt.signingHash,
        descriptor: MLDSA87_DESCRIPTOR,
        context: TRANSACTION_SIGNATURE_CONTEXT,
      },
    });
  }
  return { transactions, page };
}
