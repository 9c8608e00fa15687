import {
  MLDSA87_DESCRIPTOR,
  parseQuantumTransaction,
  serializeQuantumTransaction,
  signingHash,
  TRANSACTION_SIGNATURE_CONTEXT,
  type QuantumTransactionSerializable,
  type QuantumTransactionUnsigned,
} from "@qc/chain";
import type { Hex } from "viem";
import { ReviewRefusedError, type ReviewDifference } from "../errors";
import type { SigningRequest } from "../service/signer-api";
import { formatQwei } from "./format-amount";
import type { DisplayedFee } from "./read-pending-transaction";

/** What every kind of transaction shows and signs besides its own fields. */
export type ShownTransaction = { chainId: number; nonce: number; fee: DisplayedFee; signingRequest: SigningRequest };

/** Records that a field of the transaction to sign differs from what is shown. */
export type Differ = (field: string, shown: string, asked: string) => void;

/**
 * Compares the service's signing request with the transaction the signer rebuilt itself from
 * what it shows (`rebuild`, which may refuse on its own): descriptor and context, then the
 * bytes, then the hash. Any difference refuses, naming every field at fault: the common ones
 * (chain id, nonce, fee caps, access list) here, the kind's own ones by `ownDifferences`, in that
 * order. Returns our unsigned transaction and its signing hash, the only hash the signer signs.
 */
export function compareSigningRequest(input: {
  /** What the person is shown, in the refusal's words: "transfer", "deployment", "nonce fill", … */
  noun: string;
  shown: ShownTransaction;
  rebuild: () => QuantumTransactionSerializable;
  ownDifferences: (theirs: QuantumTransactionUnsigned, differ: Differ) => ReviewDifference[] | void;
}): { unsignedTransaction: Hex; signingHash: Hex; theirBytes: Hex } {
  const request = input.shown.signingRequest;
  const problems: ReviewDifference[] = [];
  if (request.descriptor.toLowerCase() !== MLDSA87_DESCRIPTOR) {
    problems.push({ field: "signingRequest.descriptor", reason: `is ${request.descriptor}, not ${MLDSA87_DESCRIPTOR} (ML-DSA-87)` });
  }
  if (request.context !== TRANSACTION_SIGNATURE_CONTEXT) {
    problems.push({ field: "signingRequest.context", reason: `is "${request.context}", not "${TRANSACTION_SIGNATURE_CONTEXT}"` });
  }
  const ours = input.rebuild();
  const unsignedTransaction = serializeQuantumTransaction(ours);
  const ourHash = signingHash(ours);
  const theirBytes = request.unsignedTransaction.toLowerCase() as Hex;
  if (theirBytes !== unsignedTransaction) {
    problems.push(...differences(input, theirBytes));
  } else if (request.signingHash.toLowerCase() !== ourHash) {
    problems.push({ field: "signingRequest.signingHash", reason: `is not keccak256 of the unsigned transaction (expected ${ourHash})` });
  }
  if (problems.length > 0) throw new ReviewRefusedError(problems);
  return { unsignedTransaction, signingHash: ourHash, theirBytes };
}

/** Field by field, what the service's transaction says against what is shown. */
function differences(input: Parameters<typeof compareSigningRequest>[0], theirBytes: Hex): ReviewDifference[] {
  let theirs: QuantumTransactionUnsigned;
  try {
    const parsed = parseQuantumTransaction(theirBytes);
    if ("signature" in parsed) return [{ field: "signingRequest.unsignedTransaction", reason: "already carries a signature" }];
    theirs = parsed;
  } catch (error) {
    return [
      {
        field: "signingRequest.unsignedTransaction",
        reason: `cannot be decoded (${(error as { shortMessage?: string }).shortMessage ?? "malformed"})`,
      },
    ];
  }
  const { noun, shown } = input;
  const found: ReviewDifference[] = [];
  const differ: Differ = (field, shownValue, asked) =>
    found.push({ field, reason: `differs: the ${noun} shown has ${shownValue}, the transaction to sign has ${asked}` });
  const { fee } = shown;
  if (theirs.chainId !== shown.chainId) differ("chainId", String(shown.chainId), String(theirs.chainId));
  if (theirs.nonce !== shown.nonce) differ("nonce", String(shown.nonce), String(theirs.nonce));
  if (theirs.gas !== fee.gasLimit) differ("fee.gasLimit", String(fee.gasLimit), String(theirs.gas));
  if (theirs.maxFeePerGas !== fee.maxFeePerGas) differ("fee.maxFeePerGas", formatQwei(fee.maxFeePerGas), formatQwei(theirs.maxFeePerGas));
  if (theirs.maxPriorityFeePerGas !== fee.maxPriorityFeePerGas)
    differ("fee.maxPriorityFeePerGas", formatQwei(fee.maxPriorityFeePerGas), formatQwei(theirs.maxPriorityFeePerGas));
  found.push(...(input.ownDifferences(theirs, differ) ?? []));
  if (theirs.accessList.length > 0) differ("accessList", "none", `${theirs.accessList.length} entries`);
  // The descriptor is fixed by the parser (it refuses any other), so it cannot differ here.
  if (found.length === 0)
    found.push({ field: "signingRequest.unsignedTransaction", reason: `is not the canonical encoding of the displayed ${noun}` });
  return found;
}
