import { isUniqueViolation, type Transaction } from "@qc/db";
import { insertStatusHistory, insertTransaction, type NewTransactionRow, type TransactionRow } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import type { TransactionRecord } from "../records/record-schemas";
import { toTransactionRecord } from "./transaction-record";

/**
 * What every new transaction (a transfer, a contract deployment) writes in its creating database
 * transaction: the row in SUBMITTED, its first status-history entry, the `transaction.created`
 * audit row and event, and the `transfers.check` job. So both kinds enter the pipeline the same way.
 */
export async function insertSubmittedTransaction(
  tx: Transaction,
  deps: Pick<ServiceDeps, "jobs">,
  input: { values: NewTransactionRow; actor: Actor; auditDetails: (row: TransactionRow) => Record<string, unknown> },
): Promise<TransactionRecord> {
  const row = await insertTransaction(tx, { ...input.values, status: "SUBMITTED" });
  await insertStatusHistory(tx, {
    tenantId: row.tenantId,
    transactionId: row.id,
    fromStatus: null,
    toStatus: "SUBMITTED",
    subStatus: null,
    reason: null,
    actorType: input.actor.type,
    actorId: input.actor.id,
    createdAt: row.createdAt,
  });
  const record = toTransactionRecord(row);
  await auditAction(tx, input.actor, {
    tenantId: row.tenantId,
    action: "transaction.created",
    target: { type: "transaction", id: row.id },
    details: input.auditDetails(row),
  });
  await emitEvent(tx, { tenantId: row.tenantId, type: "transaction.created", aggregateId: row.id, data: { transaction: record } });
  await deps.jobs.send(tx, "transfers.check", { tenantId: row.tenantId, transactionId: row.id });
  return record;
}

/** `externalId` is unique per tenant (a unique index): its violation is 409 DUPLICATE_EXTERNAL_ID. */
export function duplicateExternalIdOr(error: unknown, externalId: string | undefined): unknown {
  if (!isUniqueViolation(error, "transactions_tenant_external_id_unique")) return error;
  return new AppError("DUPLICATE_EXTERNAL_ID", "externalId is already used by another transaction of this tenant", { details: { externalId } });
}
