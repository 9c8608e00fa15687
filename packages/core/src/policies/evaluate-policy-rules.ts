import type { NetworkCode } from "@qc/chain";
import type { PolicyAction } from "@qc/domain";
import type { ApprovalRequirement, PolicyDocument, PolicyRule, PolicyVelocity } from "./policy-document";

/** What the rules look at: the transfer's intent, its source vault on its network included. */
export interface PolicyTransfer {
  networkCode: NetworkCode;
  sourceWalletId: string;
  /** The vault the source wallet is placed in on `networkCode`. */
  sourceVaultId: string;
  assetId: string;
  /** Canonical (lower-case 0x). */
  destinationAddress: string;
  amount: bigint;
  /**
   * The destination's address-book entry that counts for this transfer (CONTRACT §16: ACTIVE at
   * the decision's instant, on its network, for its asset), or null when it has none. Looked up
   * only for a policy with a `destination` rule; left out, the destination counts as not in the
   * book, so an allowlist rule fails closed.
   */
  addressBookEntry?: { id: string; label: string } | null;
}

/**
 * The policy step's answer. Kept general on purpose: the roadmap's approval quorums add a
 * decision (e.g. an approval requirement) that the release step reads, without changing how
 * rules match. `reason` is the human explanation a BLOCKED transfer carries as statusReason.
 */
export interface PolicyDecision {
  decision: PolicyAction;
  /** The first rule that matched, or null for the default action (or no policy at all). */
  ruleId: string | null;
  ruleName: string | null;
  /** The policy version decided with; null when the tenant never set one. */
  policyVersion: number | null;
  reason: string;
  /** For a velocity rule that matched: the window's sum, this transfer included. */
  velocitySum?: string;
  /** REQUIRE_APPROVAL only: the groups that must each reach their quorum (CONTRACT §15). */
  approvals?: ApprovalRequirement[];
  /**
   * When the policy looked the destination up in the address book (a rule matches on
   * `destination`): the active entry's label, or null when it is not in the book (CONTRACT §16).
   */
  destinationLabel?: string | null;
}

/** Sums the transfer's asset over a velocity rule's window and scope (in SQL, by the caller). */
export type VelocitySum = (velocity: PolicyVelocity) => Promise<bigint>;

/** Whether every condition of the rule's `match` holds (AND; a list matches any of its values). */
export function ruleMatches(rule: Pick<PolicyRule, "match">, transfer: PolicyTransfer): boolean {
  const m = rule.match;
  if (m.networkCodes && !m.networkCodes.includes(transfer.networkCode)) return false;
  if (m.sourceVaultIds && !m.sourceVaultIds.includes(transfer.sourceVaultId)) return false;
  if (m.sourceWalletIds && !m.sourceWalletIds.includes(transfer.sourceWalletId)) return false;
  if (m.assetIds && !m.assetIds.includes(transfer.assetId)) return false;
  if (m.destinationAddresses && !m.destinationAddresses.includes(transfer.destinationAddress)) return false;
  if (m.amountAbove !== undefined && !(transfer.amount > BigInt(m.amountAbove))) return false;
  if (m.destination && (m.destination === "ADDRESS_BOOK") !== Boolean(transfer.addressBookEntry)) return false;
  return true;
}

/**
 * CONTRACT §6: the rules in order, the first that matches decides; a rule with `velocity`
 * matches only when the window's sum (this transfer included) is above its amount; no rule
 * matching → `defaultAction`. Velocity sums are asked for only for rules whose match holds.
 */
export async function evaluatePolicyRules(
  document: PolicyDocument,
  policyVersion: number | null,
  transfer: PolicyTransfer,
  velocitySum: VelocitySum,
): Promise<PolicyDecision> {
  for (const rule of document.rules) {
    if (!ruleMatches(rule, transfer)) continue;
    let velocityNote = "";
    let sum: bigint | undefined;
    if (rule.velocity) {
      sum = await velocitySum(rule.velocity);
      if (!(sum > BigInt(rule.velocity.amount))) continue;
      velocityNote = `: ${sum} moved by the ${rule.velocity.scope.toLowerCase()} in the last ${rule.velocity.windowSeconds} s (this transfer included) is above the limit of ${rule.velocity.amount}`;
    }
    const verb = rule.action === "BLOCK" ? "blocked" : rule.action === "REQUIRE_APPROVAL" ? "held for approval" : "allowed";
    const destinationNote = rule.match.destination
      ? transfer.addressBookEntry
        ? `: the destination is in the address book ("${transfer.addressBookEntry.label}")`
        : ": the destination is not in the address book (no active entry for this network and asset)"
      : "";
    return {
      decision: rule.action,
      ruleId: rule.id,
      ruleName: rule.name,
      policyVersion,
      reason: `${verb} by policy rule "${rule.name}" (${rule.id})${destinationNote}${velocityNote}`,
      ...(sum !== undefined ? { velocitySum: sum.toString() } : {}),
      ...(rule.approvals ? { approvals: rule.approvals } : {}),
    };
  }
  return {
    decision: document.defaultAction,
    ruleId: null,
    ruleName: null,
    policyVersion,
    reason:
      policyVersion === null
        ? "no policy is set: transfers are allowed"
        : `${document.defaultAction === "BLOCK" ? "blocked" : "allowed"} by the policy's default action (no rule matched)`,
  };
}
