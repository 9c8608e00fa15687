"use client";

import type { AddressBookEntry } from "../../../src/dashboard/router-types";
import { PickOne } from "../../_components/pickers";
import type { useActiveEntriesFor } from "./use-address-book";

/**
 * The new-transfer form's address-book picker (CONTRACT §16): the ACTIVE entries for the
 * source's network (and asset, for an entry limited to some), by label. Picking one fills the
 * destination, which stays a field of its own to type any address into; `picked` is the entry the
 * destination now is, if any.
 */
export function AddressBookPicker({
  book: { query, entries },
  picked,
  onPick,
}: {
  book: ReturnType<typeof useActiveEntriesFor>;
  picked: AddressBookEntry | undefined;
  onPick: (address: string) => void;
}) {
  return (
    <PickOne
      label="From the address book"
      options={entries.map((entry) => ({ value: entry.id, label: `${entry.label} · ${entry.address}` }))}
      value={picked?.id ?? ""}
      onPick={(id) => {
        const entry = entries.find((candidate) => candidate.id === id);
        if (entry) onPick(entry.address);
      }}
      placeholder={entries.length ? "Choose an entry, or type an address below…" : "No entries"}
      disabled={entries.length === 0}
      hint={
        query.data && entries.length === 0 ? (
          <>
            No <code>ACTIVE</code> entry for this network and asset: type the address below, or add one on the{" "}
            <a href="/address-book">Address book</a> page.
          </>
        ) : (
          "Optional: fills the destination below."
        )
      }
    />
  );
}
