import { z } from "zod";
import { listTransactions } from "./list-transactions";
import { hex32, recordIntentShape } from "./schemas";
import type { ServiceClient } from "./service-client";

/**
 * The approval routes of CONTRACT §15 the signer calls: who the API key's member is, their
 * approval keys, what awaits their decision, and the decision itself; and an address-book entry's
 * (CONTRACT §16), decided alike.
 */

/** What the service asks an approver to sign: the hash, its context and the fields it hashed. */
export const approvalRequestSchema = z.object({
  approvalHash: hex32,
  context: z.string(),
  fields: z.record(z.string(), z.unknown()),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** One element of `GET /v1/approvals?status=PENDING`: the record of CONTRACT §6/§15 plus its approval request. */
export const approvalTransactionSchema = z.looseObject({
  ...recordIntentShape,
  tenantId: z.string(),
  initiatedBy: z
    .looseObject({ type: z.string(), userId: z.string().nullable().optional(), keyId: z.string().nullable().optional() })
    .nullable()
    .optional(),
  approvals: z
    .looseObject({
      required: z.array(z.looseObject({ groupId: z.string(), quorum: z.number().int() })),
      decisions: z.array(z.looseObject({ userId: z.string(), decision: z.string(), groupIds: z.array(z.string()).optional() })),
    })
    .nullable()
    .optional(),
  approvalRequest: approvalRequestSchema,
});
export type ApprovalTransaction = z.infer<typeof approvalTransactionSchema>;

/** `GET /v1/address-book/{id}` (CONTRACT §16): the fields an approver of the entry sees and signs. */
export const addressBookEntrySchema = z.looseObject({
  id: z.string().min(1),
  networkCode: z.string().min(1),
  address: z.string(),
  label: z.string(),
  assetIds: z.array(z.string()).nullable(),
  status: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  approvals: z
    .looseObject({
      required: z.array(z.looseObject({ groupId: z.string(), quorum: z.number().int() })),
      decisions: z.array(z.looseObject({ userId: z.string(), decision: z.string() })),
      approvalHash: hex32,
      context: z.string(),
      deadline: z.string(),
    })
    .nullable(),
});
export type AddressBookEntry = z.infer<typeof addressBookEntrySchema>;

const approvalKeyRecord = z.looseObject({ keyId: z.string().min(1), publicKey: z.string(), createdAt: z.string().optional() });

const decisionAnswer = z.looseObject({ id: z.string(), status: z.string(), subStatus: z.string().nullable().optional() });
const entryDecisionAnswer = z.looseObject({ id: z.string(), status: z.string(), activatesAt: z.string().nullable() });

export type ApprovalDecision = { decision: "APPROVED"; keyId: string; signature: string } | { decision: "REJECTED"; reason: string };

export function approvalsApi(client: ServiceClient) {
  return {
    /** The member the API key belongs to (its creator): approval keys are enrolled for them. */
    me() {
      return client.send("GET", "/v1/members/me", z.looseObject({ userId: z.string().min(1) }));
    },

    /** The member's approval keys, to learn the id of one whose enrollment answer was lost. */
    async approvalKeys() {
      return (await client.send("GET", "/v1/members/me/approval-keys", z.looseObject({ keys: z.array(approvalKeyRecord) }))).keys;
    },

    enrollApprovalKey(body: { publicKey: string; proof: string }) {
      return client.send("POST", "/v1/members/me/approval-keys", approvalKeyRecord, body);
    },

    /** Every transaction awaiting this member's decision, as the service returns them (all pages). */
    pendingApprovals(options: { pages?: number } = {}): Promise<{ transactions: Record<string, unknown>[] }> {
      return listTransactions(client, "/v1/approvals", { status: "PENDING" }, options);
    },

    decideApproval(id: string, decision: ApprovalDecision) {
      return client.send("POST", `/v1/transactions/${encodeURIComponent(id)}/approvals`, decisionAnswer, decision);
    },

    /** An address-book entry as the service returns it (unparsed: `readEntryApproval` judges it). */
    addressBookEntry(id: string) {
      return client.send("GET", `/v1/address-book/${encodeURIComponent(id)}`, z.unknown());
    },

    decideAddressBookEntry(id: string, decision: ApprovalDecision) {
      return client.send("POST", `/v1/address-book/${encodeURIComponent(id)}/approvals`, entryDecisionAnswer, decision);
    },
  };
}
