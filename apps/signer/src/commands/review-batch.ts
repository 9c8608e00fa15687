import { isNetworkCode } from "@qc/chain";
import { formatUnits } from "viem";
import { SignerError } from "../lib/errors";
import { formatQ } from "../lib/review/format-amount";
import { printableText } from "../lib/review/printable-text";
import { readTransfer } from "../lib/review/read-transfer";
import { verifySigningRequest, type VerifiedTransfer } from "../lib/review/verify-signing-request";
import { ServiceError } from "../lib/service/service-client";
import type { Asset, SignerApi } from "../lib/service/signer-api";
import type { UnlockedKeystore } from "../lib/keystore/keystore";
import { signTransfer } from "../lib/sign-transfer";
import { print, readLine } from "../terminal";

/** A batch item verified and shown: signed after the one confirmation. */
type ReadyItem = { position: number; id: string; verified: VerifiedTransfer };

/**
 * `review --batch <batchId>` (CONTRACT §18): every transfer of the batch, in creation order (the
 * batch's index order; refused items of the batch have no transfer), one line each. Those waiting
 * for a signature are read and verified one by one exactly as `review` verifies one transfer
 * (rebuilt here from the displayed fields, compared byte for byte with the service's signing
 * request); an item that fails is shown REFUSED with the reason and is not signed, and nothing is
 * sent about it (as `review` refuses). Items in another status are shown with it. Then the totals
 * per asset and the most the fees can cost, and ONE typed confirmation: the number of transfers to
 * sign. Anything else signs nothing. Exit 0 only when every transfer shown as ready was signed and
 * none was refused.
 */
export async function reviewBatch(api: SignerApi, keystore: Pick<UnlockedKeystore, "findKey">, batchId: string): Promise<void> {
  const { transactions } = await api.batchTransactions(batchId);
  if (transactions.length === 0) throw new SignerError(`no transfer of batch ${batchId} is known to the service`);
  // Ids are time-ordered and a batch's items are created in index order: ascending id is the batch's order.
  const items = [...transactions].sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  const pending = new Map(
    (await api.pendingTransactions()).transactions.filter((tx) => tx.batchId === batchId).map((tx) => [String(tx.id), tx]),
  );
  const assetsByNetwork = new Map<string, Asset[]>();
  const assetsOf = async (networkCode: unknown): Promise<Asset[]> => {
    if (!isNetworkCode(networkCode)) return [];
    if (!assetsByNetwork.has(networkCode)) assetsByNetwork.set(networkCode, await api.assets(networkCode));
    return assetsByNetwork.get(networkCode)!;
  };

  print(`Batch ${batchId}: ${items.length} transfer${items.length === 1 ? "" : "s"}`);
  const ready: ReadyItem[] = [];
  let refused = 0;
  for (const [offset, item] of items.entries()) {
    const position = offset + 1;
    const id = String(item.id);
    const request = pending.get(id);
    if (!request) {
      print(`#${position}  ${id}  ${printableText(String(item.status), 32)}: not waiting for a signature, not signed here`);
      continue;
    }
    try {
      const shown = readTransfer({
        transaction: request,
        assets: await assetsOf(request.networkCode),
        findKey: (a) => keystore.findKey(a),
      });
      const verified = verifySigningRequest(shown);
      const { fee, asset } = verified;
      const symbol = printableText(asset.symbol, 32);
      print(
        `#${position}  ${id}  to ${verified.destinationAddress}  ${formatUnits(verified.amount, asset.decimals)} ${symbol}  ` +
          `fee cap ${fee.maxFeePerGas} Qwei/gas × ${fee.gasLimit} gas  nonce ${verified.nonce}  verified`,
      );
      ready.push({ position, id, verified });
    } catch (error) {
      // A refusal of this item (what `review` would refuse it for); the service failing is not one.
      if (!(error instanceof SignerError) || error instanceof ServiceError) throw error;
      refused += 1;
      print(`#${position}  ${id}  REFUSED, will not be signed: ${error.message}`);
    }
  }

  if (ready.length === 0) throw new SignerError(`nothing of batch ${batchId} can be signed here; nothing was signed or sent`);
  print("");
  print(`To sign: ${ready.length} transfer${ready.length === 1 ? "" : "s"}${refused ? ` (${refused} refused above, not signed)` : ""}`);
  for (const line of batchTotals(ready.map((item) => item.verified))) print(line);
  print("");
  const typed = await readLine(`Type the number of transfers to sign (${ready.length}) to sign and submit them: `);
  if (typed === null || typed.trim() !== String(ready.length)) {
    throw new SignerError(`the confirmation does not match the number of transfers to sign (${ready.length}); nothing was signed or sent`);
  }

  let failed = 0;
  for (const item of ready) {
    try {
      const result = await api.submitSignature(item.id, signTransfer(item.verified));
      print(`#${item.position}  ${item.id}  signed and submitted. Status: ${result.status}`);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      failed += 1;
      print(`#${item.position}  ${item.id}  not accepted by the service: ${error.message}`);
    }
  }
  if (refused > 0 || failed > 0)
    throw new SignerError(`batch ${batchId}: ${ready.length - failed} signed, ${refused} refused, ${failed} not accepted by the service`);
}

/** The amount per asset (decimals applied) and the most the fees can cost, over the transfers to sign. */
export function batchTotals(transfers: readonly VerifiedTransfer[]): string[] {
  const perAsset = new Map<string, { symbol: string; decimals: number; amount: bigint; count: number }>();
  let maxFees = 0n;
  for (const transfer of transfers) {
    const { asset } = transfer;
    const key = `${transfer.networkCode}:${asset.id}`;
    const total = perAsset.get(key) ?? { symbol: printableText(asset.symbol, 32), decimals: asset.decimals, amount: 0n, count: 0 };
    total.amount += transfer.amount;
    total.count += 1;
    perAsset.set(key, total);
    maxFees += transfer.fee.gasLimit * transfer.fee.maxFeePerGas;
  }
  return [
    ...[...perAsset.entries()].map(
      ([key, total]) =>
        `Total         ${formatUnits(total.amount, total.decimals)} ${total.symbol} (${total.amount} base units) in ${total.count} ` +
        `transfer${total.count === 1 ? "" : "s"}, asset ${key.split(":")[1]} on ${key.split(":")[0]}`,
    ),
    `Fees          at most ${formatQ(maxFees)} in all`,
  ];
}
