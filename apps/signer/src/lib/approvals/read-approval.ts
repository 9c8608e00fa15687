import {
  APPROVAL_CONTEXT,
  approvalHash,
  InvalidTransactionFieldError,
  isAddressInput,
  parseAddress,
  type ApprovalFields,
  type NetworkCode,
} from "@qc/chain";
import type { Address, Hex } from "viem";
import { ReviewRefusedError, type ReviewDifference } from "../errors";
import { parseRecord, readNetwork, refuse } from "../review/read-pending-transaction";
import { readListedAsset, type DisplayedAsset } from "../review/read-transfer";
import { approvalTransactionSchema, type ApprovalTransaction } from "../service/approvals-api";
import { approvalFieldsOf } from "./approval-fields";
import type { Asset } from "../service/signer-api";

/** The transaction's status while it waits for approvers (CONTRACT §15). */
export const AWAITING_APPROVAL = "AWAITING_APPROVAL";

/** What `approve` shows and signs: the record's intent, and the approval hash rebuilt here from it. */
export type VerifiedApproval = {
  id: string;
  tenantId: string;
  type: ApprovalTransaction["type"];
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: Address;
  /** Null for a contract deployment. */
  destinationAddress: Address | null;
  /** Null for a contract deployment (it moves no asset). */
  asset: DisplayedAsset | null;
  amount: bigint;
  fields: ApprovalFields;
  /** Computed here from `fields`; equal to the service's, or nothing is returned. */
  approvalHash: Hex;
  initiatedBy: ApprovalTransaction["initiatedBy"];
  approvals: ApprovalTransaction["approvals"];
  note: string | null;
  externalId: string | null;
  createdAt: string | null;
};

export type ReadApprovalParameters = {
  /** One element of `GET /v1/approvals?status=PENDING`, as received. */
  transaction: unknown;
  /** The tenant this signer is logged in to (the profile's): an approval names it. */
  tenantId: string;
  /** `GET /v1/assets?networkCode=<the transaction's network>`. */
  assets: readonly Asset[];
};

const FIELD_NAMES = ["tenantId", "transactionId", "chainId", "sourceAddress", "destinationAddress", "assetId", "amount", "type"] as const;

/**
 * Reads a transaction awaiting approval into what `approve` shows, rebuilds the approval fields
 * from the record's own fields (tenantId, id, chainId, sourceAddress, destinationAddress,
 * assetId, amount, type) and their `approvalHash`, and refuses (ReviewRefusedError naming every
 * field at fault) when the service's `approvalRequest` differs in any of them, in its context or
 * in its hash, or when the record cannot be shown truthfully.
 */
export function readApprovalRequest({ transaction, tenantId, assets }: ReadApprovalParameters): VerifiedApproval {
  const tx = parseRecord(approvalTransactionSchema, transaction);
  const network = readNetwork(tx, AWAITING_APPROVAL);
  if (tx.tenantId !== tenantId) refuse("tenantId", `is ${tx.tenantId}, but this signer is logged in to tenant ${tenantId}`);
  if (!isAddressInput(tx.sourceAddress)) refuse("sourceAddress", "is not an address");

  let destinationAddress: Address | null = null;
  let asset: DisplayedAsset | null = null;
  if (tx.type === "TRANSFER") {
    if (tx.destinationAddress === null || !isAddressInput(tx.destinationAddress)) refuse("destinationAddress", "is not an address");
    destinationAddress = parseAddress(tx.destinationAddress);
    asset = readListedAsset(assets, tx.assetId, network.networkCode);
  } else {
    if (tx.destinationAddress !== null) refuse("destinationAddress", "is set on a contract deployment");
    if (tx.assetId !== null) refuse("assetId", "is set on a contract deployment");
    if (tx.amount !== "0") refuse("amount", "is not 0 on a contract deployment");
  }

  const fields = approvalFieldsOf(tx);
  const hash = rebuildHash(fields);

  const request = tx.approvalRequest;
  const differences: ReviewDifference[] = [];
  if (request.context !== APPROVAL_CONTEXT) {
    differences.push({ field: "approvalRequest.context", reason: `is ${JSON.stringify(request.context)}, not ${APPROVAL_CONTEXT}` });
  }
  for (const name of FIELD_NAMES) {
    if (request.fields[name] !== fields[name]) {
      differences.push({
        field: `approvalRequest.fields.${name}`,
        reason: `is ${JSON.stringify(request.fields[name]) ?? "missing"}, but the record says ${JSON.stringify(fields[name])}`,
      });
    }
  }
  if (request.approvalHash.toLowerCase() !== hash) {
    differences.push({
      field: "approvalRequest.approvalHash",
      reason: `is ${request.approvalHash}, but the record's fields hash to ${hash}`,
    });
  }
  if (differences.length > 0) throw new ReviewRefusedError(differences);

  return {
    id: tx.id,
    tenantId: tx.tenantId,
    type: tx.type,
    ...network,
    sourceAddress: parseAddress(tx.sourceAddress),
    destinationAddress,
    asset,
    amount: BigInt(tx.amount),
    fields,
    approvalHash: hash,
    initiatedBy: tx.initiatedBy,
    approvals: tx.approvals,
    note: tx.note ?? null,
    externalId: tx.externalId ?? null,
    createdAt: tx.createdAt ?? null,
  };
}

/** The hash of the record's fields (addresses checked already), or a refusal naming a field it cannot hold unambiguously. */
function rebuildHash(fields: ApprovalFields): Hex {
  try {
    return approvalHash(fields);
  } catch (error) {
    if (error instanceof InvalidTransactionFieldError) refuse(error.field, "cannot be written into the approval hash unambiguously");
    throw error;
  }
}
