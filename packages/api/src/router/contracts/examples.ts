import { encodeTemplateDeployment, findContractTemplate } from "@qc/chain/contracts";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_TRANSACTION } from "../transactions/examples";

const FIXED_SUPPLY = findContractTemplate("erc20-fixed-supply")!;

/** A fixed-supply token deployment, told consistently between the request and its answer. */
export const EXAMPLE_CREATE_DEPLOYMENT = {
  templateId: FIXED_SUPPLY.id,
  networkCode: "QUANTUM_SANDBOX",
  sourceWalletId: EXAMPLE.walletId,
  constructorArgs: { tokenName: "Quantum Dollar", tokenSymbol: "QD", tokenDecimals: "6", initialSupply: "1000000000000" },
  externalId: "deploy-qd-2026-11-21",
} as const;

export const EXAMPLE_DEPLOYMENT_TRANSACTION = {
  ...EXAMPLE_TRANSACTION,
  id: "0194f2c5-2b3c-7d4e-8f50-6b7c8d9e0f1a",
  externalId: EXAMPLE_CREATE_DEPLOYMENT.externalId,
  type: "CONTRACT_DEPLOY",
  destinationAddress: null,
  assetId: null,
  amount: "0",
  note: null,
  // The canonical form the service stores and the signer rebuilds from (defaults filled in).
  deployment: {
    templateId: FIXED_SUPPLY.id,
    constructorArgs: encodeTemplateDeployment({ template: FIXED_SUPPLY, constructorArgs: EXAMPLE_CREATE_DEPLOYMENT.constructorArgs })
      .constructorArgs,
  },
} as const;
