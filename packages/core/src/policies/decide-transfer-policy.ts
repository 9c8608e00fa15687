import type { Executor } from "@qc/db";
import { findCurrentPolicy, summarizeTransfers } from "@qc/db/queries";
import { evaluatePolicyRules, type PolicyDecision, type PolicyTransfer } from "./evaluate-policy-rules";
import { storedPolicyDocument } from "./policy-record";

/**
 * The tenant's current policy applied to one transfer. Velocity windows end at `at` and are
 * summed in SQL over the tenant's transfers that did not end without moving value. For a
 * stored transfer (`transactionId`) only transfers created up to it count, itself included,
 * so the decision does not depend on the order in which checks run; a dry run adds the
 * evaluated amount to what is stored.
 */
export async function decideTransferPolicy(
  db: Executor,
  input: { tenantId: string; transfer: PolicyTransfer; at: Date; transactionId?: string },
): Promise<PolicyDecision> {
  const row = await findCurrentPolicy(db, { tenantId: input.tenantId });
  const { transfer } = input;
  return evaluatePolicyRules(storedPolicyDocument(row), row?.version ?? null, transfer, async (velocity) => {
    const { amount } = await summarizeTransfers(db, {
      tenantId: input.tenantId,
      assetId: transfer.assetId,
      from: new Date(input.at.getTime() - velocity.windowSeconds * 1000),
      to: input.at,
      upToId: input.transactionId,
      sourceWalletId: velocity.scope === "WALLET" ? transfer.sourceWalletId : undefined,
      vaultId: velocity.scope === "VAULT" ? transfer.sourceVaultId : undefined,
    });
    return input.transactionId ? amount : amount + transfer.amount;
  });
}
