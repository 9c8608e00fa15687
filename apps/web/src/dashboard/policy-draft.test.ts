import { describe, expect, it } from "vitest";
import { checkDraft, emptyRule, toDocument, toDrafts } from "./policy-draft";

describe("the policy editor's drafts", () => {
  it("turn into the document the API takes, leaving out blank conditions", () => {
    const rule = {
      ...emptyRule(0),
      id: "big",
      name: "Large transfers",
      amountAbove: "1000",
      destinationAddresses: "0x" + "ab".repeat(20) + "\n\n",
      networkCodes: ["QUANTUM_SANDBOX" as const],
    };
    expect(toDocument("ALLOW", [rule])).toEqual({
      defaultAction: "ALLOW",
      rules: [
        {
          id: "big",
          name: "Large transfers",
          action: "BLOCK",
          match: { networkCodes: ["QUANTUM_SANDBOX"], destinationAddresses: ["0x" + "ab".repeat(20)], amountAbove: "1000" },
        },
      ],
    });
    const velocity = {
      ...emptyRule(1),
      name: "Daily cap",
      velocity: true,
      velocityAmount: "5",
      velocityWindowSeconds: "3600",
      velocityScope: "VAULT" as const,
    };
    expect(toDocument("BLOCK", [velocity]).rules[0]).toEqual({
      id: "rule-2",
      name: "Daily cap",
      action: "BLOCK",
      match: {},
      velocity: { amount: "5", windowSeconds: 3600, scope: "VAULT" },
    });
  });

  it("round-trip a stored policy", () => {
    const stored = {
      version: 3,
      defaultAction: "ALLOW" as const,
      rules: [
        {
          id: "a",
          name: "A",
          action: "ALLOW" as const,
          match: { assetIds: ["011620ab-6fee-5894-b105-6c22053cf11e"] },
          velocity: { amount: "9", windowSeconds: 60, scope: "TENANT" as const },
        },
      ],
      updatedAt: null,
      updatedBy: null,
    };
    expect(toDocument("ALLOW", toDrafts(stored))).toEqual({ defaultAction: "ALLOW", rules: stored.rules });
  });

  it("flags what is wrong under the same paths as the service's field errors", () => {
    const rules = [
      { ...emptyRule(0), id: "same", name: "ok" },
      {
        ...emptyRule(1),
        id: "same",
        name: "",
        amountAbove: "1.5",
        sourceWalletIds: "not-a-uuid",
        destinationAddresses: "0x1234",
        velocity: true,
        velocityAmount: "-1",
        velocityWindowSeconds: "0",
      },
      { ...emptyRule(2), id: "bad id!", name: "x" },
    ];
    expect(checkDraft(rules)).toEqual({
      "rules.1.id": 'duplicate rule id "same"',
      "rules.1.name": "required",
      "rules.1.match.amountAbove": expect.stringContaining("whole number"),
      "rules.1.match.sourceWalletIds": "not an id: not-a-uuid",
      "rules.1.match.destinationAddresses": expect.stringContaining("0x1234"),
      "rules.1.velocity.amount": expect.any(String),
      "rules.1.velocity.windowSeconds": expect.any(String),
      "rules.2.id": expect.stringContaining("letters, digits"),
    });
    expect(checkDraft([{ ...emptyRule(0), name: "fine" }])).toEqual({});
  });
});
