import type { Executor } from "@qc/db";
import { countApproverGroupMembers, findCurrentPolicy, summarizeTransfers } from "@qc/db/queries";
import { evaluatePolicyRules, type PolicyDecision, type PolicyTransfer } from "./evaluate-policy-rules";
import { storedPolicyDocument } from "./policy-record";

/**
 * The tenant's current policy applied to one transfer. Velocity windows end at `at` and are
 * summed in SQL over the tenant's transfers that did not end without moving value. For a
 * stored transfer (`transactionId`) only transfers created up to it count, itself included,
 * so the decision does not depend on the order in which checks run; a dry run adds the
 * evaluated amount to what is stored.
 *
 * A REQUIRE_APPROVAL rule that names a group that no longer exists, or a quorum above its group's
 * size now (CONTRACT §15: 1 ≤ quorum ≤ the group's size at evaluation), can never be met: the
 * transfer is BLOCKED by that rule, saying why, rather than left waiting for its timeout.
 */
export async function decideTransferPolicy(
  db: Executor,
  input: { tenantId: string; transfer: PolicyTransfer; at: Date; transactionId?: string },
): Promise<PolicyDecision> {
  const row = await findCurrentPolicy(db, { tenantId: input.tenantId });
  const { transfer } = input;
  const decision = await evaluatePolicyRules(storedPolicyDocument(row), row?.version ?? null, transfer, async (velocity) => {
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
  return decision.approvals ? unmeetableApprovalsBlock(db, input.tenantId, decision) : decision;
}

/** The decision, or BLOCK when one of its approval requirements cannot be met now. */
async function unmeetableApprovalsBlock(db: Executor, tenantId: string, decision: PolicyDecision): Promise<PolicyDecision> {
  const required = decision.approvals!;
  const sizes = await countApproverGroupMembers(db, { tenantId, groupIds: required.map((r) => r.groupId) });
  for (const { groupId, quorum } of required) {
    const size = sizes.get(groupId);
    if (size !== undefined && quorum <= size) continue;
    const why =
      size === undefined
        ? `approver group ${groupId} no longer exists`
        : `approver group ${groupId} has ${size} member(s), fewer than its quorum of ${quorum}`;
    const { approvals: _unmet, ...rest } = decision;
    return {
      ...rest,
      decision: "BLOCK",
      reason: `blocked by policy rule "${decision.ruleName}" (${decision.ruleId}): its approval cannot be met (${why})`,
    };
  }
  return decision;
}
