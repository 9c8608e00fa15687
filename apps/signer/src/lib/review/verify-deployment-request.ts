import { MLDSA87_DESCRIPTOR, parseQuantumTransaction, serializeQuantumTransaction, signingHash, TRANSACTION_SIGNATURE_CONTEXT, type QuantumTransactionUnsigned } from "@qc/chain";
import { buildQuantumDeployment, InvalidConstructorArgumentsError, type CanonicalConstructorArgs } from "@qc/chain/contracts";
import type { Hex } from "viem";
import { ReviewRefusedError, type ReviewDifference } from "../errors";
import { formatQwei } from "./format-amount";
import type { DisplayedDeployment } from "./read-deployment";

/** A deployment whose contract creation the signer rebuilt itself and found identical to the service's. */
export type VerifiedDeployment = DisplayedDeployment & {
  /** The arguments as validated against this signer's template: what is shown and deployed. */
  canonicalArgs: CanonicalConstructorArgs;
  /** keccak256 of the template's creation bytecode, checked against the pinned hash of this signer's catalog. */
  bytecodeHash: Hex;
  unsignedTransaction: Hex;
  /** Computed here: the only hash this signer signs. */
  signingHash: Hex;
};

/**
 * Rebuilds the contract creation from this signer's catalog (pinned bytecode, its hash checked),
 * the template id and the constructor arguments of the record, with the displayed nonce and fee
 * caps, and compares it with the service's signing request. Any difference refuses, naming the
 * field, so that a service cannot obtain a signature for bytes other than the audited template
 * with the arguments shown.
 */
export function verifyDeploymentRequest(deployment: DisplayedDeployment): VerifiedDeployment {
  const request = deployment.signingRequest;
  const problems: ReviewDifference[] = [];
  if (request.descriptor.toLowerCase() !== MLDSA87_DESCRIPTOR) {
    problems.push({ field: "signingRequest.descriptor", reason: `is ${request.descriptor}, not ${MLDSA87_DESCRIPTOR} (ML-DSA-87)` });
  }
  if (request.context !== TRANSACTION_SIGNATURE_CONTEXT) {
    problems.push({ field: "signingRequest.context", reason: `is "${request.context}", not "${TRANSACTION_SIGNATURE_CONTEXT}"` });
  }
  let built: ReturnType<typeof buildQuantumDeployment>;
  try {
    built = buildQuantumDeployment({
      chainId: deployment.chainId,
      nonce: deployment.nonce,
      maxFeePerGas: deployment.fee.maxFeePerGas,
      maxPriorityFeePerGas: deployment.fee.maxPriorityFeePerGas,
      gas: deployment.fee.gasLimit,
      template: deployment.template,
      constructorArgs: deployment.constructorArgs,
    });
  } catch (error) {
    if (error instanceof InvalidConstructorArgumentsError) {
      throw new ReviewRefusedError(error.fields.map((field) => ({ field: `deployment.${field.path}`, reason: field.message })));
    }
    throw new ReviewRefusedError([{ field: "deployment.templateId", reason: `cannot be built from this signer's catalog (${(error as { shortMessage?: string }).shortMessage ?? "invalid"})` }]);
  }
  const unsignedTransaction = serializeQuantumTransaction(built.transaction);
  const ourHash = signingHash(built.transaction);
  const theirBytes = request.unsignedTransaction.toLowerCase() as Hex;
  if (theirBytes !== unsignedTransaction) {
    problems.push(...differences(deployment, built.transaction.data!, theirBytes));
  } else if (request.signingHash.toLowerCase() !== ourHash) {
    problems.push({ field: "signingRequest.signingHash", reason: `is not keccak256 of the unsigned transaction (expected ${ourHash})` });
  }
  if (problems.length > 0) throw new ReviewRefusedError(problems);
  return { ...deployment, canonicalArgs: built.constructorArgs, bytecodeHash: built.bytecodeHash, unsignedTransaction, signingHash: ourHash };
}

function differences(deployment: DisplayedDeployment, ourData: Hex, theirBytes: Hex): ReviewDifference[] {
  let theirs: QuantumTransactionUnsigned;
  try {
    const parsed = parseQuantumTransaction(theirBytes);
    if ("signature" in parsed) return [{ field: "signingRequest.unsignedTransaction", reason: "already carries a signature" }];
    theirs = parsed;
  } catch (error) {
    return [{ field: "signingRequest.unsignedTransaction", reason: `cannot be decoded (${(error as { shortMessage?: string }).shortMessage ?? "malformed"})` }];
  }
  const found: ReviewDifference[] = [];
  const differ = (field: string, shown: string, asked: string) => found.push({ field, reason: `differs: the deployment shown has ${shown}, the transaction to sign has ${asked}` });
  const { fee } = deployment;
  if (theirs.chainId !== deployment.chainId) differ("chainId", String(deployment.chainId), String(theirs.chainId));
  if (theirs.nonce !== deployment.nonce) differ("nonce", String(deployment.nonce), String(theirs.nonce));
  if (theirs.gas !== fee.gasLimit) differ("fee.gasLimit", String(fee.gasLimit), String(theirs.gas));
  if (theirs.maxFeePerGas !== fee.maxFeePerGas) differ("fee.maxFeePerGas", formatQwei(fee.maxFeePerGas), formatQwei(theirs.maxFeePerGas));
  if (theirs.maxPriorityFeePerGas !== fee.maxPriorityFeePerGas) differ("fee.maxPriorityFeePerGas", formatQwei(fee.maxPriorityFeePerGas), formatQwei(theirs.maxPriorityFeePerGas));
  if (theirs.to !== null) differ("destinationAddress", "a contract creation (no destination)", `a call to ${theirs.to}`);
  if (theirs.value !== 0n) differ("amount", "0 Q", `${theirs.value} Qwei`);
  if (theirs.data.toLowerCase() !== ourData) {
    const template = deployment.template;
    found.push({
      field: "data",
      reason: theirs.data.toLowerCase().startsWith(template.artifact.bytecode)
        ? `differs: the constructor arguments encoded are not the ones shown for ${template.id} v${template.version}`
        : `differs: the creation bytecode is not ${template.id} v${template.version} (bytecode hash ${template.bytecodeHash})`,
    });
  }
  if (theirs.accessList.length > 0) differ("accessList", "none", `${theirs.accessList.length} entries`);
  if (found.length === 0) found.push({ field: "signingRequest.unsignedTransaction", reason: "is not the canonical encoding of the displayed deployment" });
  return found;
}
