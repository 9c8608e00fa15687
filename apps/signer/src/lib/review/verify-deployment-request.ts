import type { QuantumTransactionUnsigned } from "@qc/chain";
import { buildQuantumDeployment, InvalidConstructorArgumentsError, type CanonicalConstructorArgs } from "@qc/chain/contracts";
import type { Hex } from "viem";
import { ReviewRefusedError, type ReviewDifference } from "../errors";
import { compareSigningRequest, type Differ } from "./compare-signing-request";
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
  let built: ReturnType<typeof buildQuantumDeployment> | undefined;
  const { unsignedTransaction, signingHash } = compareSigningRequest({
    noun: "deployment",
    shown: deployment,
    rebuild: () => {
      built = buildDeployment(deployment);
      return built.transaction;
    },
    ownDifferences: (theirs, differ) => deploymentDifferences(deployment, built!.transaction.data!, theirs, differ),
  });
  return { ...deployment, canonicalArgs: built!.constructorArgs, bytecodeHash: built!.bytecodeHash, unsignedTransaction, signingHash };
}

/** The creation from this signer's catalog, the record's arguments and the shown nonce and fee caps; refuses arguments the template does not accept. */
function buildDeployment(deployment: DisplayedDeployment): ReturnType<typeof buildQuantumDeployment> {
  try {
    return buildQuantumDeployment({
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
    throw new ReviewRefusedError([
      {
        field: "deployment.templateId",
        reason: `cannot be built from this signer's catalog (${(error as { shortMessage?: string }).shortMessage ?? "invalid"})`,
      },
    ]);
  }
}

/** What the service's transaction says against the deployment's own fields: a creation, no value, the template's bytes with the arguments shown. */
function deploymentDifferences(
  deployment: DisplayedDeployment,
  ourData: Hex,
  theirs: QuantumTransactionUnsigned,
  differ: Differ,
): ReviewDifference[] {
  if (theirs.to !== null) differ("destinationAddress", "a contract creation (no destination)", `a call to ${theirs.to}`);
  if (theirs.value !== 0n) differ("amount", "0 Q", `${theirs.value} Qwei`);
  if (theirs.data.toLowerCase() === ourData) return [];
  const template = deployment.template;
  return [
    {
      field: "data",
      reason: theirs.data.toLowerCase().startsWith(template.artifact.bytecode)
        ? `differs: the constructor arguments encoded are not the ones shown for ${template.id} v${template.version}`
        : `differs: the creation bytecode is not ${template.id} v${template.version} (bytecode hash ${template.bytecodeHash})`,
    },
  ];
}
