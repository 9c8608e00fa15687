import { findAddressBookEntry, removeWaitingAddressBookEntry, type AddressBookEntryRow } from "@qc/db/queries";
import { auditAction, systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { emitEvent } from "../events/emit-event";
import type { JobName, JobPayload } from "../jobs/catalog";
import { entryDetails, loadAddressBookEntryRecord } from "./address-book-entry-record";

const JOB = "address-book.expire-approval" satisfies JobName;
export const APPROVAL_TIMEOUT_REASON = "no approval quorum before the approval deadline";

/** The job that removes an entry still awaiting approval at its deadline, one waiting job per entry. */
export function addressBookApprovalTimeoutJob(
  row: Pick<AddressBookEntryRow, "id" | "tenantId" | "approvalDeadline">,
): [typeof JOB, JobPayload<typeof JOB>, { singletonKey: string; startAfter: Date }] {
  return [
    JOB,
    { tenantId: row.tenantId, entryId: row.id },
    { singletonKey: `address-book-approval-timeout:${row.id}`, startAfter: row.approvalDeadline! },
  ];
}

export type ExpireAddressBookEntryResult =
  { removed: true } | { removed: false; reason: "not awaiting approval" | "not due yet" | "not found" };

/**
 * Job `address-book.expire-approval` (CONTRACT §16): an entry still AWAITING_APPROVAL at its
 * `approvalDeadline` by the service's clock is REMOVED (`removedBy` `system`, the reason "no
 * approval quorum before the approval deadline"), with its audit row and `address_book.entry_removed`
 * event, by one conditional UPDATE in one database transaction: a decision taken at the same moment
 * (under the row lock) either came first, and the entry is no longer waiting, or finds it removed.
 * A run before the deadline (another instance's clock ahead) schedules itself again at the deadline.
 */
export async function expireAddressBookEntry(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; entryId: string },
): Promise<ExpireAddressBookEntryResult> {
  const now = deps.now();
  const actor = systemActor(JOB);
  return deps.db.transaction(async (tx) => {
    const row = await removeWaitingAddressBookEntry(tx, {
      ...input,
      removedAt: now,
      removedBy: actor.id!,
      reason: APPROVAL_TIMEOUT_REASON,
      deadlineBy: now,
    });
    if (row) {
      await auditAction(tx, actor, {
        tenantId: row.tenantId,
        action: "address_book.entry_removed",
        target: { type: "address_book_entry", id: row.id },
        details: { ...entryDetails(row), reason: APPROVAL_TIMEOUT_REASON },
      });
      const entry = await loadAddressBookEntryRecord(tx, row, now);
      await emitEvent(tx, { tenantId: row.tenantId, type: "address_book.entry_removed", aggregateId: row.id, data: { entry } });
      return { removed: true };
    }
    const current = await findAddressBookEntry(tx, input);
    if (!current) return { removed: false, reason: "not found" };
    if (current.status !== "AWAITING_APPROVAL") return { removed: false, reason: "not awaiting approval" };
    await deps.jobs.schedule(tx, ...addressBookApprovalTimeoutJob(current));
    return { removed: false, reason: "not due yet" };
  });
}
