import { findAddressBookEntry, markAddressBookEntryAnnounced, type AddressBookEntryRow } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { emitEvent } from "../events/emit-event";
import type { JobName, JobPayload } from "../jobs/catalog";
import { loadAddressBookEntryRecord } from "./address-book-entry-record";

const JOB = "address-book.announce-activation" satisfies JobName;

/** The job that announces an entry's activation, at its `activatesAt`, one waiting job per entry. */
export function addressBookActivationJob(
  row: Pick<AddressBookEntryRow, "id" | "tenantId"> & { activatesAt: Date },
): [typeof JOB, JobPayload<typeof JOB>, { singletonKey: string; startAfter: Date }] {
  return [
    JOB,
    { tenantId: row.tenantId, entryId: row.id },
    { singletonKey: `address-book-activation:${row.id}`, startAfter: row.activatesAt },
  ];
}

export type AnnounceEntryActivationResult =
  { announced: true } | { announced: false; reason: "removed" | "already announced" | "not active yet" | "not found" };

/**
 * Job `address-book.announce-activation`: sends `address_book.entry_activated` for an entry whose
 * `activatesAt` has passed, once, whichever instance runs it and however often. The one conditional
 * UPDATE (`markAddressBookEntryAnnounced`: active at the clock, not removed, not announced) and
 * the event are one database transaction; only the run that gets the row back sends it. A removal
 * before then means no event. A run before `activatesAt` by the service's clock (another
 * instance's clock ahead) schedules itself again at `activatesAt`.
 *
 * The event announces, it decides nothing: a transfer's policy treats the entry as in the book
 * from `activatesAt` whether or not this job has run.
 */
export async function announceEntryActivation(
  deps: Pick<ServiceDeps, "db" | "now" | "jobs">,
  input: { tenantId: string; entryId: string },
): Promise<AnnounceEntryActivationResult> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await markAddressBookEntryAnnounced(tx, { ...input, at: now });
    if (row) {
      const entry = await loadAddressBookEntryRecord(tx, row, now);
      await emitEvent(tx, { tenantId: row.tenantId, type: "address_book.entry_activated", aggregateId: row.id, data: { entry } });
      return { announced: true };
    }
    const current = await findAddressBookEntry(tx, input);
    if (!current) return { announced: false, reason: "not found" };
    if (current.removedAt) return { announced: false, reason: "removed" };
    if (current.activationAnnouncedAt) return { announced: false, reason: "already announced" };
    // Awaiting approval: its quorum schedules the announcement.
    if (!current.activatesAt) return { announced: false, reason: "not active yet" };
    await deps.jobs.schedule(tx, ...addressBookActivationJob({ ...current, activatesAt: current.activatesAt }));
    return { announced: false, reason: "not active yet" };
  });
}
