import type { Executor, Transaction } from "@qc/db";
import { moveTransactionWithTrail, releaseTransactionUsage, type NewTransactionRow, type TransactionRow } from "@qc/db/queries";
import { CREATED_TRANSACTION_TYPES } from "@qc/domain";
import type { AuditAction } from "../audit/actions";
import { actingMemberId, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { emitEvents } from "../events/emit-event";
import { runTransition, type JobRequest, type TransitionOutcome } from "../transitions/run-transition";
import { toTransactionRecord } from "./transaction-record";
import { isEndedWithoutTransfer, type TransactionStatus, type TransactionSubStatus } from "./transaction-status";

/** One of the types a customer creates (CONTRACT §6, §8), not one of the service's own nonce records (§17). */
export const isCreatedType = (type: TransactionRow["type"]): boolean => (CREATED_TRANSACTION_TYPES as readonly string[]).includes(type);

export interface TransactionTransitionInput {
  tenantId: string;
  transactionId: string;
  /** Moves only from one of these (the conditional UPDATE's WHERE status IN (…)). */
  from: readonly TransactionStatus[];
  to: TransactionStatus;
  subStatus?: TransactionSubStatus | null;
  /** Human reason (statusReason, history, webhook); null clears it. */
  reason?: string | null;
  /** Other columns set by the same UPDATE (nonce, fees, signature, chain hash, …). */
  set?: Partial<NewTransactionRow>;
  actor: Actor;
  /** Jobs that follow from the move, enqueued in the same database transaction. */
  jobs?: (row: TransactionRow) => JobRequest[];
  /** Further writes in the same database transaction (e.g. releasing the next queued transfer). */
  also?: (tx: Transaction, row: TransactionRow) => Promise<void>;
  /**
   * The move ends it without its own transfer, but its value moved all the same: a REPLACEMENT of
   * it was mined at its nonce (CONTRACT §17), so its usage stays counted.
   */
  keepsUsage?: boolean;
}

/**
 * The one step every transaction status change goes through: the conditional UPDATE with its
 * status-history and audit rows (one statement, `moveTransactionWithTrail`), the
 * `transaction.status_changed` event (with
 * `previousStatus` and the aggregate's next sequence) and the next jobs, in one database
 * transaction. A move that ends the transaction without moving value takes its usage back from
 * the hourly buckets the velocity windows and daily quotas read (`releaseTransactionUsage`), in
 * the same transaction: the move is conditional and such a status is final, so once per
 * transaction. `moved: false` means another caller (a retried job, another instance, the user)
 * moved it first: callers treat that as done, never as an error to retry.
 */
export async function transitionTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: TransactionTransitionInput,
  tx?: Transaction,
): Promise<TransitionOutcome<TransactionRow> & { previousStatus?: TransactionStatus }> {
  let previousStatus: TransactionStatus | undefined;
  const now = deps.now();
  const outcome = await runTransition(
    deps,
    {
      tenantId: input.tenantId,
      move: async (t) => {
        // The row locked and moved, with its history and audit rows, in one statement; the status
        // it had under the lock comes back with it, so the event's previousStatus is exact.
        const action: AuditAction = `transaction.${input.to.toLowerCase() as Lowercase<TransactionStatus>}`;
        const moved = await moveTransactionWithTrail(t, {
          key: { tenantId: input.tenantId, transactionId: input.transactionId },
          expected: input.from,
          set: {
            ...input.set,
            status: input.to,
            ...(input.subStatus !== undefined ? { subStatus: input.subStatus } : {}),
            ...(input.reason !== undefined ? { statusReason: input.reason } : {}),
            updatedAt: now,
          },
          history: { actorType: input.actor.type, actorId: input.actor.id },
          audit: {
            actorType: input.actor.type,
            actorId: input.actor.id,
            actorUserId: actingMemberId(input.actor),
            action,
            requestId: input.actor.requestId ?? null,
            ip: input.actor.ip ?? null,
          },
        });
        previousStatus = moved?.previousStatus;
        return moved?.row;
      },
      events: (row) => [
        {
          tenantId: input.tenantId,
          type: "transaction.status_changed",
          aggregateId: row.id,
          data: { transaction: toTransactionRecord(row), previousStatus: previousStatus! },
        },
      ],
      jobs: input.jobs,
      also: async (t, row) => {
        // Only what the customer created counts against limits: a deposit never added usage, nor
        // did the service's own nonce records (a fill, a replacement, a cancellation).
        if (
          row.direction === "OUTBOUND" &&
          isCreatedType(row.type) &&
          !input.keepsUsage &&
          isEndedWithoutTransfer(input.to) &&
          !isEndedWithoutTransfer(previousStatus!)
        )
          await releaseTransactionUsage(t, { tenantId: input.tenantId, transactionId: row.id });
        await input.also?.(t, row);
      },
    },
    tx,
  );
  return outcome.moved ? { ...outcome, previousStatus } : outcome;
}

/**
 * The `transaction.status_changed` events of many rows moved together (a many-row move: the block
 * watcher's, the broadcasts'), one statement: each with the record as moved and the status it had
 * under the lock, as `transitionTransaction` emits for one.
 */
export async function emitStatusChanges(
  tx: Executor,
  moved: readonly { row: TransactionRow; previousStatus: TransactionStatus }[],
): Promise<void> {
  if (moved.length === 0) return;
  await emitEvents(
    tx,
    moved.map(({ row, previousStatus }) => ({
      tenantId: row.tenantId,
      type: "transaction.status_changed" as const,
      aggregateId: row.id,
      data: { transaction: toTransactionRecord(row), previousStatus },
    })),
  );
}
