"use client";

import { useMutation } from "@tanstack/react-query";
import type { AddressBookEntry } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { ADDRESS_BOOK_STATUS_HINTS } from "../../../src/dashboard/vocabulary";
import { DataTable } from "../../_components/data-table";
import { FormError } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { StatusBadge } from "../../_components/status-badge";
import { Time } from "../../_components/time";
import { useAssets } from "../../_components/use-assets";
import { useMemberNames } from "../_approvals/use-member-names";
import { EntryApproval } from "./entry-approval";
import { TimeLeft } from "./time-left";
import { useInvalidateAddressBook } from "./use-address-book";

/** One status's entries: label, address and network, the assets it is limited to, its status (a pending one's time left), who added it. */
export function EntriesTable({
  entries,
  administer,
  onActivated,
}: {
  entries: AddressBookEntry[];
  administer: boolean;
  onActivated: () => void;
}) {
  return (
    <DataTable
      headers={["Label", "Address", "Assets", "Status", "Added", ...(administer ? ["Actions"] : [])]}
      rows={entries}
      rowKey={(entry) => entry.id}
      renderRow={(entry) => <EntryRow entry={entry} administer={administer} onActivated={onActivated} />}
    />
  );
}

function EntryRow({ entry, administer, onActivated }: { entry: AddressBookEntry; administer: boolean; onActivated: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAddressBook();
  const { byId } = useAssets();
  const { nameOf, byId: byUserId } = useMemberNames();
  const remove = useMutation(trpc.addressBook.remove.mutationOptions({ onSuccess: invalidate }));
  const assets = entry.assetIds?.length ? entry.assetIds.map((id) => byId.get(id)?.symbol ?? id).join(", ") : null;
  return (
    <tr data-testid="address-book-row" data-label={entry.label} data-status={entry.status}>
      <th scope="row">{entry.label}</th>
      <td>
        <span className="mono small">{entry.address}</span>
        <div className="small muted">{entry.networkCode}</div>
      </td>
      <td>{assets ?? <span className="muted">any asset</span>}</td>
      <td>
        <span title={ADDRESS_BOOK_STATUS_HINTS[entry.status]}>
          <StatusBadge status={entry.status} />
        </span>
        <div className="small">
          {entry.status === "AWAITING_APPROVAL" && entry.approvals ? (
            <EntryApproval entry={entry} approvals={entry.approvals} />
          ) : entry.status === "PENDING" && entry.activatesAt ? (
            <TimeLeft until={entry.activatesAt} onReached={onActivated} />
          ) : entry.status === "ACTIVE" && entry.activatesAt ? (
            <>
              since <Time at={entry.activatesAt} />
            </>
          ) : entry.removalReason ? (
            <span className="muted">{entry.removalReason}</span>
          ) : null}
        </div>
      </td>
      <td>
        <Time at={entry.createdAt} />
        {/* A member's user id (the dashboard) or an API key's id. */}
        <div className="small muted">by {byUserId.has(entry.createdBy) ? nameOf(entry.createdBy) : `API key ${entry.createdBy}`}</div>
      </td>
      {administer && (
        <td>
          <button
            type="button"
            className="danger small"
            disabled={remove.isPending}
            onClick={() =>
              window.confirm(`Remove ${entry.label} (${entry.address}) from the address book? It stops counting as in the book at once.`) &&
              remove.mutate({ entryId: entry.id })
            }
          >
            Remove {entry.label}
          </button>
          <FormError message={formFailure(remove.error, []).form} />
        </td>
      )}
    </tr>
  );
}
