import { addressBookApprovalHash, APPROVAL_CONTEXT } from "@qc/chain";
import { describe, expect, test } from "vitest";
import { ReviewRefusedError } from "../errors";
import { readEntryApproval } from "./read-entry-approval";

const tenantId = "0190f5c4-7d3a-7b2e-9c11-2b5e6f7a8b9c";
const base = {
  id: "0194f2c7-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
  networkCode: "QUANTUM_SANDBOX",
  address: "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf",
  label: "Exchange deposit (Acme)",
  assetIds: null,
  status: "AWAITING_APPROVAL",
  activatesAt: null,
  createdAt: "2026-11-21T10:00:00.000Z",
  createdBy: "0194f2c4-5e0d-7b29-8a1c-2d3e4f5a6b7c",
};
const hash = addressBookApprovalHash({ tenantId, entryId: base.id, ...base });
const entry = {
  ...base,
  approvals: {
    required: [{ groupId: base.createdBy, quorum: 2 }],
    decisions: [],
    approvalHash: hash,
    context: APPROVAL_CONTEXT,
    deadline: base.createdAt,
  },
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ReviewRefusedError) return error.differences.map((d) => d.field);
    throw error;
  }
  throw new Error("not refused");
};

/** `approve-entry`'s reading of an address-book entry (CONTRACT §16): it signs only the hash it rebuilt itself. */
describe("readEntryApproval", () => {
  test("rebuilds the service's hash from the entry and the signer's own tenant", () => {
    expect(readEntryApproval({ entry, tenantId })).toMatchObject({ approvalHash: hash, address: base.address, label: base.label });
  });

  test.each([
    ["a tampered hash", { approvals: { ...entry.approvals, approvalHash: `0x${"00".repeat(32)}` } }, ["approvals.approvalHash"]],
    ["a label that is not what was hashed", { label: "Exchange deposit (Evil)" }, ["approvals.approvalHash"]],
    ["another context", { approvals: { ...entry.approvals, context: "QUANTUM-TX-v1" } }, ["approvals.context"]],
    ["an entry no longer awaiting approval", { status: "PENDING" }, ["status"]],
    ["no approvals", { approvals: null }, ["status"]],
  ] as const)("refuses %s, naming the field", (_name, change, fields) => {
    expect(refusal(() => readEntryApproval({ entry: { ...entry, ...change }, tenantId }))).toEqual(fields);
  });

  test("refuses an entry of another tenant: its hash names the tenant", () => {
    expect(refusal(() => readEntryApproval({ entry, tenantId: "0190f5c4-7d3a-7b2e-9c11-2b5e6f7a8b9d" }))).toEqual([
      "approvals.approvalHash",
    ]);
  });
});
