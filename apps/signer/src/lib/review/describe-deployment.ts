import type { CanonicalConstructorArgs, ContractTemplate } from "@qc/chain/contracts";
import { describePendingTransaction } from "./describe-pending-transaction";
import { describeReplacement } from "./describe-self-send";
import { printableText } from "./printable-text";
import type { DisplayedDeployment } from "./read-deployment";
import type { VerifiedDeployment } from "./verify-deployment-request";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** `name "value"` pairs in ABI order; strings quoted and escaped, the zero address explained where it means the deployer. */
export function formatConstructorArguments(template: ContractTemplate, args: CanonicalConstructorArgs): string {
  return template.constructorInputs
    .map((input) => {
      const value = args[input.name];
      if (typeof value === "string" && input.type === "string") return `${input.name} ${JSON.stringify(printableText(value, 100))}`;
      if (value === ZERO_ADDRESS && input.rule?.kind === "address" && input.rule.zeroAllowed)
        return `${input.name} ${ZERO_ADDRESS} (the deploying wallet)`;
      return `${input.name} ${printableText(String(value), 100)}`;
    })
    .join(", ");
}

/** The lines `review` prints for a deployment before anything is verified or signed. */
export function describeDeployment(deployment: DisplayedDeployment): string[] {
  const { template } = deployment;
  return describePendingTransaction(deployment, [
    ...describeReplacement(deployment.replaces),
    `Template      ${printableText(template.name, 80)} v${template.version} (${template.id}), from this signer's catalog`,
    `Value         0 Q (a contract creation: no destination)`,
  ]);
}

/** The lines printed once the signer rebuilt the creation itself and found it identical. */
export function describeDeploymentVerification(deployment: VerifiedDeployment): string[] {
  const { template } = deployment;
  return [
    `Deploy        deploy ${printableText(template.name, 80)} v${template.version}, bytecode hash ${deployment.bytecodeHash}, constructor arguments ${formatConstructorArguments(template, deployment.canonicalArgs)}`,
    "Verified      the contract creation was rebuilt here from this signer's audited template and the arguments " +
      "above and matches the service's, byte for byte",
    `Signing hash  ${deployment.signingHash}`,
  ];
}
