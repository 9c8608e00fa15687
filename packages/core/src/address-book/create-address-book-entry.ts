import { parseAddress, type NetworkCode } from "@qc/chain";
import { isUniqueViolation } from "@qc/db";
import { findAddressBookSettings, insertAddressBookEntry } from "@qc/db/queries";
import { resolveWalletAssetIds } from "../assets/asset-record";
import { actingMemberId, auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { addressBookActivationJob } from "./announce-entry-activation";
import { addressBookApprovalTimeoutJob } from "./expire-address-book-entry";
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
 * index refuses an address already listed on that network, awaiting approval, pending or active: 409
 * ADDRESS_ALREADY_LISTED), the audit row, the `address_book.entry_added` event and the job that
 * announces the activation at `activatesAt` (`address_book.entry_activated`). The activation itself
 * needs no job: the policy reads `activatesAt` against its clock.
 *
 * While the tenant's setting requires approval for additions (read FOR SHARE, so a change of the
 * setting waits for the addition or the addition for it), the entry is AWAITING_APPROVAL instead,
 * with no `activatesAt`, the setting's group and quorum kept on the row, and an approval deadline
 * of now + APPROVAL_TIMEOUT_SECONDS; its timeout job is scheduled instead of the announcement.
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
  const { addressBookActivationSeconds, approvalTimeoutSeconds } = deps.config.transfers;
  try {
    return await deps.db.transaction(async (tx) => {
      const assetIds = input.assetIds ? await resolveWalletAssetIds(tx, input.tenantId, input.networkCode, input.assetIds) : null;
      const setting = await findAddressBookSettings(tx, { tenantId: input.tenantId, lock: "share" });
      const common = {
        tenantId: input.tenantId,
        networkCode: input.networkCode,
        address,
        label: input.label,
        assetIds,
        createdAt: now,
        createdBy: input.actor.id ?? input.actor.type,
        createdByUserId: actingMemberId(input.actor),
      };
      const row = await insertAddressBookEntry(
        tx,
        setting?.approvalGroupId && setting.approvalQuorum
          ? {
              ...common,
              status: "AWAITING_APPROVAL",
              approvalGroupId: setting.approvalGroupId,
              approvalQuorum: setting.approvalQuorum,
              approvalDeadline: new Date(now.getTime() + approvalTimeoutSeconds * 1000),
            }
          : { ...common, status: "PENDING", activatesAt: new Date(now.getTime() + addressBookActivationSeconds * 1000) },
      );
      const entry = toAddressBookEntryRecord(row, now);
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "address_book.entry_added",
        target: { type: "address_book_entry", id: row.id },
        details: {
          ...entryDetails(row),
          assetIds,
          activatesAt: entry.activatesAt,
          status: entry.status,
          approvals: entry.approvals?.required ?? null,
        },
      });
      await emitEvent(tx, { tenantId: input.tenantId, type: "address_book.entry_added", aggregateId: row.id, data: { entry } });
      if (row.activatesAt) await deps.jobs.schedule(tx, ...addressBookActivationJob({ ...row, activatesAt: row.activatesAt }));
      else await deps.jobs.schedule(tx, ...addressBookApprovalTimeoutJob(row));
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
