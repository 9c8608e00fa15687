import { newRowId } from "@qc/db";
import { countTransactionUsage, withinTransaction } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { toAppError, type AppError } from "../errors";
import type { TransactionRecord } from "../records/record-schemas";
import { createTransfer, type CreateTransferInput } from "./create-transfer";

/** The most items one batch may hold (CONTRACT §18). */
export const MAX_BATCH_ITEMS = 100;

/** One item as the caller's validation left it: a create body, or the refusal the single create would have answered. */
export type TransferBatchItem =
  | { ok: true; transfer: Omit<CreateTransferInput, "tenantId" | "actor" | "batchId" | "checkJob" | "usage"> }
  | { ok: false; error: AppError };

/** Each item's outcome, at its index: the record created, or the error that refused it. */
export type TransferBatchOutcome = { index: number; transaction: TransactionRecord } | { index: number; error: AppError };

export interface CreateTransferBatchInput {
  tenantId: string;
  actor: Actor;
  items: TransferBatchItem[];
}

/**
 * Accepts a batch of transfers (CONTRACT §18, `POST /v1/transactions/batch`): every valid item is
 * created by `createTransfer`, exactly as `POST /v1/transactions` creates one (its intent checked,
 * its row, trail, event and `transfers.check` job written), with the batch's id on the row, and the
 * usage of all of them counted in one statement after the last (`countTransactionUsage`); each
 * item's policy, screening, quotas, approvals and balance are then its own check job's, as for any
 * transfer. Items are created one after the other in index order, so their ids, and the
 * release and nonce order of one source that follows them, follow the index.
 *
 * Each item runs in a savepoint of the one database transaction (the idempotency key's, through the
 * API): an item refused with a client error (4xx: an invalid body, UNKNOWN_ASSET,
 * DUPLICATE_EXTERNAL_ID, …) undoes exactly what it wrote and is answered at its index, and the
 * others stand. A fault (5xx) fails the whole batch: nothing is kept, and the key stays free for a
 * retry.
 */
export async function createTransferBatch(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  input: CreateTransferBatchInput,
): Promise<{ batchId: string; items: TransferBatchOutcome[] }> {
  const batchId = newRowId();
  return withinTransaction(deps.db, async (tx) => {
    const items: TransferBatchOutcome[] = [];
    for (const [index, item] of input.items.entries()) {
      if (!item.ok) {
        items.push({ index, error: item.error });
        continue;
      }
      try {
        const transaction = await tx.transaction((savepoint) =>
          createTransfer(
            { ...deps, db: savepoint },
            { ...item.transfer, tenantId: input.tenantId, actor: input.actor, batchId, usage: "caller" },
          ),
        );
        items.push({ index, transaction });
      } catch (error) {
        const refusal = toAppError(error);
        if (refusal.status >= 500) throw error;
        items.push({ index, error: refusal });
      }
    }
    // Every created item's usage in one statement, with the commit: one statement locks the
    // buckets in the primary key's order, where one per item would lock them in the order of the
    // shards their ids pick, and two concurrent batches of a tenant could deadlock.
    const created = items.flatMap((item) => ("transaction" in item ? [item.transaction.id] : []));
    await countTransactionUsage(tx, { tenantId: input.tenantId, transactionIds: created });
    return { batchId, items };
  });
}
