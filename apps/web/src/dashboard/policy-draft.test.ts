import { describe, expect, it } from "vitest";
import { checkDraft, emptyApproval, emptyRule, toDocument, toDrafts } from "./policy-draft";

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

  it("carry a rule's address-book match (CONTRACT §16) both ways, and leave it out when any destination will do", () => {
    const stored = {
      version: 4,
      defaultAction: "ALLOW" as const,
      rules: [
        {
          id: "book-only",
          name: "Only to the address book",
          action: "BLOCK" as const,
          match: { destination: "NOT_ADDRESS_BOOK" as const },
        },
        { id: "any", name: "Any", action: "ALLOW" as const, match: { amountAbove: "5" } },
      ],
      updatedAt: null,
      updatedBy: null,
    };
    const drafts = toDrafts(stored);
    expect(drafts.map((d) => d.destination)).toEqual(["NOT_ADDRESS_BOOK", ""]);
    expect(toDocument("ALLOW", drafts)).toEqual({ defaultAction: "ALLOW", rules: stored.rules });
    expect(toDocument("ALLOW", [{ ...emptyRule(0), name: "In the book", destination: "ADDRESS_BOOK" }]).rules[0]!.match).toEqual({
      destination: "ADDRESS_BOOK",
    });
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

  it("carry a REQUIRE_APPROVAL rule's approver groups and quorums, and only for that action", () => {
    const group = "0194f2c4-d176-7384-af90-718293a4b5c6";
    const other = "0194f2c4-e287-7495-b0a1-8293a4b5c6d7";
    const stored = {
      version: 2,
      defaultAction: "ALLOW" as const,
      rules: [
        {
          id: "big",
          name: "Large transfers",
          action: "REQUIRE_APPROVAL" as const,
          match: { amountAbove: "1000" },
          approvals: [
            { groupId: group, quorum: 2 },
            { groupId: other, quorum: 1 },
          ],
        },
      ],
      updatedAt: null,
      updatedBy: null,
    };
    const drafts = toDrafts(stored);
    expect(drafts[0]!.approvals).toEqual([
      { groupId: group, quorum: "2" },
      { groupId: other, quorum: "1" },
    ]);
    expect(toDocument("ALLOW", drafts)).toEqual({ defaultAction: "ALLOW", rules: stored.rules });
    // Switched to BLOCK, the groups left in the draft are not sent (the API refuses approvals on any other action).
    expect(toDocument("ALLOW", [{ ...drafts[0]!, action: "BLOCK" }]).rules[0]).not.toHaveProperty("approvals");
    expect(checkDraft(drafts)).toEqual({});
    expect(checkDraft([{ ...drafts[0]!, approvals: [] }])).toEqual({ "rules.0.approvals": "name at least one approver group" });
    expect(
      checkDraft([
        {
          ...drafts[0]!,
          approvals: [
            { groupId: "", quorum: "1" },
            { groupId: group, quorum: "0" },
            { groupId: group, quorum: "1.5" },
          ],
        },
      ]),
    ).toEqual({
      "rules.0.approvals.0.groupId": "pick an approver group",
      "rules.0.approvals.1.quorum": "a whole number, 1 or more",
      "rules.0.approvals.2.groupId": "a group is listed once",
      "rules.0.approvals.2.quorum": "a whole number, 1 or more",
    });
    expect(emptyApproval()).toEqual({ groupId: "", quorum: "1" });
  });
});
