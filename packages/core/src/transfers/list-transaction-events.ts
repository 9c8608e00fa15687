import { findTransaction, listStatusHistory } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { TransactionStatus, TransactionSubStatus } from "./transaction-status";

/** One status change of a transaction: the dashboard's timeline. */
export interface TransactionStatusEvent {
  id: string;
  at: string;
  /** Null for the creation. */
  from: TransactionStatus | null;
  to: TransactionStatus;
  subStatus: TransactionSubStatus | null;
  reason: string | null;
  actor: { type: string; id: string | null };
}

/** `GET /v1/transactions/{id}/events`: every status change, oldest first, creation included; 404 for another tenant's id. */
export async function listTransactionEvents(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; transactionId: string },
): Promise<{ events: TransactionStatusEvent[] }> {
  const transaction = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!transaction) throw new AppError("NOT_FOUND", "transaction not found");
  const rows = await listStatusHistory(deps.db, input.tenantId, input.transactionId);
  return {
    events: rows.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      from: row.fromStatus,
      to: row.toStatus,
      subStatus: row.subStatus,
      reason: row.reason,
      actor: { type: row.actorType, id: row.actorId },
    })),
  };
}
