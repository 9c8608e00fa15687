import { Command } from "commander";
import { UsageError } from "../lib/errors";
import { connect } from "../session";
import { print } from "../terminal";
import { uuidArgument } from "./options";

export function rejectCommand(): Command {
  return new Command("reject")
    .description("refuse to sign a transaction; it ends in REJECTED (REJECTED_BY_SIGNER)")
    .argument("<transactionId>", "the transaction to reject", uuidArgument)
    .requiredOption("--reason <text>", "why, recorded with the transaction")
    .action(async (id: string, options: { reason: string }) => {
      const reason = options.reason.trim();
      if (reason.length === 0) throw new UsageError("--reason must not be empty");
      const { keystore, api } = await connect();
      keystore.close();
      const result = await api.reject(id, reason);
      print(`Rejected. Status: ${result.status}${result.subStatus ? ` (${result.subStatus})` : ""}`);
    });
}
