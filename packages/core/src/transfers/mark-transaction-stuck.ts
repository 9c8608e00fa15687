import { markTransactionStuck, type TransactionRow } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { emitEvent } from "../events/emit-event";
import { toTransactionRecord } from "./transaction-record";

/** BROADCASTING since longer than STUCK_AFTER_SECONDS (CONTRACT §17), by the clock of `deps`. */
export function isOverdue(
  deps: Pick<ServiceDeps, "now" | "config">,
  row: Pick<TransactionRow, "status" | "stuck" | "broadcastAt">,
): boolean {
  if (row.status !== "BROADCASTING" || row.stuck || !row.broadcastAt) return false;
  return deps.now().getTime() - row.broadcastAt.getTime() > deps.config.transfers.stuckAfterSeconds * 1000;
}

/**
 * Marks a transaction BROADCASTING for longer than STUCK_AFTER_SECONDS `stuck: true` with exactly
 * one `transaction.stuck` event: the conditional UPDATE (… WHERE stuck = false AND status =
 * 'BROADCASTING') and the event in one database transaction, so a look repeated, retried or run
 * by two daemons at once emits it once. Done by the watcher's look; `stuck` stays true on the
 * record whatever happens next (it says the transaction waited, not that it still does).
 */
export async function markStuckIfOverdue(
  deps: Pick<ServiceDeps, "db" | "now" | "config" | "log">,
  row: TransactionRow,
): Promise<TransactionRow> {
  if (!isOverdue(deps, row)) return row;
  const marked = await deps.db.transaction(async (tx) => {
    const stuck = await markTransactionStuck(tx, { tenantId: row.tenantId, transactionId: row.id, at: deps.now() });
    if (!stuck) return undefined;
    await emitEvent(tx, {
      tenantId: row.tenantId,
      type: "transaction.stuck",
      aggregateId: row.id,
      data: { transaction: toTransactionRecord(stuck) },
    });
    return stuck;
  });
  if (marked) deps.log.warn({ transactionId: row.id, broadcastAt: row.broadcastAt }, "transaction stuck: broadcast and not mined in time");
  return marked ?? row;
}
