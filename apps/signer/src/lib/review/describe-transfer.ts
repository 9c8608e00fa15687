import type { DisplayedAsset, DisplayedTransfer } from "./read-transfer";
import type { VerifiedTransfer } from "./verify-signing-request";
import { describePendingTransaction } from "./describe-pending-transaction";
import { describeReplacement } from "./describe-self-send";
import { formatAmount } from "./format-amount";
import { printableText } from "./printable-text";

/** The lines `review` prints before anything is verified or signed. */
export function describeTransfer(transfer: DisplayedTransfer): string[] {
  return describePendingTransaction(transfer, [
    ...describeReplacement(transfer.replaces),
    `Destination   ${transfer.destinationAddress}`,
    ...describeAssetAmount(transfer.asset, transfer.amount),
  ]);
}

/** The asset (symbol and decimals; a token's contract) and the amount with its decimals applied, as `review` and `approve` show them. */
export function describeAssetAmount(displayed: DisplayedAsset, amount: bigint): string[] {
  const asset = { ...displayed, symbol: printableText(displayed.symbol, 32) };
  const assetLine =
    asset.kind === "NATIVE"
      ? `${asset.symbol}, the native asset (${asset.decimals} decimals)`
      : `${asset.symbol}, token ${asset.contractAddress} (${asset.decimals} decimals, as the service lists it)`;
  return [`Asset         ${assetLine}`, `Amount        ${formatAmount(amount, asset.decimals, asset.symbol)}`];
}

/** The lines printed once the signing request proved identical to the displayed transfer. */
export function describeVerification(transfer: VerifiedTransfer): string[] {
  const lines = ["Verified      the transaction to sign was rebuilt here from the fields above and matches the service's, byte for byte"];
  if (transfer.tokenCall) {
    const { token, recipient, amount } = transfer.tokenCall;
    const symbol = printableText(transfer.asset.symbol, 32);
    lines.push(`Calldata      transfer(${recipient}, ${formatAmount(amount, transfer.asset.decimals, symbol)}) on token ${token}`);
  }
  lines.push(`Signing hash  ${transfer.signingHash}`);
  return lines;
}
