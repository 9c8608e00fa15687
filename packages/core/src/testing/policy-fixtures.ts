import type { PolicyTransfer } from "../policies/evaluate-policy-rules";

/** A native sandbox transfer of 1000 as the policy rules see it (ids made up: no rule reads the rows). */
export const POLICY_TRANSFER: PolicyTransfer = {
  networkCode: "QUANTUM_SANDBOX",
  sourceWalletId: "0194f2c4-8b21-7e3f-9a4b-2c3d4e5f6071",
  sourceVaultId: "0194f2c4-7a10-7d2e-8f3a-1b2c3d4e5f60",
  assetId: "011620ab-6fee-5894-b105-6c22053cf11e",
  destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
  amount: 1000n,
};
