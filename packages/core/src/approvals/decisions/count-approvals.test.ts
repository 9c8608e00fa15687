import type { TransactionApprovalWithStanding } from "@qc/db/queries";
import { describe, expect, it } from "vitest";
import { approvalsNewlyRequired, describeShortfall, groupsCountedFor, tallyQuorum, whyApprovalDoesNotCount } from "./count-approvals";

const G1 = "00000000-0000-4000-8000-000000000001";
const G2 = "00000000-0000-4000-8000-000000000002";

const approval = (overrides: Partial<TransactionApprovalWithStanding> = {}): TransactionApprovalWithStanding => ({
  id: "a",
  tenantId: "t",
  transactionId: "x",
  userId: "u1",
  decision: "APPROVED",
  groupIds: [G1],
  keyId: "k1",
  approvalHash: "0x",
  signature: "0xsig",
  reason: null,
  decidedAt: new Date(0),
  publicKey: "0xkey",
  keyRevokedAt: null,
  memberRemoved: false,
  currentGroupIds: [G1],
  ...overrides,
});

describe("counting approvals against quorums (CONTRACT §15)", () => {
  it("counts one member's approval once for each required group they were and still are in", () => {
    const both = approval({ userId: "u3", groupIds: [G1, G2], currentGroupIds: [G1, G2] });
    const tally = tallyQuorum(
      [
        { groupId: G1, quorum: 2 },
        { groupId: G2, quorum: 1 },
      ],
      [approval(), both],
    );
    expect(tally).toEqual({
      met: true,
      groups: [
        { groupId: G1, quorum: 2, approvals: 2 },
        { groupId: G2, quorum: 1, approvals: 1 },
      ],
    });
  });

  it("2 of 3 is not met by one approval, and says which group falls short", () => {
    const tally = tallyQuorum([{ groupId: G1, quorum: 2 }], [approval()]);
    expect(tally.met).toBe(false);
    expect(describeShortfall(tally)).toBe(`approver group ${G1} has 1 of 2 approval(s)`);
  });

  it("does not count a group the member left, nor one they joined after deciding", () => {
    expect(groupsCountedFor(approval({ groupIds: [G1, G2], currentGroupIds: [G2] }))).toEqual([G2]);
    expect(groupsCountedFor(approval({ groupIds: [G1], currentGroupIds: [G1, G2] }))).toEqual([G1]);
    expect(tallyQuorum([{ groupId: G1, quorum: 1 }], [approval({ currentGroupIds: [] })]).met).toBe(false);
  });

  it("a rejection, a removed member's approval and a revoked key's approval do not count, each saying why", () => {
    expect(whyApprovalDoesNotCount(approval())).toBeNull();
    expect(whyApprovalDoesNotCount(approval({ decision: "REJECTED", keyId: null, signature: null }))).toBe("not an approval");
    expect(whyApprovalDoesNotCount(approval({ memberRemoved: true }))).toContain("the member was removed");
    expect(whyApprovalDoesNotCount(approval({ keyRevokedAt: new Date() }))).toContain("approval key k1 was revoked");
    expect(whyApprovalDoesNotCount(approval({ publicKey: null }))).toContain("has no key or signature");
  });

  it("a policy decided again asks for new approvals when it requires any of a transaction held for none, or other groups or quorums", () => {
    const held = {
      approvals: {
        required: [
          { groupId: G1, quorum: 2 },
          { groupId: G2, quorum: 1 },
        ],
        decisions: [],
      },
    };
    expect(approvalsNewlyRequired({ approvals: null }, undefined)).toBe(false);
    expect(approvalsNewlyRequired({ approvals: null }, [{ groupId: G1, quorum: 1 }])).toBe(true);
    expect(
      approvalsNewlyRequired(held, [
        { groupId: G2, quorum: 1 },
        { groupId: G1, quorum: 2 },
      ]),
    ).toBe(false);
    expect(
      approvalsNewlyRequired(held, [
        { groupId: G1, quorum: 3 },
        { groupId: G2, quorum: 1 },
      ]),
    ).toBe(true);
    expect(approvalsNewlyRequired(held, [{ groupId: G1, quorum: 2 }])).toBe(true);
    expect(approvalsNewlyRequired(held, undefined)).toBe(false);
  });
});
