import { describe, expect, it } from "vitest";
import { evaluatePolicyRules, ruleMatches } from "./evaluate-policy-rules";
import { policyDocumentSchema, type PolicyDocumentInput } from "./policy-document";
import { POLICY_TRANSFER as transfer } from "../testing/policy-fixtures";

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

  it("matches destination ADDRESS_BOOK only with an entry, NOT_ADDRESS_BOOK without one or when the book was not read (fail closed)", async () => {
    const rule = (destination: "ADDRESS_BOOK" | "NOT_ADDRESS_BOOK", match: Record<string, unknown> = {}) =>
      document({ defaultAction: "ALLOW", rules: [{ id: "r", name: "r", action: "BLOCK", match: { destination, ...match } }] }).rules[0]!;
    const listed = { ...transfer, addressBookEntry: { id: "0194f2c7-1a2b-7c3d-8e4f-5a6b7c8d9e0f", label: "Acme" } };
    const unlisted = { ...transfer, addressBookEntry: null };
    expect(ruleMatches(rule("ADDRESS_BOOK"), listed)).toBe(true);
    expect(ruleMatches(rule("ADDRESS_BOOK"), unlisted)).toBe(false);
    expect(ruleMatches(rule("ADDRESS_BOOK"), transfer)).toBe(false);
    expect(ruleMatches(rule("NOT_ADDRESS_BOOK"), listed)).toBe(false);
    expect(ruleMatches(rule("NOT_ADDRESS_BOOK"), unlisted)).toBe(true);
    expect(ruleMatches(rule("NOT_ADDRESS_BOOK"), transfer)).toBe(true);
    expect(ruleMatches(rule("NOT_ADDRESS_BOOK", { amountAbove: "1000" }), unlisted)).toBe(false);
    expect(() => rule("WHITELIST" as never)).toThrow();

    const doc = document({
      defaultAction: "ALLOW",
      rules: [{ id: "book", name: "Book only", action: "BLOCK", match: { destination: "NOT_ADDRESS_BOOK" } }],
    });
    expect((await evaluatePolicyRules(doc, 1, unlisted, noVelocity)).reason).toBe(
      'blocked by policy rule "Book only" (book): the destination is not in the address book (no active entry for this network and asset)',
    );
    expect(await evaluatePolicyRules(doc, 1, listed, noVelocity)).toMatchObject({ decision: "ALLOW", ruleId: null });
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

  it("holds a transfer for approval when a REQUIRE_APPROVAL rule matches first, naming its groups and quorums", async () => {
    const approvals = [
      { groupId: "0194f2c4-d176-7384-af90-718293a4b5c6", quorum: 2 },
      { groupId: "0194f2c4-e287-7495-b0a1-8293a4b5c6d7", quorum: 1 },
    ];
    const doc = document({
      defaultAction: "ALLOW",
      rules: [
        { id: "small", name: "Small", action: "ALLOW", match: { amountAbove: "5000" } },
        { id: "large", name: "Large transfers", action: "REQUIRE_APPROVAL", match: { amountAbove: "999" }, approvals },
      ],
    });
    expect(await evaluatePolicyRules(doc, 7, transfer, noVelocity)).toEqual({
      decision: "REQUIRE_APPROVAL",
      ruleId: "large",
      ruleName: "Large transfers",
      policyVersion: 7,
      reason: 'held for approval by policy rule "Large transfers" (large)',
      approvals,
    });
    // Not matched: no approvals in the answer.
    expect(await evaluatePolicyRules(doc, 7, { ...transfer, amount: 999n }, noVelocity)).not.toHaveProperty("approvals");
    // The document names a rule's groups only for REQUIRE_APPROVAL, and each group once.
    for (const rule of [
      { id: "r", name: "r", action: "REQUIRE_APPROVAL" },
      { id: "r", name: "r", action: "ALLOW", approvals },
      { id: "r", name: "r", action: "REQUIRE_APPROVAL", approvals: [approvals[0], approvals[0]] },
      { id: "r", name: "r", action: "REQUIRE_APPROVAL", approvals: [{ ...approvals[0], quorum: 0 }] },
    ])
      expect(policyDocumentSchema.safeParse({ defaultAction: "ALLOW", rules: [rule] }).success, JSON.stringify(rule)).toBe(false);
    expect(policyDocumentSchema.safeParse({ defaultAction: "REQUIRE_APPROVAL", rules: [] }).success).toBe(false);
  });
});
