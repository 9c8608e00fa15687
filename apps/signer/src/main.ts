import { Command, CommanderError } from "commander";
import { initCommand } from "./commands/init";
import { loginCommand } from "./commands/login";
import { keysCommand } from "./commands/keys-list";
import { enrollCommand } from "./commands/enroll";
import { registerWalletCommand } from "./commands/register-wallet";
import { pendingCommand } from "./commands/pending";
import { reviewCommand } from "./commands/review";
import { rejectCommand } from "./commands/reject";
import { watchCommand } from "./commands/watch";
import { serveCommand } from "./commands/serve";
import { enrollApproverCommand } from "./commands/enroll-approver";
import { approvalsCommand } from "./commands/approvals";
import { approveCommand } from "./commands/approve";
import { rejectApprovalCommand } from "./commands/reject-approval";
import { approveEntryCommand, rejectEntryCommand } from "./commands/approve-entry";
import { verifyEvidenceCommand } from "./commands/verify-evidence";
import { SignerError, UsageError } from "./lib/errors";
import { printableText } from "./lib/review/printable-text";

/** Exit codes (CONTRACT §12). */
const DONE = 0;
const FAILED = 1;
const USAGE = 2;

function program(): Command {
  const root = new Command("signer")
    .description("Quantum Custody reference signer: holds your ML-DSA-87 keys and signs only what you reviewed")
    .addHelpText(
      "after",
      "\nState lives in QC_SIGNER_HOME (default ~/.quantum-signer). The passphrase is asked on the " +
        "terminal;\nQC_SIGNER_PASSPHRASE supplies it for automation. Exit codes: 0 done, 1 refused or failed, 2 usage " +
        "error.",
    )
    .addCommand(initCommand())
    .addCommand(loginCommand())
    .addCommand(keysCommand())
    .addCommand(enrollCommand())
    .addCommand(registerWalletCommand())
    .addCommand(pendingCommand())
    .addCommand(reviewCommand())
    .addCommand(rejectCommand())
    .addCommand(watchCommand())
    .addCommand(serveCommand())
    .addCommand(enrollApproverCommand())
    .addCommand(approvalsCommand())
    .addCommand(approveCommand())
    .addCommand(rejectApprovalCommand())
    .addCommand(approveEntryCommand())
    .addCommand(rejectEntryCommand())
    .addCommand(verifyEvidenceCommand());
  // Parse errors become exceptions (mapped to exit 2 below) instead of process.exit deep inside commander.
  const configure = (command: Command) => {
    command.exitOverride().showSuggestionAfterError(true);
    command.commands.forEach(configure);
  };
  configure(root);
  return root;
}

function fail(message: string): void {
  process.stderr.write(`signer: ${printableText(message, 4000)}\n`);
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return DONE;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed the help or the usage error.
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" ? DONE : USAGE;
    }
    if (error instanceof UsageError) {
      fail(error.message);
      return USAGE;
    }
    if (error instanceof SignerError) {
      fail(error.message);
      return FAILED;
    }
    // Never a stack trace: it could carry values from the frames that failed.
    fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return FAILED;
  }
}

process.exitCode = await main(process.argv);
