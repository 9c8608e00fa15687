"use client";

import type { AddressBookStatus } from "../../../src/dashboard/router-types";
import { ADDRESS_BOOK_ENTRY_STATUSES, ADDRESS_BOOK_STATUS_HINTS } from "../../../src/dashboard/vocabulary";
import { QueryView } from "../../_components/states";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { AddEntry } from "./add-entry";
import { ApprovalSetting } from "./approval-setting";
import { EntriesTable } from "./entries-table";
import { useAddressBook, useInvalidateAddressBook } from "./use-address-book";

const HEADINGS: Record<AddressBookStatus, string> = {
  AWAITING_APPROVAL: "Awaiting approval",
  PENDING: "Pending",
  ACTIVE: "Active",
  REMOVED: "Removed",
};

/**
 * The address book (CONTRACT §16): the destinations the organization trusts. An entry waits
 * PENDING until `activatesAt` (its creation plus the activation delay), then is ACTIVE; only an
 * ACTIVE entry counts as in the book for a policy rule, and the new-transfer form offers only
 * those. Every member reads it; an OWNER or ADMIN adds and removes entries and sets whether
 * additions need an approver group's quorum first (AWAITING_APPROVAL: approved in the signer,
 * rejected here or there).
 */
export default function AddressBookPage() {
  const administer = useSignedInMember().can("administer");
  return (
    <>
      <h1>Address book</h1>
      <p>
        Destinations your organization trusts. A new entry is <code>PENDING</code> for the activation delay, so a leaked key or a hijacked
        session cannot add an address and send to it at once; from its activation time it is <code>ACTIVE</code>. A policy rule whose
        destination is &ldquo;in the address book&rdquo; counts only <code>ACTIVE</code> entries of the transfer&apos;s network (and, for an
        entry limited to some assets, only transfers of those assets); see <a href="/policies">Policies</a>. Removing an entry takes effect
        at once. When your organization requires it, a new entry first waits <code>AWAITING_APPROVAL</code> for an approver group&apos;s
        quorum (approved in the signer: <code>signer approve-entry &lt;entryId&gt;</code>), and its delay starts then.
      </p>
      {ADDRESS_BOOK_ENTRY_STATUSES.map((status) => (
        <EntriesSection key={status} status={status} administer={administer} />
      ))}
      {administer ? (
        <>
          <AddEntry />
          <ApprovalSetting />
        </>
      ) : (
        <p className="notice">An OWNER or ADMIN of your organization adds and removes entries; your role reads them.</p>
      )}
    </>
  );
}

function EntriesSection({ status, administer }: { status: AddressBookStatus; administer: boolean }) {
  const { query } = useAddressBook(status);
  const invalidate = useInvalidateAddressBook();
  const id = `address-book-${status.toLowerCase()}`;
  return (
    <section className="panel" aria-labelledby={id} data-testid={`address-book-${status}`}>
      <h2 id={id}>{HEADINGS[status]}</h2>
      <p className="small muted">
        <code>{status}</code>: {ADDRESS_BOOK_STATUS_HINTS[status]}.
      </p>
      <QueryView
        query={query}
        what={`${HEADINGS[status].toLowerCase()} entries`}
        errorTitle={`Could not load the ${HEADINGS[status].toLowerCase()} entries`}
        empty={(data) => data.entries.length === 0 && `No ${HEADINGS[status].toLowerCase()} entries.`}
      >
        {(data) => <EntriesTable entries={data.entries} administer={administer && status !== "REMOVED"} onActivated={invalidate} />}
      </QueryView>
    </section>
  );
}
