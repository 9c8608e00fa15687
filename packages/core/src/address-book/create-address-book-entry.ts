import { parseAddress, type NetworkCode } from "@qc/chain";
import { isUniqueViolation } from "@qc/db";
import { insertAddressBookEntry } from "@qc/db/queries";
import { resolveWalletAssetIds } from "../assets/asset-record";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { addressBookActivationJob } from "./announce-entry-activation";
import { entryDetails, toAddressBookEntryRecord, type AddressBookEntryRecord } from "./address-book-entry-record";

export interface CreateAddressBookEntryInput {
  tenantId: string;
  networkCode: NetworkCode;
  /** Any accepted form (CONTRACT §1); stored canonical. */
  address: string;
  label: string;
  /** Assets of the tenant on `networkCode` the entry is limited to; absent: every asset. */
  assetIds?: string[] | undefined;
  actor: Actor;
}

/**
 * `POST /v1/address-book` (CONTRACT §16): a PENDING entry that becomes ACTIVE at `activatesAt` =
 * now + ADDRESS_BOOK_ACTIVATION_SECONDS. In one database transaction: the row (the partial unique
 * index refuses an address already listed on that network, pending or active: 409
 * ADDRESS_ALREADY_LISTED), the audit row, the `address_book.entry_added` event and the job that
 * announces the activation at `activatesAt` (`address_book.entry_activated`). The activation itself
 * needs no job: the policy reads `activatesAt` against its clock.
 */
export async function createAddressBookEntry(
  deps: Pick<ServiceDeps, "db" | "now" | "config" | "jobs">,
  input: CreateAddressBookEntryInput,
): Promise<AddressBookEntryRecord> {
  let address: string;
  try {
    address = parseAddress(input.address);
  } catch {
    throw new AppError("VALIDATION_FAILED", "address is not a valid address", {
      details: { fields: [{ path: "address", message: "40 hex digits with optional 0x; mixed case must pass EIP-55" }] },
    });
  }
  const now = deps.now();
  const activatesAt = new Date(now.getTime() + deps.config.transfers.addressBookActivationSeconds * 1000);
  try {
    return await deps.db.transaction(async (tx) => {
      const assetIds = input.assetIds ? await resolveWalletAssetIds(tx, input.tenantId, input.networkCode, input.assetIds) : null;
      const row = await insertAddressBookEntry(tx, {
        tenantId: input.tenantId,
        networkCode: input.networkCode,
        address,
        label: input.label,
        assetIds,
        activatesAt,
        createdAt: now,
        createdBy: input.actor.id ?? input.actor.type,
      });
      const entry = toAddressBookEntryRecord(row, now);
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "address_book.entry_added",
        target: { type: "address_book_entry", id: row.id },
        details: { ...entryDetails(row), assetIds, activatesAt: entry.activatesAt },
      });
      await emitEvent(tx, { tenantId: input.tenantId, type: "address_book.entry_added", aggregateId: row.id, data: { entry } });
      await deps.jobs.schedule(tx, ...addressBookActivationJob(row));
      return entry;
    });
  } catch (error) {
    if (isUniqueViolation(error, "address_book_entries_listed_unique")) {
      throw new AppError("ADDRESS_ALREADY_LISTED", `${address} is already in the address book for ${input.networkCode}`, {
        details: { networkCode: input.networkCode, address },
      });
    }
    throw error;
  }
}
