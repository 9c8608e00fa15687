import { Command } from "commander";
import { summarizeTransaction, type TransactionSummary } from "../lib/review/summarize-transaction";
import { connect } from "../session";
import { print } from "../terminal";
import { assetLookup } from "./asset-lookup";

export function formatSummary(summary: TransactionSummary, command = "review"): string {
  if (summary.malformed) return `${summary.id}  (a record this signer cannot read; \`${command}\` will refuse it)`;
  return `${summary.id}  ${summary.createdAt.padEnd(24)}  ${summary.networkCode.padEnd(15)}  ${summary.amount} to ${summary.destination} from ${summary.source}`;
}

export function pendingCommand(): Command {
  return new Command("pending")
    .description("list the transactions waiting for a signature")
    .option("--json", "print {transactions: [...]} exactly as the service returns them")
    .addHelpText(
      "after",
      [
        "",
        "One line each: id, creation time, network, amount to destination from source. A NONCE_FILL or a",
        "CANCELLATION (CONTRACT §17) reads `0 Q to itself (NONCE_FILL of nonce <n>)` or `(CANCELLATION of <id>)`:",
        "zero value from the source to itself; a REPLACEMENT (a speed-up) names the transaction it replaces.",
        "`review <id>` verifies each before anything is signed.",
      ].join("\n"),
    )
    .action(async (options: { json?: boolean }) => {
      const { keystore, api } = await connect();
      keystore.close();
      const { transactions } = await api.pendingTransactions();
      if (options.json) {
        print(JSON.stringify({ transactions }));
        return;
      }
      if (transactions.length === 0) {
        print("No transactions are waiting for a signature.");
        return;
      }
      const assetsOf = assetLookup(api);
      print(`${"ID".padEnd(36)}  ${"CREATED".padEnd(24)}  ${"NETWORK".padEnd(15)}  TRANSFER`);
      for (const transaction of transactions) {
        print(formatSummary(summarizeTransaction(transaction, await assetsOf(transaction.networkCode))));
      }
      print("");
      print("Review and sign one with: signer review <id>");
    });
}
