import { Command } from "commander";
import { isNetworkCode } from "@qc/chain";
import { describeTransfer, describeVerification } from "../lib/review/describe-transfer";
import { readTransfer } from "../lib/review/read-transfer";
import { describeDeployment, describeDeploymentVerification } from "../lib/review/describe-deployment";
import { readDeployment } from "../lib/review/read-deployment";
import { verifyDeploymentRequest } from "../lib/review/verify-deployment-request";
import { verifySigningRequest } from "../lib/review/verify-signing-request";
import type { SignerApi } from "../lib/service/signer-api";
import { signTransfer } from "../lib/sign-transfer";
import { connect } from "../session";
import { print } from "../terminal";
import { confirmLastFour } from "./confirm";
import { findListed } from "./find-listed";
import { uuidArgument } from "./options";

/**
 * A contract deployment: shown as "deploy <template> v<version>, bytecode hash …, constructor
 * arguments …" from this signer's own catalog, rebuilt here, and signed only after the person
 * types the last 4 characters of the bytecode hash (there is no destination to confirm).
 */
async function reviewDeployment(
  api: SignerApi,
  id: string,
  transaction: Record<string, unknown>,
  findKey: Parameters<typeof readDeployment>[0]["findKey"],
): Promise<void> {
  const shown = readDeployment({ transaction, findKey });
  for (const line of describeDeployment(shown)) print(line);
  const verified = verifyDeploymentRequest(shown);
  for (const line of describeDeploymentVerification(verified)) print(line);
  print("");
  await confirmLastFour(verified.bytecodeHash, "bytecode hash", "sign and submit");
  const result = await api.submitSignature(id, signTransfer(verified));
  print(`Signed and submitted. Status: ${result.status}`);
}

export function reviewCommand(): Command {
  return new Command("review")
    .description("show a transaction, verify its signing request, and sign it after you confirm the destination")
    .argument("<transactionId>", "the transaction to review", uuidArgument)
    .addHelpText(
      "after",
      [
        "",
        "Shows network, source, destination, asset, amount, fee caps and nonce; rebuilds the unsigned",
        "transaction and its signing hash from exactly those fields and refuses (exit 1, nothing sent) on",
        "any difference from what the service sent. Then asks for the last 4 characters of the destination",
        "address (from the terminal, or the first line of standard input when there is none); only a match",
        "signs (ML-DSA-87, context QUANTUM-TX-v1) and submits. No option skips the confirmation.",
        "",
        "A contract deployment is shown as the template (name, version, bytecode hash) from this signer's own",
        "catalog and its constructor arguments; the creation is rebuilt here from those and the confirmation",
        "is the last 4 characters of the bytecode hash.",
      ].join("\n"),
    )
    .action(async (id: string) => {
      const { keystore, api } = await connect();
      try {
        const transaction = await findListed(api, id, () => api.pendingTransactions(), "a signature");
        if (transaction.type === "CONTRACT_DEPLOY") {
          await reviewDeployment(api, id, transaction, (address) => keystore.findKey(address));
          return;
        }
        const assets = isNetworkCode(transaction.networkCode) ? await api.assets(transaction.networkCode) : [];
        const shown = readTransfer({ transaction, assets, findKey: (address) => keystore.findKey(address) });
        for (const line of describeTransfer(shown)) print(line);
        const verified = verifySigningRequest(shown);
        for (const line of describeVerification(verified)) print(line);
        print("");

        await confirmLastFour(verified.destinationAddress, "destination address", "sign and submit");
        const signature = signTransfer(verified);
        const result = await api.submitSignature(id, signature);
        print(`Signed and submitted. Status: ${result.status}`);
      } finally {
        keystore.close();
      }
    });
}
