import { Command } from "commander";
import { isNetworkCode } from "@qc/chain";
import { describeTransfer, describeVerification } from "../lib/review/describe-transfer";
import { describeSimulation } from "../lib/review/describe-simulation";
import { readTransfer } from "../lib/review/read-transfer";
import { describeDeployment, describeDeploymentVerification } from "../lib/review/describe-deployment";
import { readDeployment } from "../lib/review/read-deployment";
import { verifyDeploymentRequest } from "../lib/review/verify-deployment-request";
import { verifySigningRequest } from "../lib/review/verify-signing-request";
import { describeSelfSend, describeSelfSendVerification } from "../lib/review/describe-self-send";
import { fetchOriginal } from "../lib/review/fetch-original";
import { isSelfSendType, readSelfSend } from "../lib/review/read-self-send";
import { verifySelfSendRequest } from "../lib/review/verify-self-send";
import type { SignerApi } from "../lib/service/signer-api";
import { signTransfer } from "../lib/sign-transfer";
import { connect } from "../session";
import { print } from "../terminal";
import { UsageError } from "../lib/errors";
import { confirmLastFour } from "./confirm";
import { findListed } from "./find-listed";
import { uuidArgument } from "./options";
import { reviewBatch } from "./review-batch";

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
  original: unknown,
): Promise<void> {
  const shown = readDeployment({ transaction, findKey, original });
  for (const line of describeDeployment(shown)) print(line);
  const verified = verifyDeploymentRequest(shown);
  for (const line of describeDeploymentVerification(verified)) print(line);
  await confirmSignSubmit(api, id, verified, verified.bytecodeHash, "bytecode hash");
}

/** After the verified lines: the typed confirmation of `value`'s last 4 characters, then the signature, submitted. */
async function confirmSignSubmit(
  api: SignerApi,
  id: string,
  verified: Parameters<typeof signTransfer>[0],
  value: string,
  what: string,
): Promise<void> {
  print("");
  await confirmLastFour(value, what, "sign and submit");
  const result = await api.submitSignature(id, signTransfer(verified));
  print(`Signed and submitted. Status: ${result.status}`);
}

/**
 * A NONCE_FILL or CANCELLATION (CONTRACT §17): zero value from the source to itself, rebuilt here
 * from the chain, nonce and fee caps alone; the confirmation is the last 4 characters of its
 * destination, which is the source itself.
 */
async function reviewSelfSend(
  api: SignerApi,
  id: string,
  transaction: Record<string, unknown>,
  findKey: Parameters<typeof readSelfSend>[0]["findKey"],
): Promise<void> {
  const shown = readSelfSend({ transaction, findKey });
  for (const line of describeSelfSend(shown)) print(line);
  const verified = verifySelfSendRequest(shown);
  for (const line of describeSelfSendVerification(verified)) print(line);
  await confirmSignSubmit(api, id, verified, verified.destinationAddress, "destination address (the source itself)");
}

export function reviewCommand(): Command {
  return new Command("review")
    .description("show a transaction, verify its signing request, and sign it after you confirm the destination")
    .argument("[transactionId]", "the transaction to review", uuidArgument)
    .option(
      "--batch <batchId>",
      "review every transfer of a batch (POST /v1/transactions/batch) and sign them after one confirmation",
      uuidArgument,
    )
    .addHelpText(
      "after",
      [
        "",
        "Shows network, source, destination, asset, amount, fee caps and nonce, and the balance changes the",
        "service's simulation (eth_simulateV1) found, or a line saying there is none; rebuilds the unsigned",
        "transaction and its signing hash from exactly those fields and refuses (exit 1, nothing sent) on",
        "any difference from what the service sent. Then asks for the last 4 characters of the destination",
        "address (from the terminal, or the first line of standard input when there is none); only a match",
        "signs (ML-DSA-87, context QUANTUM-TX-v1) and submits. No option skips the confirmation.",
        "",
        "A contract deployment is shown as the template (name, version, bytecode hash) from this signer's own",
        "catalog and its constructor arguments; the creation is rebuilt here from those and the confirmation",
        "is the last 4 characters of the bytecode hash.",
        "",
        "A NONCE_FILL (the service fills a nonce that would otherwise be left unused) or a CANCELLATION (takes",
        "a broadcast transaction's nonce with higher fee caps so that it is never mined) must be zero value from",
        "the source to itself with no calldata: it is rebuilt here from the chain, nonce and fee caps alone, and",
        "anything else is refused. Its destination is the source itself, so the confirmation is the last 4",
        "characters of the source address. A REPLACEMENT (a speed-up) is compared with the transaction it",
        "replaces, fetched from the service: chain, source, nonce, destination, asset, amount, deployment and",
        "gas limit must be the same and both fee caps higher; any other difference is refused.",
        "",
        "--batch <batchId> instead of a transaction id: every transfer of the batch, in the batch's order, one line",
        "each (destination, amount with the asset's decimals, fee cap, nonce). Each one waiting for a signature is",
        "rebuilt and verified exactly as above; one that fails is shown REFUSED with the reason and is not signed",
        "(nothing is sent about it), the others proceed. Those in another status are shown with it. Then the totals",
        "per asset and the most the fees can cost, and one confirmation: type the number of transfers to sign.",
        "Anything else signs nothing. Exit 0 only when all shown ready were signed and none was refused.",
      ].join("\n"),
    )
    .action(async (id: string | undefined, options: { batch?: string }) => {
      if ((id === undefined) === (options.batch === undefined))
        throw new UsageError("give exactly one of: a transaction id, or --batch <batchId>");
      const { keystore, api } = await connect();
      try {
        if (options.batch !== undefined) {
          await reviewBatch(api, keystore, options.batch);
          return;
        }
        if (id === undefined) return;
        const transaction = await findListed(api, id, () => api.pendingTransactions(), "a signature");
        const findKey = (address: string) => keystore.findKey(address);
        if (isSelfSendType(transaction.type)) {
          await reviewSelfSend(api, id, transaction, findKey);
          return;
        }
        const original = await fetchOriginal(api, transaction);
        if (transaction.type === "CONTRACT_DEPLOY" || (transaction.type === "REPLACEMENT" && transaction.deployment !== undefined)) {
          await reviewDeployment(api, id, transaction, findKey, original);
          return;
        }
        const assets = isNetworkCode(transaction.networkCode) ? await api.assets(transaction.networkCode) : [];
        const shown = readTransfer({ transaction, assets, findKey, original });
        for (const line of describeTransfer(shown)) print(line);
        for (const line of describeSimulation(transaction.simulation, assets)) print(line);
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
