import { Command } from "commander";
import { summarizeTransaction } from "../lib/review/summarize-transaction";
import { approvalTransactionSchema } from "../lib/service/approvals-api";
import { connect } from "../session";
import { print } from "../terminal";
import { assetLookup } from "./asset-lookup";
import { formatSummary } from "./pending";

export function approvalsCommand(): Command {
  return new Command("approvals")
    .description("list the transactions waiting for your approval")
    .option("--json", "print {transactions: [...]} exactly as the service returns them")
    .action(async (options: { json?: boolean }) => {
      const { keystore, api } = await connect();
      keystore.close();
      const { transactions } = await api.pendingApprovals();
      if (options.json) {
        print(JSON.stringify({ transactions }));
        return;
      }
      if (transactions.length === 0) {
        print("No transactions are waiting for your approval.");
        return;
      }
      const assetsOf = assetLookup(api);
      print(`${"ID".padEnd(36)}  ${"CREATED".padEnd(24)}  ${"NETWORK".padEnd(15)}  TRANSFER`);
      for (const transaction of transactions) {
        const summary = summarizeTransaction(transaction, await assetsOf(transaction.networkCode), approvalTransactionSchema);
        print(formatSummary(summary, "approve"));
      }
      print("");
      print("Approve one with: signer approve <id>; refuse it with: signer reject-approval <id> --reason <text>");
    });
}
