import type { TransactionRow } from "@qc/db/queries";
import type { TransactionRecord } from "../records/record-schemas";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The contract's record (CONTRACT §6) of a stored transaction. */
export function toTransactionRecord(row: TransactionRow): TransactionRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    externalId: row.externalId,
    type: row.type,
    direction: row.direction,
    networkCode: row.networkCode,
    chainId: row.chainId,
    sourceWalletId: row.sourceWalletId,
    sourceAddress: row.sourceAddress,
    destinationWalletId: row.destinationWalletId,
    destinationAddress: row.destinationAddress,
    assetId: row.assetId,
    tokenAddress: row.tokenAddress,
    logIndex: row.logIndex,
    amount: row.amount,
    status: row.status,
    subStatus: row.subStatus,
    statusReason: row.statusReason,
    nonce: row.nonce,
    fee:
      row.gasLimit !== null && row.maxFeePerGas !== null && row.maxPriorityFeePerGas !== null
        ? { gasLimit: row.gasLimit, maxFeePerGas: row.maxFeePerGas, maxPriorityFeePerGas: row.maxPriorityFeePerGas }
        : null,
    signingHash: row.signingHash,
    chainTxHash: row.chainTxHash,
    blockNumber: row.blockNumber,
    confirmations: row.confirmations,
    requiredConfirmations: row.requiredConfirmations,
    screening: row.screening ?? null,
    policy: row.policy ?? null,
    contractAddress: row.contractAddress,
    // Only deployments carry it, so a transfer's record keeps exactly the fields of CONTRACT §6.
    ...(row.templateId !== null && row.constructorArgs !== null
      ? { deployment: { templateId: row.templateId, constructorArgs: row.constructorArgs } }
      : {}),
    note: row.note,
    destinationLabel: row.destinationLabel,
    initiatedBy: row.initiatedByType ? { type: row.initiatedByType, userId: row.initiatedByUserId, keyId: row.initiatedByKeyId } : null,
    approvals: row.approvals ?? null,
    replacesTransactionId: row.replacesTransactionId,
    replacedByTransactionId: row.replacedByTransactionId,
    stuck: row.stuck,
    batchId: row.batchId,
    simulation: row.simulation ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    signedAt: iso(row.signedAt),
    broadcastAt: iso(row.broadcastAt),
    completedAt: iso(row.completedAt),
  };
}
