/**
 * Where each catalog template's source and committed artifact live under
 * `packages/chain/contracts/`. Kept apart from the catalog (templates.ts), which refuses to load
 * an artifact that is not the pinned one, so the compile script can rebuild artifacts after a
 * deliberate source change.
 */
export const TEMPLATE_SOURCES = [
  { id: "erc20-fixed-supply", sourceFile: "FixedSupplyToken.sol", contractName: "FixedSupplyToken", artifactFile: "FixedSupplyToken.json" },
  {
    id: "erc20-mint-burn",
    sourceFile: "MintBurnRolesToken.sol",
    contractName: "MintBurnRolesToken",
    artifactFile: "MintBurnRolesToken.json",
  },
  { id: "timelock-vault", sourceFile: "TimelockVault.sol", contractName: "TimelockVault", artifactFile: "TimelockVault.json" },
] as const;

export type TemplateId = (typeof TEMPLATE_SOURCES)[number]["id"];

/** The committed artifacts that are not catalog templates (test fixtures of the chain and devnet). */
export const OTHER_ARTIFACT_SOURCES = [
  { sourceFile: "QuantumTestToken.sol", contractName: "QuantumTestToken", artifactFile: "QuantumTestToken.json" },
] as const;
