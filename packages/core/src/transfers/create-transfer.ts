import { isUniqueViolation } from "@qc/db";
import { insertStatusHistory, insertTransaction } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import type { TransactionRecord } from "../records/record-schemas";
import { resolveTransferIntent, type TransferIntentInput } from "./resolve-transfer-intent";
import { toTransactionRecord } from "./transaction-record";

export interface CreateTransferInput extends TransferIntentInput {
  tenantId: string;
  /** The client's reference, unique per tenant (409 DUPLICATE_EXTERNAL_ID). */
  externalId?: string | undefined;
  note?: string | undefined;
  actor: Actor;
}

/**
 * Accepts a transfer (CONTRACT §6): the intent is checked (resolveTransferIntent), then the
 * SUBMITTED row with the network's required confirmations, its first status-history entry, an
 * audit row, the `transaction.created` event and the `transfers.check` job are written in one
 * database transaction. Policy, screening, quotas and balance are the job's business. Only for
 * a VERIFIED tenant: the route is value-moving (its auth middleware refuses the others), and
 * the broadcast step checks the tenant again before anything reaches the chain.
 */
export async function createTransfer(deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">, input: CreateTransferInput): Promise<TransactionRecord> {
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const intent = await resolveTransferIntent(tx, input.tenantId, input);
      const row = await insertTransaction(tx, {
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
        status: "SUBMITTED",
        requiredConfirmations: deps.config.transfers.requiredConfirmations[intent.networkCode],
        createdAt: now,
        updatedAt: now,
      });
      await insertStatusHistory(tx, {
        tenantId: input.tenantId,
        transactionId: row.id,
        fromStatus: null,
        toStatus: "SUBMITTED",
        subStatus: null,
        reason: null,
        actorType: input.actor.type,
        actorId: input.actor.id,
        createdAt: now,
      });
      const record = toTransactionRecord(row);
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "transaction.created",
        target: { type: "transaction", id: row.id },
        details: { networkCode: row.networkCode, sourceWalletId: row.sourceWalletId, destinationAddress: row.destinationAddress, assetId: row.assetId, amount: row.amount, externalId: row.externalId },
      });
      await emitEvent(tx, { tenantId: input.tenantId, type: "transaction.created", aggregateId: row.id, data: { transaction: record } });
      await deps.jobs.send(tx, "transfers.check", { tenantId: input.tenantId, transactionId: row.id });
      return record;
    });
  } catch (error) {
    if (isUniqueViolation(error, "transactions_tenant_external_id_unique")) {
      throw new AppError("DUPLICATE_EXTERNAL_ID", "externalId is already used by another transaction of this tenant", {
        details: { externalId: input.externalId },
      });
    }
    throw error;
  }
}
