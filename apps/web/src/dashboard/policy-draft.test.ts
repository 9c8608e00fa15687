import { describe, expect, it } from "vitest";
import {
  amountInBaseUnits,
  amountUnit,
  amountUnitHint,
  checkDraft,
  emptyApproval,
  emptyRule,
  toDocument,
  toDrafts,
  type UnitAsset,
} from "./policy-draft";

/** Without assets the amounts are base units, as the API stores them: the tests of the lists and checks read the same both ways. */
const NONE: UnitAsset[] = [];
const Q_SANDBOX: UnitAsset = {
  id: "011620ab-6fee-5894-b105-6c22053cf11e",
  symbol: "Q",
  decimals: 18,
  kind: "NATIVE",
  networkCode: "QUANTUM_SANDBOX",
};
const Q_MAINNET: UnitAsset = {
  id: "6a1d1c6e-0b8f-5f7e-9a43-1d2e3f4a5b6c",
  symbol: "Q",
  decimals: 18,
  kind: "NATIVE",
  networkCode: "QUANTUM_MAINNET",
};
const USDC: UnitAsset = {
  id: "0194f2c4-aaaa-7384-af90-718293a4b5c6",
  symbol: "USDC",
  decimals: 6,
  kind: "TOKEN",
  networkCode: "QUANTUM_SANDBOX",
};
const ASSETS = [Q_SANDBOX, Q_MAINNET, USDC];

