import { withinTransaction } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { duplicateExternalIdOr, insertSubmittedTransaction } from "./submit-transaction";
import type { TransactionRecord } from "../records/record-schemas";
import { resolveTransferIntent, type TransferIntentInput } from "./resolve-transfer-intent";

export interface CreateTransferInput extends TransferIntentInput {
  tenantId: string;
  /** The client's reference, unique per tenant (409 DUPLICATE_EXTERNAL_ID). */
  externalId?: string | undefined;
  note?: string | undefined;
  /** The batch it is created in (`createTransferBatch`, CONTRACT §18); none for a single create. */
  batchId?: string | undefined;
  actor: Actor;
  /**
   * "enqueue" (the default, production's only use): the `transfers.check` job is sent with the row.
   * "skip": stored without it, for test fixtures that run the checks or the release themselves.
   */
  checkJob?: "enqueue" | "skip";
  /**
   * "count" (the default): its usage is counted with the row (`countTransactionUsage`). "caller":
   * the caller counts it in the same database transaction (`createTransferBatch`, which counts all
   * its items in one statement, so that two batches never lock the usage buckets in two orders).
   */
  usage?: "count" | "caller";
}

/**
 * Accepts a transfer (CONTRACT §6): the intent is checked (resolveTransferIntent), then the
 * SUBMITTED row with the network's required confirmations, its first status-history entry, an
 * audit row, the `transaction.created` event and the `transfers.check` job are written in one
 * database transaction (the caller's, when `deps.db` is one: the idempotency key's). Three
 * statements in two round trips: the intent's read, then the row with its trail and the job
 * together. Policy, screening, quotas and balance are the job's business. Only for
 * a VERIFIED tenant: the route is value-moving (its auth middleware refuses the others), and
 * the broadcast step checks the tenant again before anything reaches the chain.
 */
export async function createTransfer(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  input: CreateTransferInput,
): Promise<TransactionRecord> {
  const now = deps.now();
  try {
    // On the idempotency key's transaction when called through the API (withinTransaction).
    return await withinTransaction(deps.db, async (tx) => {
      const intent = await resolveTransferIntent(tx, input.tenantId, input);
      return insertSubmittedTransaction(tx, deps, {
        values: {
          tenantId: input.tenantId,
          externalId: input.externalId ?? null,
          type: "TRANSFER",
          networkCode: intent.networkCode,
          chainId: intent.chainId,
          sourceWalletId: intent.wallet.id,
          sourceAddress: intent.wallet.address,
          destinationAddress: intent.destinationAddress,
          assetId: intent.asset.id,
          amount: intent.amount.toString(),
          note: input.note ?? null,
          batchId: input.batchId ?? null,
          requiredConfirmations: deps.config.transfers.requiredConfirmations[intent.networkCode],
          createdAt: now,
          updatedAt: now,
        },
        actor: input.actor,
        checkJob: input.checkJob ?? "enqueue",
        usage: input.usage ?? "count",
        auditDetails: (row) => ({
          networkCode: row.networkCode,
          sourceWalletId: row.sourceWalletId,
          destinationAddress: row.destinationAddress,
          assetId: row.assetId,
          amount: row.amount,
          externalId: row.externalId,
          ...(row.batchId ? { batchId: row.batchId } : {}),
        }),
      });
    });
  } catch (error) {
    throw duplicateExternalIdOr(error, input.externalId);
  }
}
