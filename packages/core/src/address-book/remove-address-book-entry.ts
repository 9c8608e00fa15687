import { removeAddressBookEntry as removeAddressBookEntryRow } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { emitEvent } from "../events/emit-event";
import { entryDetails, findAddressBookEntryOr404, loadAddressBookEntryRecord } from "./address-book-entry-record";

/**
 * `DELETE /v1/address-book/{id}` (204, CONTRACT §16): the entry is REMOVED at once — the next
 * policy decision no longer finds it, and a pending activation is never announced. One
 * conditional UPDATE with its audit row and `address_book.entry_removed` event in one database
 * transaction. Removing a removed entry changes nothing and is 204 again; another tenant's is 404.
 */
export async function removeAddressBookEntry(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; entryId: string; actor: Actor },
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const row = await removeAddressBookEntryRow(tx, { ...input, removedAt: now, removedBy: input.actor.id ?? input.actor.type });
    if (!row) {
      await findAddressBookEntryOr404(tx, input); // 404 unless it was removed already
      return;
    }
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "address_book.entry_removed",
      target: { type: "address_book_entry", id: row.id },
      details: entryDetails(row),
    });
    await emitEvent(tx, {
      tenantId: input.tenantId,
      type: "address_book.entry_removed",
      aggregateId: row.id,
      data: { entry: await loadAddressBookEntryRecord(tx, row, now) },
    });
  });
}
