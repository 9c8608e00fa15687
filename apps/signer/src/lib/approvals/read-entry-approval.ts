import {
  addressBookApprovalHash,
  APPROVAL_CONTEXT,
  InvalidTransactionFieldError,
  isAddressInput,
  parseAddress,
  type AddressBookApprovalFields,
} from "@qc/chain";
import type { Address, Hex } from "viem";
import { ReviewRefusedError } from "../errors";
import { printableText } from "../review/printable-text";
import { parseRecord, refuse } from "../review/read-pending-transaction";
import { addressBookEntrySchema, type AddressBookEntry } from "../service/approvals-api";
import { AWAITING_APPROVAL } from "./read-approval";

/** What `approve-entry` shows and signs: the entry as added, and the approval hash rebuilt here from it. */
export type VerifiedEntryApproval = {
  id: string;
  networkCode: string;
  address: Address;
  label: string;
  assetIds: string[] | null;
  createdAt: string;
  createdBy: string;
  approvals: NonNullable<AddressBookEntry["approvals"]>;
  fields: AddressBookApprovalFields;
  /** Computed here from `fields`; equal to the service's, or nothing is returned. */
  approvalHash: Hex;
};

/**
 * Reads an address-book entry awaiting approval (`GET /v1/address-book/{id}`, CONTRACT §16) into what
 * `approve-entry` shows, rebuilds its approval fields (tenantId — the signer's own —, id,
 * networkCode, address, label, sorted assetIds, createdAt) and their `approvalHash`, and refuses
 * (ReviewRefusedError) when the entry is not awaiting approval, or the service's hash or context differs.
 */
export function readEntryApproval({ entry, tenantId }: { entry: unknown; tenantId: string }): VerifiedEntryApproval {
  const record = parseRecord(addressBookEntrySchema, entry);
  if (record.status !== AWAITING_APPROVAL || !record.approvals)
    refuse("status", `is ${record.status}: only an entry ${AWAITING_APPROVAL} takes a decision`);
  if (!isAddressInput(record.address)) refuse("address", "is not an address");
  const fields: AddressBookApprovalFields = {
    tenantId,
    entryId: record.id,
    networkCode: record.networkCode,
    address: record.address,
    label: record.label,
    assetIds: record.assetIds,
    createdAt: record.createdAt,
  };
  let hash: Hex;
  try {
    hash = addressBookApprovalHash(fields);
  } catch (error) {
    if (error instanceof InvalidTransactionFieldError) refuse(error.field, "cannot be written into the approval hash unambiguously");
    throw error;
  }
  const differences = [];
  if (record.approvals.context !== APPROVAL_CONTEXT)
    differences.push({ field: "approvals.context", reason: `is ${JSON.stringify(record.approvals.context)}, not ${APPROVAL_CONTEXT}` });
  if (record.approvals.approvalHash.toLowerCase() !== hash)
    differences.push({
      field: "approvals.approvalHash",
      reason: `is ${record.approvals.approvalHash}, but the entry's fields hash to ${hash}`,
    });
  if (differences.length > 0) throw new ReviewRefusedError(differences);
  return {
    id: record.id,
    networkCode: record.networkCode,
    address: parseAddress(record.address),
    label: record.label,
    assetIds: record.assetIds,
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    approvals: record.approvals,
    fields,
    approvalHash: hash,
  };
}

/** The lines `approve-entry` prints before asking for the confirmation. */
export function describeEntryApproval(entry: VerifiedEntryApproval): string[] {
  const required = entry.approvals.required.map((r) => `${r.quorum} of approver group ${r.groupId}`).join(", ");
  const approved = entry.approvals.decisions.filter((d) => d.decision === "APPROVED").length;
  return [
    `Address-book entry ${entry.id} awaiting approval`,
    `  Network:      ${entry.networkCode}`,
    `  Address:      ${entry.address}`,
    `  Label:        ${printableText(entry.label, 100)}`,
    `  Assets:       ${entry.assetIds === null ? "every asset of the network" : entry.assetIds.join(", ")}`,
    `  Added:        ${entry.createdAt} by ${printableText(entry.createdBy, 80)}`,
    `  Needs:        ${required} (${approved} approval(s) so far); deadline ${entry.approvals.deadline}`,
    `  Approval hash ${entry.approvalHash} (rebuilt here from the fields above; matches the service's)`,
  ];
}
