import { Command } from "commander";
import { isNetworkCode } from "@qc/chain";
import { currentApprovalKey, signApprovalHash } from "../lib/approvals/approval-key";
import { describeApproval, describeApprovalVerification } from "../lib/approvals/describe-approval";
import { readApprovalRequest } from "../lib/approvals/read-approval";
import { describeSimulation } from "../lib/review/describe-simulation";
import { connect } from "../session";
import { print } from "../terminal";
import { confirmLastFour } from "./confirm";
import { findListed } from "./find-listed";
import { uuidArgument } from "./options";
import { DECISION_HINTS, withHints } from "./service-hints";

export function approveCommand(): Command {
  return new Command("approve")
    .description("show a transaction awaiting your approval, verify its approval hash, and approve it after you confirm")
    .argument("<transactionId>", "the transaction to approve", uuidArgument)
    .addHelpText(
      "after",
      [
        "",
        "Takes the transaction from GET /v1/approvals?status=PENDING and shows its type, network, source,",
        "destination, asset and amount, who started it and what the quorum needs, and the balance changes",
        "the service's simulation (eth_simulateV1) found, or a line saying there is none. Rebuilds the approval",
        "fields (tenantId, id, chainId, sourceAddress, destinationAddress, assetId, amount, type) from the",
        "record itself and their approvalHash, and refuses (exit 1, nothing sent) on any difference from the",
        "service's approvalRequest. Then asks for the last 4 characters of the destination address (of the",
        "approval hash for a contract deployment), from the terminal or the first line of standard input;",
        "only a match signs (ML-DSA-87, context QUANTUM-APPROVAL-v1, with the newest approval key of",
        "`enroll-approver`) and posts the approval. No option skips the confirmation.",
      ].join("\n"),
    )
    .action(async (id: string) => {
      const { keystore, profile, api } = await connect();
      try {
        const key = currentApprovalKey(keystore, profile.tenantId);
        const transaction = await findListed(api, id, () => api.pendingApprovals(), "your approval");
        const assets = isNetworkCode(transaction.networkCode) ? await api.assets(transaction.networkCode) : [];
        const approval = readApprovalRequest({ transaction, tenantId: profile.tenantId, assets });
        for (const line of describeApproval(approval)) print(line);
        for (const line of describeSimulation(transaction.simulation, assets)) print(line);
        for (const line of describeApprovalVerification(approval)) print(line);
        print("");

        if (approval.destinationAddress !== null) await confirmLastFour(approval.destinationAddress, "destination address", "approve");
        else await confirmLastFour(approval.approvalHash, "approval hash", "approve");
        const signature = signApprovalHash(key, approval.approvalHash);
        const result = await withHints(api.decideApproval(id, { decision: "APPROVED", keyId: key.keyId, signature }), DECISION_HINTS);
        print(`Approved with approval key ${key.keyId}. Status: ${result.status}${result.subStatus ? ` (${result.subStatus})` : ""}`);
      } finally {
        keystore.close();
      }
    });
}
