import type { NetworkCode } from "@qc/chain";
import { formatQ, formatQwei } from "./format-amount";
import { printableText } from "./printable-text";
import type { DisplayedFee } from "./read-pending-transaction";

/** What every kind of transaction shows around its own lines. */
export type DescribedTransaction = {
  id: string;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: string;
  fee: DisplayedFee;
  nonce: number;
  externalId: string | null;
  note: string | null;
};

/**
 * The lines `review` prints before anything is verified or signed: the transaction, network and
 * source, then the kind's own lines (`body`), then the fee caps and the most they can cost, the
 * nonce, and the external id and note when the record has them (printable text only).
 */
export function describePendingTransaction(shown: DescribedTransaction, body: string[]): string[] {
  const { fee } = shown;
  const lines = [
    `Transaction   ${printableText(shown.id)}`,
    `Network       ${shown.networkCode} (chain ${shown.chainId})`,
    `Source        ${shown.sourceAddress} (key in this keystore)`,
    ...body,
    `Fee caps      gas limit ${fee.gasLimit}, max fee ${formatQwei(fee.maxFeePerGas)}/gas, max priority fee ${formatQwei(fee.maxPriorityFeePerGas)}/gas`,
    `              at most ${formatQ(fee.gasLimit * fee.maxFeePerGas)} in fees`,
    `Nonce         ${shown.nonce}`,
  ];
  if (shown.externalId) lines.push(`External id   ${printableText(shown.externalId)}`);
  if (shown.note) lines.push(`Note          ${printableText(shown.note, 500)}`);
  return lines;
}
