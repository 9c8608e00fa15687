import { describePendingTransaction } from "./describe-pending-transaction";
import { formatQwei } from "./format-amount";
import { printableText } from "./printable-text";
import type { ReplacedOriginal } from "./compare-replacement";
import type { DisplayedSelfSend } from "./read-self-send";
import type { VerifiedSelfSend } from "./verify-self-send";

/** What a nonce fill or a cancellation does, in a person's words. */
function purpose(selfSend: DisplayedSelfSend): string {
  if (selfSend.type === "NONCE_FILL")
    return `NONCE_FILL: fills nonce ${selfSend.nonce}, which would otherwise be left unused, so that this source's later transactions can be mined`;
  const original = selfSend.replacesTransactionId ? ` ${printableText(selfSend.replacesTransactionId, 64)}` : "";
  return `CANCELLATION of${original}: takes its nonce ${selfSend.nonce} with higher fee caps, so that the original is never mined`;
}

/** The lines `review` prints for a NONCE_FILL or CANCELLATION before anything is verified or signed. */
export function describeSelfSend(selfSend: DisplayedSelfSend): string[] {
  return describePendingTransaction(selfSend, [
    `Type          ${purpose(selfSend)}`,
    `Destination   ${selfSend.destinationAddress} (the source itself)`,
    `Amount        0 Q: no value moves and no contract is called; only the fee is paid`,
  ]);
}

/** The lines printed once the signer rebuilt the self-send itself and found it identical. */
export function describeSelfSendVerification(selfSend: VerifiedSelfSend): string[] {
  return [
    "Verified      the transaction to sign was rebuilt here as zero value from the source to itself with no calldata, " +
      "from the chain, nonce and fee caps above, and matches the service's, byte for byte",
    `Signing hash  ${selfSend.signingHash}`,
  ];
}

/** The line of a speed-up (a REPLACEMENT): which transaction it replaces and how far its fee caps rise. */
export function describeReplacement(replaces: ReplacedOriginal | null): string[] {
  if (!replaces) return [];
  const { fee } = replaces;
  return [
    `Replaces      ${printableText(replaces.id, 64)} (${printableText(replaces.status, 32)}): the same ${replaces.type === "CONTRACT_DEPLOY" ? "deployment" : "transfer"} at the same nonce, checked field by field against it; only the fee caps rise`,
    `              from max fee ${formatQwei(fee.maxFeePerGas)}/gas, max priority fee ${formatQwei(fee.maxPriorityFeePerGas)}/gas (the caps below are the new ones)`,
  ];
}
