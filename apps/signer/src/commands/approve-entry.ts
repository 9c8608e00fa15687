import { Command } from "commander";
import { currentApprovalKey, signApprovalHash } from "../lib/approvals/approval-key";
import { describeEntryApproval, readEntryApproval } from "../lib/approvals/read-entry-approval";
import { UsageError } from "../lib/errors";
import { connect } from "../session";
import { print } from "../terminal";
import { confirmLastFour } from "./confirm";
import { uuidArgument } from "./options";
import { ENTRY_DECISION_HINTS, withHints } from "./service-hints";

/** `approve-entry <entryId>`: an address-book addition awaiting approval (CONTRACT §16), approved like a transfer. */
export function approveEntryCommand(): Command {
  return new Command("approve-entry")
    .description("show an address-book entry awaiting your approval, verify its approval hash, and approve it after you confirm")
    .argument("<entryId>", "the address-book entry to approve", uuidArgument)
    .addHelpText(
      "after",
      [
        "",
        "Reads the entry (GET /v1/address-book/<entryId>) and shows its network, address, label, assets and",
        "what its quorum needs. Rebuilds the approval fields (this signer's tenantId, id, networkCode,",
        "address, label, sorted assetIds, createdAt) and their approvalHash (first line",
        "QUANTUM-ADDRESS-BOOK-APPROVAL-v1), and refuses (exit 1, nothing sent) on any difference from the",
        "service's. Then asks for the last 4 characters of the address; only a match signs (ML-DSA-87,",
        "context QUANTUM-APPROVAL-v1, with the newest approval key of `enroll-approver`) and posts it.",
      ].join("\n"),
    )
    .action(async (id: string) => {
      const { keystore, profile, api } = await connect();
      try {
        const key = currentApprovalKey(keystore, profile.tenantId);
        const entry = readEntryApproval({ entry: await api.addressBookEntry(id), tenantId: profile.tenantId });
        for (const line of describeEntryApproval(entry)) print(line);
        print("");
        await confirmLastFour(entry.address, "address", "approve");
        const signature = signApprovalHash(key, entry.approvalHash);
        const result = await withHints(
          api.decideAddressBookEntry(id, { decision: "APPROVED", keyId: key.keyId, signature }),
          ENTRY_DECISION_HINTS,
        );
        print(
          `Approved with approval key ${key.keyId}. Status: ${result.status}${result.activatesAt ? ` (active from ${result.activatesAt})` : ""}`,
        );
      } finally {
        keystore.close();
      }
    });
}

/** `reject-entry <entryId> --reason <text>`: the entry is removed at once. */
export function rejectEntryCommand(): Command {
  return new Command("reject-entry")
    .description("refuse an address-book entry awaiting approval; it is removed at once")
    .argument("<entryId>", "the address-book entry to refuse", uuidArgument)
    .requiredOption("--reason <text>", "why, recorded with your decision and as the entry's removalReason")
    .action(async (id: string, options: { reason: string }) => {
      const reason = options.reason.trim();
      if (reason.length === 0) throw new UsageError("--reason must not be empty");
      const { keystore, api } = await connect();
      keystore.close();
      const result = await withHints(api.decideAddressBookEntry(id, { decision: "REJECTED", reason }), ENTRY_DECISION_HINTS);
      print(`Rejected. Status: ${result.status}`);
    });
}
