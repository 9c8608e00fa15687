import { Command } from "commander";
import { enrollApprover } from "../lib/approvals/enroll-approver";
import { connect } from "../session";
import { print } from "../terminal";
import { ENROLL_APPROVER_HINTS, withHints } from "./service-hints";

export function enrollApproverCommand(): Command {
  return new Command("enroll-approver")
    .description("make an approval key for you (the API key's member) and enroll it, so that `approve` can sign approvals")
    .addHelpText(
      "after",
      [
        "",
        "Asks the service which member the API key belongs to (GET /v1/members/me), generates an ML-DSA-87 key,",
        "writes it to the keystore, proves it (context QUANTUM-APPROVER-KEY-v1, over keccak256 of",
        "QUANTUM-APPROVER-KEY-v1\\n<tenantId>\\n<userId>) and posts it to POST /v1/members/me/approval-keys.",
        "The key signs approvals only, never a transaction; a transaction key never signs an approval.",
        "Run it again to replace the key: `approve` signs with the newest one.",
      ].join("\n"),
    )
    .action(async () => {
      const { keystore, profile, api } = await connect();
      try {
        const result = await withHints(enrollApprover({ keystore, api, tenantId: profile.tenantId }), ENROLL_APPROVER_HINTS);
        const resumed = result.resumed ? " (left pending by an earlier run)" : "";
        print(`Enrolled approval key ${result.keyId}${resumed} for member ${result.userId} of tenant ${profile.tenantId}.`);
        print("Approve with: signer approve <transactionId>");
      } finally {
        keystore.close();
      }
    });
}
