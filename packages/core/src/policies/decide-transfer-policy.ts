import type { Executor } from "@qc/db";
import { countApproverGroupMembers, findCurrentPolicy } from "@qc/db/queries";
import { withAddressBookEntry } from "./address-book-destination";
import { evaluatePolicyRules, type PolicyDecision, type PolicyTransfer } from "./evaluate-policy-rules";
import { storedPolicyDocument } from "./policy-record";
import { sumWindowUsage } from "../quotas/sum-window-usage";

/**
 * The tenant's current policy applied to one transfer. Velocity windows end at `at` and are read
 * from the scope's hourly usage buckets (`sumWindowUsage`, docs/decisions/usage-buckets.md):
 * every transfer of every hour the window overlaps that did not end without moving value, a
 * stored transfer (`transactionId`) itself included, and the later and concurrent ones of its
 * hour too, so a check never counts less than what was created before it; a dry run adds the
 * evaluated amount to what is stored.
 *
 * A rule matching on `destination` (CONTRACT §16) needs the destination's address-book entry:
 * it is read once, as of `now` (the clock, not `at`: an entry counts from its `activatesAt` to the
 * second), and only when some rule has one, so other policies' decisions run the same statements.
 *
 * A REQUIRE_APPROVAL rule that names a group that no longer exists, or a quorum above its group's
 * size now (CONTRACT §15: 1 ≤ quorum ≤ the group's size at evaluation), can never be met: the
 * transfer is BLOCKED by that rule, saying why, rather than left waiting for its timeout.
 */
export async function decideTransferPolicy(
  db: Executor,
  input: { tenantId: string; transfer: PolicyTransfer; at: Date; now: Date; transactionId?: string },
): Promise<PolicyDecision> {
  const row = await findCurrentPolicy(db, { tenantId: input.tenantId });
  const document = storedPolicyDocument(row);
  const transfer = await withAddressBookEntry(db, input.tenantId, document, input.transfer, input.now);
  const decision = await evaluatePolicyRules(document, row?.version ?? null, transfer, async (velocity) => {
    const { amount } = await sumWindowUsage(db, {
      tenantId: input.tenantId,
      scope: velocity.scope,
      transfer,
      from: new Date(input.at.getTime() - velocity.windowSeconds * 1000),
      at: input.at,
    });
    return input.transactionId ? amount : amount + transfer.amount;
  });
  const decided = decision.approvals ? await unmeetableApprovalsBlock(db, input.tenantId, decision) : decision;
  return transfer.addressBookEntry === undefined ? decided : { ...decided, destinationLabel: transfer.addressBookEntry?.label ?? null };
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
