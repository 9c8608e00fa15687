import { addressBookApprovalHash, APPROVAL_CONTEXT, type AddressBookApprovalFields } from "@qc/chain";
import type { Executor } from "@qc/db";
import { findAddressBookEntry, listAddressBookDecisions, type AddressBookApprovalRow, type AddressBookEntryRow } from "@qc/db/queries";
import { ADDRESS_BOOK_ENTRY_STATUSES, addressBookEntryStatus } from "@qc/domain";
import { z } from "zod";
import { decisionRecordOf } from "../approvals/decisions/approval-request";
import { AppError } from "../errors";
import { addressSchema, approvalsSchema, networkCodeSchema, timestampSchema } from "../records/record-schemas";

const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

/**
 * An entry's approval (CONTRACT §16, decided as §15): what it needs, by when, the hash approvers sign,
 * and every decision taken (also those that stopped counting: history is not rewritten).
 */
export const addressBookEntryApprovalsSchema = approvalsSchema.extend({
  approvalHash: hex32.meta({
    description:
      "keccak256 of the UTF-8 of these lines joined by \\n: QUANTUM-ADDRESS-BOOK-APPROVAL-v1, tenantId, id, networkCode, " +
      "address, label, the assetIds sorted and joined by ',' (empty for every asset), createdAt. Rebuild it before signing.",
  }),
  context: z.literal(APPROVAL_CONTEXT).meta({ description: "the ML-DSA-87 context of the approvers' signatures" }),
  deadline: timestampSchema.meta({ description: "an entry still AWAITING_APPROVAL then is removed (APPROVAL_TIMEOUT_SECONDS)" }),
  approvedAt: timestampSchema.nullable().meta({ description: "when the quorum was met; the activation delay runs from then" }),
});

/** An address-book entry as `/v1/address-book` and its events show it (CONTRACT §16). */
export const addressBookEntryRecordSchema = z.object({
  id: z.uuid(),
  networkCode: networkCodeSchema,
  address: addressSchema,
  label: z.string(),
  assetIds: z.array(z.uuid()).nullable().meta({ description: "the assets the entry counts for; null: every asset of its network" }),
  status: z.enum(ADDRESS_BOOK_ENTRY_STATUSES).meta({
    description:
      "AWAITING_APPROVAL while an addition needing approval waits for its quorum, then PENDING until `activatesAt`, " +
      "ACTIVE from then (only an ACTIVE entry counts in policies), REMOVED once deleted, rejected or timed out",
  }),
  activatesAt: timestampSchema.nullable().meta({
    description:
      "the entry is ACTIVE from this instant: creation (or, for an addition that needed approval, its quorum) + " +
      "ADDRESS_BOOK_ACTIVATION_SECONDS; null while it awaits approval (and when removed before its quorum)",
  }),
  createdAt: timestampSchema,
  createdBy: z.string().meta({ description: "who added it: a member's user id (dashboard) or an API key's id" }),
  removedAt: timestampSchema.nullable(),
  removedBy: z.string().nullable().meta({ description: "who removed it: a member's user id or an API key's id; `system` for a timeout" }),
  removalReason: z
    .string()
    .nullable()
    .meta({ description: "why an entry awaiting approval was removed: an approver's rejection (their reason) or the timeout" }),
  approvals: addressBookEntryApprovalsSchema
    .nullable()
    .meta({ description: "present when the addition needed approval (the tenant's setting when it was added); null otherwise" }),
});
export type AddressBookEntryRecord = z.infer<typeof addressBookEntryRecordSchema>;

/** What an approver of the entry signs (CONTRACT §16), rebuilt from the stored row. */
export function addressBookApprovalFieldsOf(
  row: Pick<AddressBookEntryRow, "tenantId" | "id" | "networkCode" | "address" | "label" | "assetIds" | "createdAt">,
): AddressBookApprovalFields {
  return {
    tenantId: row.tenantId,
    entryId: row.id,
    networkCode: row.networkCode,
    address: row.address,
    label: row.label,
    assetIds: row.assetIds,
    createdAt: row.createdAt.toISOString(),
  };
}

type Decision = Pick<AddressBookApprovalRow, "userId" | "decision" | "groupIds" | "keyId" | "reason" | "decidedAt">;

/** The record of a stored entry and its decisions; its status as of `now` (ACTIVE is derived, never stored). */
export function toAddressBookEntryRecord(row: AddressBookEntryRow, now: Date, decisions: readonly Decision[] = []): AddressBookEntryRecord {
  return {
    id: row.id,
    networkCode: row.networkCode,
    address: row.address,
    label: row.label,
    assetIds: row.assetIds,
    status: addressBookEntryStatus(row, now),
    activatesAt: row.activatesAt ? row.activatesAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    removedAt: row.removedAt ? row.removedAt.toISOString() : null,
    removedBy: row.removedBy,
    removalReason: row.removalReason,
    approvals:
      row.approvalGroupId === null || row.approvalQuorum === null || row.approvalDeadline === null
        ? null
        : {
            required: [{ groupId: row.approvalGroupId, quorum: row.approvalQuorum }],
            decisions: decisions.map(decisionRecordOf),
            approvalHash: addressBookApprovalHash(addressBookApprovalFieldsOf(row)),
            context: APPROVAL_CONTEXT,
            deadline: row.approvalDeadline.toISOString(),
            approvedAt: row.approvedAt ? row.approvedAt.toISOString() : null,
          },
  };
}

/** The records of stored entries, with the decisions of those that needed approval read in one statement. */
export async function toAddressBookEntryRecords(
  db: Executor,
  tenantId: string,
  rows: readonly AddressBookEntryRow[],
  now: Date,
): Promise<AddressBookEntryRecord[]> {
  const entryIds = rows.filter((row) => row.approvalGroupId !== null).map((row) => row.id);
  const decisions = await listAddressBookDecisions(db, { tenantId, entryIds });
  return rows.map((row) => toAddressBookEntryRecord(row, now, decisions.get(row.id)));
}

/** The tenant's entry, or 404 for an unknown id or another tenant's. */
export async function findAddressBookEntryOr404(db: Executor, params: { tenantId: string; entryId: string }): Promise<AddressBookEntryRow> {
  const row = await findAddressBookEntry(db, params);
  if (!row) throw new AppError("NOT_FOUND", "address-book entry not found");
  return row;
}

/** The entry's record with its decisions: what a change answers and its event carries. */
export async function loadAddressBookEntryRecord(db: Executor, row: AddressBookEntryRow, now: Date): Promise<AddressBookEntryRecord> {
  return (await toAddressBookEntryRecords(db, row.tenantId, [row], now))[0]!;
}

/** What the audit rows and events of an entry carry about it. */
export const entryDetails = (row: AddressBookEntryRow) => ({ networkCode: row.networkCode, address: row.address, label: row.label });
