import { findTransaction } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { TransactionRecord } from "../records/record-schemas";
import { toTransactionRecord } from "./transaction-record";

/** One transaction of the tenant; 404 for an unknown id and for another tenant's (no existence leak). */
export async function getTransaction(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; transactionId: string },
): Promise<TransactionRecord> {
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row) throw new AppError("NOT_FOUND", "transaction not found");
  return toTransactionRecord(row);
}
