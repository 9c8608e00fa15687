import { buildQuantumTransfer } from "@qc/chain";
import type { Hex } from "viem";
import { compareSigningRequest } from "./compare-signing-request";
import { formatQ } from "./format-amount";
import type { DisplayedSelfSend } from "./read-self-send";

/** A nonce fill or cancellation whose transaction the signer rebuilt itself and found identical. */
export type VerifiedSelfSend = DisplayedSelfSend & {
  unsignedTransaction: Hex;
  /** Computed here: the only hash this signer signs. */
  signingHash: Hex;
};

/**
 * Rebuilds a NONCE_FILL or CANCELLATION from its chain id, nonce, fee caps and gas limit as zero
 * value from the source to itself with no calldata (CONTRACT §17), and compares it with the
 * service's signing request. Any other destination, any value, any calldata refuses, naming the
 * field: a service cannot pass off a payment as a fill.
 */
export function verifySelfSendRequest(selfSend: DisplayedSelfSend): VerifiedSelfSend {
  const { unsignedTransaction, signingHash } = compareSigningRequest({
    noun: selfSend.type === "NONCE_FILL" ? "nonce fill" : "cancellation",
    shown: selfSend,
    rebuild: () =>
      buildQuantumTransfer({
        chainId: selfSend.chainId,
        nonce: selfSend.nonce,
        maxFeePerGas: selfSend.fee.maxFeePerGas,
        maxPriorityFeePerGas: selfSend.fee.maxPriorityFeePerGas,
        gas: selfSend.fee.gasLimit,
        to: selfSend.sourceAddress,
        amount: 0n,
      }),
    ownDifferences: (theirs, differ) => {
      if (theirs.to !== selfSend.sourceAddress)
        differ("destinationAddress", `the source itself (${selfSend.sourceAddress})`, theirs.to ?? "a contract creation");
      if (theirs.value !== 0n) differ("amount", "0 Q", formatQ(theirs.value));
      if (theirs.data !== "0x") differ("data", "no calldata", `${(theirs.data.length - 2) / 2} bytes of calldata`);
    },
  });
  return { ...selfSend, unsignedTransaction, signingHash };
}
