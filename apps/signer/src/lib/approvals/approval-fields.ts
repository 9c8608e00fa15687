import type { ApprovalFields } from "@qc/chain";

/** The record fields an approval signs (CONTRACT §15), as a record states them. */
export type ApprovalRecordFields = {
  tenantId: string;
  id: string;
  chainId: number;
  sourceAddress: string;
  destinationAddress: string | null;
  assetId: string | null;
  amount: string;
  type: string;
};

/** What `approvalHash` is computed over, taken from the record itself (never from what the service says it hashed). */
export function approvalFieldsOf(record: ApprovalRecordFields): ApprovalFields {
  return {
    tenantId: record.tenantId,
    transactionId: record.id,
    chainId: record.chainId,
    sourceAddress: record.sourceAddress,
    destinationAddress: record.destinationAddress,
    assetId: record.assetId,
    amount: record.amount,
    type: record.type,
  };
}
