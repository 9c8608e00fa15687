import { isUniqueViolation, newRowId, type Transaction } from "@qc/db";
import {
  countTransactionUsage,
  insertTransactionWithTrail,
  newTransactionRow,
  type NewTransactionRow,
  type TransactionRow,
} from "@qc/db/queries";
import { actingMemberId, type Actor } from "../audit/actor";
import { toAuditRow } from "../audit/record-audit-event";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { EVENTS } from "../events/catalog";
import type { TransactionRecord } from "../records/record-schemas";
import { toTransactionRecord } from "./transaction-record";

/**
 * What every new transaction (a transfer, a contract deployment) writes in its creating database
 * transaction: the row in SUBMITTED, its first status-history entry, the `transaction.created`
 * audit row and event, and the `transfers.check` job. So both kinds enter the pipeline the same way.
 *
 * Two statements in one round trip (the create path's cost is its round trips): the row and its
 * trail in one (`insertTransactionWithTrail`) and the job through the queue, sent together. The stored row is built here in
 * full, so the event's record is the stored record without reading the row back.
 */
export async function insertSubmittedTransaction(
  tx: Transaction,
  deps: Pick<ServiceDeps, "jobs" | "now">,
  input: {
    values: NewTransactionRow;
    actor: Actor;
    auditDetails: (row: TransactionRow) => Record<string, unknown>;
    /** "skip": without the `transfers.check` job (test fixtures: createTransfer's `checkJob`). Default "enqueue". */
    checkJob?: "enqueue" | "skip";
    /** "caller": its usage is counted by the caller, in `tx` (createTransfer's `usage`). Default "count". */
    usage?: "count" | "caller";
  },
): Promise<TransactionRecord> {
  const row = submittedTransactionRow({ ...input.values, ...initiatedBy(input.actor) }, deps.now());
  // The row with its trail and the job are independent statements: sent together, they share a
  // round trip on a pipelined connection (@qc/db's pool). Whichever PostgreSQL runs first, a
  // failure of either fails the transaction; the trail's error is the one that says why.
  const [trail, job] = await Promise.allSettled([
    insertCreatedTransaction(tx, {
      row,
      actor: input.actor,
      auditDetails: input.auditDetails(row),
      usage: input.usage === "caller" ? "skip" : "count",
    }),
    input.checkJob === "skip"
      ? Promise.resolve(undefined)
      : deps.jobs.send(tx, "transfers.check", { tenantId: row.tenantId, transactionId: row.id }),
  ]);
  if (trail.status === "rejected") throw trail.reason;
  if (job.status === "rejected") throw job.reason;
  return trail.value;
}

/**
 * A new transaction row stored exactly as given, with its trail in one statement
 * (`insertTransactionWithTrail`): the first status-history entry, the `transaction.created` audit
 * row (actor, request, `auditDetails`) and event (its record validated like every emitted
 * event: a malformed record fails the insert). `usage`: "count" for what a customer creates
 * (added to the usage buckets with the transaction's COMMIT: `countTransactionUsage`), "skip"
 * for the service's own nonce records (a NONCE_FILL, a REPLACEMENT, a CANCELLATION: not new
 * transfers, and a replacement's value is its original's, counted once). The record returned is
 * the stored one, without reading the row back.
 */
export async function insertCreatedTransaction(
  tx: Transaction,
  input: { row: TransactionRow; actor: Actor; auditDetails: Record<string, unknown>; usage: "count" | "skip" },
): Promise<TransactionRecord> {
  const { row, actor } = input;
  const record = toTransactionRecord(row);
  const event = EVENTS["transaction.created"];
  const data = event.data.parse({ transaction: record }) as Record<string, unknown>;
  await insertTransactionWithTrail(tx, {
    row,
    history: { id: newRowId(), actorType: actor.type, actorId: actor.id },
    audit: {
      id: newRowId(),
      ...toAuditRow({
        action: "transaction.created",
        actorType: actor.type,
        actorId: actor.id,
        actorUserId: actingMemberId(actor),
        tenantId: row.tenantId,
        targetType: "transaction",
        targetId: row.id,
        requestId: actor.requestId ?? null,
        ip: actor.ip ?? null,
        details: input.auditDetails,
      }),
    },
    event: {
      id: newRowId(),
      tenantId: row.tenantId,
      type: "transaction.created",
      aggregateType: event.aggregate,
      aggregateId: row.id,
      data,
    },
  });
  if (input.usage === "count") await countTransactionUsage(tx, { tenantId: row.tenantId, transactionIds: [row.id] });
  return record;
}

/**
 * `initiatedBy` (CONTRACT §15) from the creating request's actor: a dashboard session is the
 * member (USER); an API key is the key and the member who created it (API_KEY). The initiator
 * may reject the transaction but never approve it.
 */
export function initiatedBy(actor: Actor): Pick<NewTransactionRow, "initiatedByType" | "initiatedByUserId" | "initiatedByKeyId"> {
  if (actor.type === "api_key")
    return { initiatedByType: "API_KEY", initiatedByUserId: actor.keyMemberId ?? null, initiatedByKeyId: actor.id };
  if (actor.type === "user") return { initiatedByType: "USER", initiatedByUserId: actor.id, initiatedByKeyId: null };
  return { initiatedByType: null, initiatedByUserId: null, initiatedByKeyId: null };
}

/**
 * The complete row a new transaction is stored as: the given values in SUBMITTED, and for every
 * other column the table's default (nothing assigned yet), read from the schema; created and
 * updated at `now` unless given.
 */
export function submittedTransactionRow(values: NewTransactionRow, now: Date): TransactionRow {
  return newTransactionRow({ ...values, status: "SUBMITTED" }, now);
}

/** `externalId` is unique per tenant (a unique index): its violation is 409 DUPLICATE_EXTERNAL_ID. */
export function duplicateExternalIdOr(error: unknown, externalId: string | undefined): unknown {
  if (!isUniqueViolation(error, "transactions_tenant_external_id_unique")) return error;
  return new AppError("DUPLICATE_EXTERNAL_ID", "externalId is already used by another transaction of this tenant", {
    details: { externalId },
  });
}
