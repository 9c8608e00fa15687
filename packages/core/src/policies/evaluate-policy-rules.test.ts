import { describe, expect, it } from "vitest";
import { evaluatePolicyRules, ruleMatches, type PolicyTransfer } from "./evaluate-policy-rules";
import { policyDocumentSchema, type PolicyDocumentInput } from "./policy-document";

const transfer: PolicyTransfer = {
  networkCode: "QUANTUM_SANDBOX",
  sourceWalletId: "0194f2c4-8b21-7e3f-9a4b-2c3d4e5f6071",
  sourceVaultId: "0194f2c4-7a10-7d2e-8f3a-1b2c3d4e5f60",
  assetId: "011620ab-6fee-5894-b105-6c22053cf11e",
  destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
  amount: 1000n,
};
const document = (input: PolicyDocumentInput) => policyDocumentSchema.parse(input);
const noVelocity = async () => {
  throw new Error("no velocity rule should be summed");
};

describe("evaluatePolicyRules", () => {
  it("matches when every given condition holds; lists match any value; amountAbove is strict", () => {
    const rule = (match: Record<string, unknown>) =>
      document({ defaultAction: "ALLOW", rules: [{ id: "r", name: "r", action: "BLOCK", match }] }).rules[0]!;
    expect(ruleMatches(rule({}), transfer)).toBe(true);
    expect(ruleMatches(rule({ networkCodes: ["QUANTUM_MAINNET", "QUANTUM_SANDBOX"] }), transfer)).toBe(true);
    expect(ruleMatches(rule({ networkCodes: ["QUANTUM_MAINNET"] }), transfer)).toBe(false);
    expect(ruleMatches(rule({ destinationAddresses: ["0x5B38Da6a701c568545dCfcB03FcB875f56beddC4"] }), transfer)).toBe(true);
    expect(ruleMatches(rule({ amountAbove: "999" }), transfer)).toBe(true);
    expect(ruleMatches(rule({ amountAbove: "1000" }), transfer)).toBe(false);
    expect(
      ruleMatches(rule({ sourceWalletIds: [transfer.sourceWalletId], assetIds: ["0194f2c4-9c32-7f40-8b5c-3d4e5f607182"] }), transfer),
    ).toBe(false);
    expect(
      ruleMatches(
        rule({ sourceVaultIds: [transfer.sourceVaultId], sourceWalletIds: [transfer.sourceWalletId], assetIds: [transfer.assetId] }),
        transfer,
      ),
    ).toBe(true);
  });

  it("lets the first matching rule decide, else the default action", async () => {
    const doc = document({
      defaultAction: "BLOCK",
      rules: [
        { id: "small", name: "Small", action: "ALLOW", match: { amountAbove: "5000" } },
        { id: "sandbox", name: "Sandbox", action: "ALLOW", match: { networkCodes: ["QUANTUM_SANDBOX"] } },
        { id: "all", name: "All", action: "BLOCK", match: {} },
      ],
    });
    expect(await evaluatePolicyRules(doc, 4, transfer, noVelocity)).toMatchObject({
      decision: "ALLOW",
      ruleId: "sandbox",
      policyVersion: 4,
    });
    expect(await evaluatePolicyRules(document({ defaultAction: "BLOCK", rules: [] }), 5, transfer, noVelocity)).toEqual({
      decision: "BLOCK",
      ruleId: null,
      ruleName: null,
      policyVersion: 5,
      reason: "blocked by the policy's default action (no rule matched)",
    });
  });

  it("applies a velocity rule only when the window's sum is above its amount, and skips to the next rule otherwise", async () => {
    const doc = document({
      defaultAction: "ALLOW",
      rules: [
        { id: "v", name: "Velocity", action: "BLOCK", match: {}, velocity: { amount: "5000", windowSeconds: 60, scope: "VAULT" } },
        { id: "never-mainnet", name: "Mainnet", action: "BLOCK", match: { networkCodes: ["QUANTUM_MAINNET"] } },
      ],
    });
    const asked: unknown[] = [];
    const sum = (value: bigint) => async (velocity: unknown) => {
      asked.push(velocity);
      return value;
    };
    expect(await evaluatePolicyRules(doc, 1, transfer, sum(5000n))).toMatchObject({ decision: "ALLOW", ruleId: null });
    expect(await evaluatePolicyRules(doc, 1, transfer, sum(5001n))).toMatchObject({
      decision: "BLOCK",
      ruleId: "v",
      velocitySum: "5001",
      reason:
        'blocked by policy rule "Velocity" (v): 5001 moved by the vault in the last 60 s (this transfer included) is above the limit of 5000',
    });
    expect(asked).toEqual([
      { amount: "5000", windowSeconds: 60, scope: "VAULT" },
      { amount: "5000", windowSeconds: 60, scope: "VAULT" },
    ]);
  });
});
