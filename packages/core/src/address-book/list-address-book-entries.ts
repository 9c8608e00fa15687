import { listAddressBookEntryRows } from "@qc/db/queries";
import type { AddressBookEntryStatus } from "@qc/domain";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import {
  findAddressBookEntryOr404,
  loadAddressBookEntryRecord,
  toAddressBookEntryRecords,
  type AddressBookEntryRecord,
} from "./address-book-entry-record";

/** `GET /v1/address-book?status=`: the tenant's entries, newest first, a page at a time (CONTRACT §1); status as of now. */
export async function listAddressBookEntries(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; status?: AddressBookEntryStatus | undefined } & PageRequest,
): Promise<{ entries: AddressBookEntryRecord[]; page: PageInfo }> {
  const now = deps.now();
  const rows = await listAddressBookEntryRows(deps.db, {
    tenantId: input.tenantId,
    status: input.status,
    at: now,
    limit: input.limit + 1,
    beforeId: decodePageCursor(input.cursor),
  });
  const { items, page } = toPage(rows, input.limit);
  return { entries: await toAddressBookEntryRecords(deps.db, input.tenantId, items, now), page };
}

/** `GET /v1/address-book/{id}` with its decisions when it needed approval; another tenant's entry is 404. */
export async function getAddressBookEntry(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; entryId: string },
): Promise<AddressBookEntryRecord> {
  return loadAddressBookEntryRecord(deps.db, await findAddressBookEntryOr404(deps.db, input), deps.now());
}
