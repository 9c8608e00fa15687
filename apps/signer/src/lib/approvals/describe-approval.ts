import { describeAssetAmount } from "../review/describe-transfer";
import { printableText } from "../review/printable-text";
import type { VerifiedApproval } from "./read-approval";

/** The lines `approve` prints: the intent the approval covers, who started it, and what the quorum needs. */
export function describeApproval(approval: VerifiedApproval): string[] {
  const lines = [
    `Transaction   ${printableText(approval.id)}`,
    `Type          ${approval.type}`,
    `Network       ${approval.networkCode} (chain ${approval.chainId})`,
    `Source        ${approval.sourceAddress}`,
  ];
  if (approval.destinationAddress !== null && approval.asset !== null) {
    lines.push(`Destination   ${approval.destinationAddress}`, ...describeAssetAmount(approval.asset, approval.amount));
  } else {
    lines.push("Destination   none: a contract deployment (no asset moves)");
  }
  const by = approval.initiatedBy;
  if (by) {
    const who = by.type === "API_KEY" ? `API key ${by.keyId ?? "?"} of member ${by.userId ?? "?"}` : `member ${by.userId ?? "?"}`;
    lines.push(`Initiated by  ${printableText(who, 200)}`);
  }
  for (const { groupId, quorum } of approval.approvals?.required ?? []) {
    const approved = (approval.approvals?.decisions ?? []).filter((d) => d.decision === "APPROVED" && d.groupIds?.includes(groupId)).length;
    lines.push(`Needs         ${quorum} approval(s) of group ${printableText(groupId, 64)} (${approved} so far)`);
  }
  if (approval.externalId) lines.push(`External id   ${printableText(approval.externalId)}`);
  if (approval.note) lines.push(`Note          ${printableText(approval.note, 500)}`);
  return lines;
}

/** The lines printed once the service's approval request proved identical to the record. */
export function describeApprovalVerification(approval: VerifiedApproval): string[] {
  return [
    "Verified      the approval hash was rebuilt here from the fields above and matches the service's",
    `Approval hash ${approval.approvalHash}`,
  ];
}
