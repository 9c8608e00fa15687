"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { AddressBookEntry, AddressBookStatus, NetworkCode } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";

/** Whether an entry listed as PENDING is past its activation time: the service shows it as ACTIVE by now. */
const overdue = (entries: AddressBookEntry[] | undefined) =>
  (entries ?? []).some((entry) => entry.activatesAt !== null && new Date(entry.activatesAt).getTime() <= Date.now());

/**
 * One status's entries (CONTRACT §16: `GET /v1/address-book?status=`), one page of 200. Read
 * again every 30 s, and every second while a pending entry is past its activation time, so every
 * list shows it moved (the service derives ACTIVE from `activatesAt` and its clock, which may be a
 * moment behind the browser's).
 */
export function useAddressBook(status: AddressBookStatus) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pendingKey = trpc.addressBook.list.queryKey({ status: "PENDING", limit: 200 });
  const query = useQuery({
    ...trpc.addressBook.list.queryOptions({ status, limit: 200 }),
    refetchInterval: () => (overdue(queryClient.getQueryData(pendingKey)?.entries) ? 1_000 : 30_000),
  });
  const entries: AddressBookEntry[] = query.data?.entries ?? [];
  return { query, entries };
}

/** An address as compared: lower case, without 0x (the entries are canonical; what is typed may not be). */
const comparable = (address: string) => address.trim().toLowerCase().replace(/^0x/, "");

/**
 * The entries a transfer of `assetId` on `networkCode` may pick as its destination: ACTIVE ones
 * (only those count as in the book) of that network, not limited to other assets; and
 * `entryFor(address)`, the one a typed address is, if any.
 */
export function useActiveEntriesFor(networkCode: NetworkCode, assetId: string) {
  const { query, entries } = useAddressBook("ACTIVE");
  const usable = entries.filter(
    (entry) => entry.networkCode === networkCode && (!entry.assetIds?.length || entry.assetIds.includes(assetId)),
  );
  const entryFor = (address: string) =>
    address.trim() ? usable.find((entry) => comparable(entry.address) === comparable(address)) : undefined;
  return { query, entries: usable, entryFor };
}

/** Reads every status's list again: after an addition, a removal, or a pending entry's activation. */
export function useInvalidateAddressBook() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: trpc.addressBook.list.queryKey() });
}
