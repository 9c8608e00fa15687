import { APPROVAL_CONTEXT, approvalHash, type ApprovalFields } from "@qc/chain";
import type { TransactionApprovalRow, TransactionRow } from "@qc/db/queries";
import { z } from "zod";

/**
 * What an approver approves (CONTRACT §15), rebuilt from the stored row: its tenant, id, chain,
 * source, destination (null for a deployment), asset (null for a deployment), amount and type.
 * Every use rebuilds it from the row as it is now; nothing trusts a stored hash.
 */
export function approvalFieldsOf(
  row: Pick<TransactionRow, "tenantId" | "id" | "chainId" | "sourceAddress" | "destinationAddress" | "assetId" | "amount" | "type">,
): ApprovalFields {
  return {
    tenantId: row.tenantId,
    transactionId: row.id,
    chainId: row.chainId,
    sourceAddress: row.sourceAddress,
    destinationAddress: row.destinationAddress,
    assetId: row.assetId,
    amount: row.amount,
    type: row.type,
  };
}

/** `{approvalHash, context, fields}`: what a signer shows, rebuilds and signs. */
export function approvalRequestOf(row: Parameters<typeof approvalFieldsOf>[0]) {
  const fields = approvalFieldsOf(row);
  return { approvalHash: approvalHash(fields), context: APPROVAL_CONTEXT as typeof APPROVAL_CONTEXT, fields };
}

const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

export const approvalFieldsSchema = z.object({
  tenantId: z.uuid(),
  transactionId: z.uuid(),
  chainId: z.number().int(),
  sourceAddress: z.string(),
  destinationAddress: z.string().nullable().meta({ description: "null for a contract deployment" }),
  assetId: z.string().nullable().meta({ description: "null for a contract deployment" }),
  amount: z.string(),
  type: z.string(),
});

/** CONTRACT §15's `approvalRequest`. */
export const approvalRequestSchema = z.object({
  approvalHash: hex32.meta({
    description:
      "keccak256 of the UTF-8 of these lines joined by \\n: QUANTUM-APPROVAL-v1, tenantId, transactionId, chainId, sourceAddress, " +
      "destinationAddress (empty for a deployment), assetId (empty for a deployment), amount, type. Rebuild it from `fields` " +
      "before signing.",
  }),
  context: z.literal(APPROVAL_CONTEXT),
  fields: approvalFieldsSchema,
});
export type ApprovalRequest = z.output<typeof approvalRequestSchema>;

/** A stored decision (a transfer's or an address-book entry's) as records and events show it (CONTRACT §15). */
export const decisionRecordOf = (
  d: Pick<TransactionApprovalRow, "userId" | "decision" | "groupIds" | "keyId" | "reason" | "decidedAt">,
) => ({
  userId: d.userId,
  decision: d.decision,
  groupIds: d.groupIds,
  keyId: d.keyId,
  reason: d.reason,
  decidedAt: d.decidedAt.toISOString(),
});
