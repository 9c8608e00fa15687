import { APPROVAL_CONTEXT, approvalHash } from "@qc/chain";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_TRANSACTION } from "../transactions/examples";

const APPROVER_GROUP_ID = "0194f2c6-3b4c-7d5e-8f60-7a8b9c0d1e2f";
const APPROVER_ID = "0194f2c6-4c5d-7e6f-8a71-8b9c0d1e2f30";
const APPROVAL_KEY_ID = "0194f2c6-5d6e-7f80-9b82-9c0d1e2f3041";

/** The example transfer held for approval by a REQUIRE_APPROVAL rule (CONTRACT §15). */
export const EXAMPLE_AWAITING_APPROVAL = {
  ...EXAMPLE_TRANSACTION,
  status: "AWAITING_APPROVAL",
  statusReason: 'held for approval by policy rule "large payouts" (rule-large-payouts)',
  screening: { provider: "denylist", decision: "CLEAR", riskScore: null, reasons: [] },
  policy: { decision: "REQUIRE_APPROVAL", ruleId: "rule-large-payouts" },
  initiatedBy: { type: "API_KEY", userId: EXAMPLE.userId, keyId: EXAMPLE.keyId },
  approvals: { required: [{ groupId: APPROVER_GROUP_ID, quorum: 2 }], decisions: [] },
  updatedAt: EXAMPLE.updatedAt,
} as const;

const fields = {
  tenantId: EXAMPLE_TRANSACTION.tenantId,
  transactionId: EXAMPLE_TRANSACTION.id,
  chainId: EXAMPLE_TRANSACTION.chainId,
  sourceAddress: EXAMPLE_TRANSACTION.sourceAddress,
  destinationAddress: EXAMPLE_TRANSACTION.destinationAddress,
  assetId: EXAMPLE_TRANSACTION.assetId,
  amount: EXAMPLE_TRANSACTION.amount,
  type: EXAMPLE_TRANSACTION.type,
};

/** What a signer rebuilds and signs for it. */
export const EXAMPLE_APPROVAL_REQUEST = { approvalHash: approvalHash(fields), context: APPROVAL_CONTEXT, fields };

/** One approver's decision on it. */
export const EXAMPLE_APPROVAL_DECISION = {
  userId: APPROVER_ID,
  decision: "APPROVED",
  groupIds: [APPROVER_GROUP_ID],
  keyId: APPROVAL_KEY_ID,
  reason: null,
  decidedAt: EXAMPLE.updatedAt,
} as const;

/** Shortened in the examples: an ML-DSA-87 signature is 4627 bytes, a public key 2592. */
export const EXAMPLE_SIGNATURE = "0x6a0f3c…";
export const EXAMPLE_APPROVAL_KEY = { id: APPROVAL_KEY_ID, publicKey: "0x9d41e2…" };
