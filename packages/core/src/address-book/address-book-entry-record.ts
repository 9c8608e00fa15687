import type { Executor } from "@qc/db";
import { findAddressBookEntry, type AddressBookEntryRow } from "@qc/db/queries";
import { ADDRESS_BOOK_ENTRY_STATUSES, addressBookEntryStatus } from "@qc/domain";
import { z } from "zod";
import { AppError } from "../errors";
import { addressSchema, networkCodeSchema, timestampSchema } from "../records/record-schemas";

/** An address-book entry as `/v1/address-book` and its events show it (CONTRACT §16). */
export const addressBookEntryRecordSchema = z.object({
  id: z.uuid(),
  networkCode: networkCodeSchema,
  address: addressSchema,
  label: z.string(),
  assetIds: z.array(z.uuid()).nullable().meta({ description: "the assets the entry counts for; null: every asset of its network" }),
  status: z.enum(ADDRESS_BOOK_ENTRY_STATUSES).meta({
    description: "PENDING until `activatesAt`, ACTIVE from then (only an ACTIVE entry counts in policies), REMOVED once deleted",
  }),
  activatesAt: timestampSchema.meta({ description: "creation + ADDRESS_BOOK_ACTIVATION_SECONDS: the entry is ACTIVE from this instant" }),
  createdAt: timestampSchema,
  createdBy: z.string().meta({ description: "who added it: a member's user id (dashboard) or an API key's id" }),
  removedAt: timestampSchema.nullable(),
  removedBy: z.string().nullable().meta({ description: "who removed it: a member's user id or an API key's id" }),
});

export type AddressBookEntryRecord = z.infer<typeof addressBookEntryRecordSchema>;

/** The record of a stored entry; its status as of `now` (ACTIVE is derived, never stored). */
export function toAddressBookEntryRecord(row: AddressBookEntryRow, now: Date): AddressBookEntryRecord {
  return {
    id: row.id,
    networkCode: row.networkCode,
    address: row.address,
    label: row.label,
    assetIds: row.assetIds,
    status: addressBookEntryStatus(row, now),
    activatesAt: row.activatesAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    removedAt: row.removedAt ? row.removedAt.toISOString() : null,
    removedBy: row.removedBy,
  };
}

/** The tenant's entry, or 404 for an unknown id or another tenant's. */
export async function findAddressBookEntryOr404(db: Executor, params: { tenantId: string; entryId: string }): Promise<AddressBookEntryRow> {
  const row = await findAddressBookEntry(db, params);
  if (!row) throw new AppError("NOT_FOUND", "address-book entry not found");
  return row;
}

/** What the audit rows and events of an entry carry about it. */
export const entryDetails = (row: AddressBookEntryRow) => ({ networkCode: row.networkCode, address: row.address, label: row.label });