describe("the policy editor's drafts", () => {
  it("turn into the document the API takes, leaving out blank conditions", () => {
    const rule = {
      ...emptyRule(0),
      id: "big",
      name: "Large transfers",
      amountAbove: "1000",
      destinationAddresses: ["0x" + "ab".repeat(20), " "],
      networkCodes: ["QUANTUM_SANDBOX" as const],
    };
    expect(toDocument("ALLOW", [rule], NONE)).toEqual({
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
    expect(toDocument("BLOCK", [velocity], NONE).rules[0]).toEqual({
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
    expect(toDocument("ALLOW", toDrafts(stored, NONE), NONE)).toEqual({ defaultAction: "ALLOW", rules: stored.rules });
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
    const drafts = toDrafts(stored, NONE);
    expect(drafts.map((d) => d.destination)).toEqual(["NOT_ADDRESS_BOOK", ""]);
    expect(toDocument("ALLOW", drafts, NONE)).toEqual({ defaultAction: "ALLOW", rules: stored.rules });
    expect(toDocument("ALLOW", [{ ...emptyRule(0), name: "In the book", destination: "ADDRESS_BOOK" }], NONE).rules[0]!.match).toEqual({
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
        sourceWalletIds: ["not-a-uuid"],
        destinationAddresses: ["0x1234"],
        velocity: true,
        velocityAmount: "-1",
        velocityWindowSeconds: "0",
      },
      { ...emptyRule(2), id: "bad id!", name: "x" },
    ];
    expect(checkDraft(rules, NONE)).toEqual({
      "rules.1.id": 'duplicate rule id "same"',
      "rules.1.name": "required",
      "rules.1.match.amountAbove": expect.stringContaining("whole number"),
      "rules.1.match.sourceWalletIds": "not an id: not-a-uuid",
      "rules.1.match.destinationAddresses": expect.stringContaining("0x1234"),
      "rules.1.velocity.amount": expect.any(String),
      "rules.1.velocity.windowSeconds": expect.any(String),
      "rules.2.id": expect.stringContaining("letters, digits"),
    });
    expect(checkDraft([{ ...emptyRule(0), name: "fine" }], NONE)).toEqual({});
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
    const drafts = toDrafts(stored, NONE);
    expect(drafts[0]!.approvals).toEqual([
      { groupId: group, quorum: "2" },
      { groupId: other, quorum: "1" },
    ]);
    expect(toDocument("ALLOW", drafts, NONE)).toEqual({ defaultAction: "ALLOW", rules: stored.rules });
    // Switched to BLOCK, the groups left in the draft are not sent (the API refuses approvals on any other action).
    expect(toDocument("ALLOW", [{ ...drafts[0]!, action: "BLOCK" }], NONE).rules[0]).not.toHaveProperty("approvals");
    expect(checkDraft(drafts, NONE)).toEqual({});
    expect(checkDraft([{ ...drafts[0]!, approvals: [] }], NONE)).toEqual({ "rules.0.approvals": "name at least one approver group" });
    expect(
      checkDraft(
        [
          {
            ...drafts[0]!,
            approvals: [
              { groupId: "", quorum: "1" },
              { groupId: group, quorum: "0" },
              { groupId: group, quorum: "1.5" },
            ],
          },
        ],
        NONE,
      ),
    ).toEqual({
      "rules.0.approvals.0.groupId": "pick an approver group",
      "rules.0.approvals.1.quorum": "a whole number, 1 or more",
      "rules.0.approvals.2.groupId": "a group is listed once",
      "rules.0.approvals.2.quorum": "a whole number, 1 or more",
    });
    expect(emptyApproval()).toEqual({ groupId: "", quorum: "1" });
  });
});

describe("a rule's amounts in the units of its asset", () => {
  const Q = 10n ** 18n;
  const stored = (match: Record<string, unknown>, velocity?: string) => ({
    version: 1,
    defaultAction: "ALLOW" as const,
    rules: [
      {
        id: "cap",
        name: "Cap",
        action: "BLOCK" as const,
        match,
        ...(velocity ? { velocity: { amount: velocity, windowSeconds: 3600, scope: "WALLET" as const } } : {}),
      },
    ],
    updatedAt: null,
    updatedBy: null,
  });

  it("choose the unit: the assets' own decimals, Q when none is chosen, base units when they differ or one is unknown", () => {
    expect(amountUnit({ assetIds: [USDC.id], networkCodes: [] }, ASSETS)).toEqual({ basis: "ASSET", decimals: 6, symbol: "USDC" });
    expect(amountUnit({ assetIds: [Q_SANDBOX.id, Q_MAINNET.id], networkCodes: [] }, ASSETS)).toEqual({
      basis: "ASSET",
      decimals: 18,
      symbol: "Q",
    });
    expect(amountUnit({ assetIds: [], networkCodes: ["QUANTUM_MAINNET"] }, ASSETS)).toEqual({ basis: "NATIVE", decimals: 18, symbol: "Q" });
    expect(amountUnit({ assetIds: [Q_SANDBOX.id, USDC.id], networkCodes: [] }, ASSETS).basis).toBe("BASE_UNITS");
    expect(amountUnit({ assetIds: ["0194f2c4-ffff-7384-af90-718293a4b5c6"], networkCodes: [] }, ASSETS)).toEqual({
      basis: "BASE_UNITS",
      decimals: 0,
      symbol: "base units",
    });
    expect(amountUnitHint(amountUnit({ assetIds: [], networkCodes: [] }, ASSETS))).toMatch(/^No asset chosen: in Q, the native asset/);
    expect(amountUnitHint(amountUnit({ assetIds: [Q_SANDBOX.id, USDC.id], networkCodes: [] }, ASSETS))).toMatch(/different decimals/);
  });

  it('round-trip "2" Q to 2000000000000000000 and back, and "1.5" USDC to 1500000, without floating point', () => {
    const typed = { ...emptyRule(0), name: "Cap", amountAbove: "2", velocity: true, velocityAmount: "0.000000000000000001" };
    const document = toDocument("ALLOW", [typed], ASSETS);
    expect(document.rules[0]!.match?.amountAbove).toBe(String(2n * Q));
    expect(document.rules[0]!.velocity!.amount).toBe("1");
    const back = toDrafts(stored({ amountAbove: String(2n * Q) }, "1"), ASSETS)[0]!;
    expect([back.amountAbove, back.velocityAmount]).toEqual(["2", "0.000000000000000001"]);

    const usdc = { ...emptyRule(0), name: "Cap", assetIds: [USDC.id], amountAbove: "1.5" };
    expect(toDocument("ALLOW", [usdc], ASSETS).rules[0]!.match).toEqual({ assetIds: [USDC.id], amountAbove: "1500000" });
    expect(toDrafts(stored({ assetIds: [USDC.id], amountAbove: "1500000" }), ASSETS)[0]!.amountAbove).toBe("1.5");
    // A value beyond 2^53 base units stays exact.
    const big = "123456789012345678901234567890";
    expect(toDocument("ALLOW", toDrafts(stored({ amountAbove: big }), ASSETS), ASSETS).rules[0]!.match?.amountAbove).toBe(big);
    // Mixed decimals: base units both ways.
    const mixed = stored({ assetIds: [Q_SANDBOX.id, USDC.id], amountAbove: "2500" });
    expect(toDrafts(mixed, ASSETS)[0]!.amountAbove).toBe("2500");
    expect(toDocument("ALLOW", toDrafts(mixed, ASSETS), ASSETS).rules[0]!.match?.amountAbove).toBe("2500");
  });

  it("refuse what the unit cannot hold, in the unit's words", () => {
    expect(amountInBaseUnits("1.0000001", { basis: "ASSET", decimals: 6, symbol: "USDC" })).toEqual({
      ok: false,
      message: "in USDC: at most 6 digits after the decimal point for this asset",
    });
    const rules = [
      { ...emptyRule(0), name: "a", amountAbove: "2x" },
      { ...emptyRule(1), name: "b", assetIds: [Q_SANDBOX.id, USDC.id], amountAbove: "1.5" },
      { ...emptyRule(2), name: "c", velocity: true, velocityAmount: "" },
    ];
    expect(checkDraft(rules, ASSETS)).toEqual({
      "rules.0.match.amountAbove": "in Q: enter a number such as 1.5 (digits and one decimal point)",
      "rules.1.match.amountAbove": "base units: a whole number without sign, point or exponent",
      "rules.2.velocity.amount": "in Q: enter a number such as 1.5 (digits and one decimal point)",
    });
    expect(checkDraft([{ ...emptyRule(0), name: "a", amountAbove: "2.5", sourceWalletIds: [USDC.id] }], ASSETS)).toEqual({});
  });
});
