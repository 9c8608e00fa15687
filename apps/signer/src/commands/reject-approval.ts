import { Command } from "commander";
import { UsageError } from "../lib/errors";
import { connect } from "../session";
import { print } from "../terminal";
import { uuidArgument } from "./options";
import { DECISION_HINTS, withHints } from "./service-hints";

export function rejectApprovalCommand(): Command {
  return new Command("reject-approval")
    .description("refuse to approve a transaction; it ends in REJECTED (REJECTED_BY_APPROVER)")
    .argument("<transactionId>", "the transaction to refuse", uuidArgument)
    .requiredOption("--reason <text>", "why, recorded with your decision")
    .action(async (id: string, options: { reason: string }) => {
      const reason = options.reason.trim();
      if (reason.length === 0) throw new UsageError("--reason must not be empty");
      const { keystore, api } = await connect();
      keystore.close();
      const result = await withHints(api.decideApproval(id, { decision: "REJECTED", reason }), DECISION_HINTS);
      print(`Rejected. Status: ${result.status}${result.subStatus ? ` (${result.subStatus})` : ""}`);
    });
}
