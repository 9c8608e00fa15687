import { EXAMPLE } from "../../openapi-examples";

/** A policy with one velocity rule and one destination rule, shown by the policy routes. */
export const EXAMPLE_POLICY_DOCUMENT = {
  defaultAction: "ALLOW",
  rules: [
    {
      id: "hot-wallet-daily",
      name: "Hot wallet: at most 100 Q a day",
      action: "BLOCK",
      match: { sourceWalletIds: [EXAMPLE.walletId], assetIds: [EXAMPLE.sandboxNativeAssetId] },
      velocity: { amount: "100000000000000000000", windowSeconds: 86_400, scope: "WALLET" },
    },
    {
      id: "large-to-unknown",
      name: "Large transfers need a known destination",
      action: "BLOCK",
      match: { amountAbove: "50000000000000000000" },
    },
  ],
} as const;

export const EXAMPLE_POLICY = { version: 3, ...EXAMPLE_POLICY_DOCUMENT, updatedAt: EXAMPLE.updatedAt, updatedBy: EXAMPLE.keyId } as const;
