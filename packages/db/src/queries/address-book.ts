import type { AddressBookEntryStatus } from "@qc/domain";
import { and, desc, eq, gt, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { addressBookEntries } from "../schema/address-book";

export type AddressBookEntryRow = typeof addressBookEntries.$inferSelect;
type NetworkCode = AddressBookEntryRow["networkCode"];

/*
 * The tenant's address book (CONTRACT §16). Every statement names the tenant. An entry is in the
 * book exactly when `activates_at <= at` and `removed_at is null`, `at` being the caller's clock:
 * ACTIVE is never stored.
 */

/** A new entry; the partial unique index refuses a second one of a listed (network, address): 23505. */
export async function insertAddressBookEntry(
  db: Executor,
  params: {
    tenantId: string;
    networkCode: NetworkCode;
    address: string;
    label: string;
    assetIds: string[] | null;
    activatesAt: Date;
    createdAt: Date;
    createdBy: string;
  },
): Promise<AddressBookEntryRow> {
  const [row] = await db.insert(addressBookEntries).values(params).returning();
  return row!;
}

/** The rows whose status at `at` is `status` (all when undefined). */
function statusAt(status: AddressBookEntryStatus | undefined, at: Date) {
  const t = addressBookEntries;
  switch (status) {
    case undefined:
      return undefined;
    case "REMOVED":
      return eq(t.status, "REMOVED");
    case "ACTIVE":
      return and(eq(t.status, "PENDING"), lte(t.activatesAt, at));
    case "PENDING":
      return and(eq(t.status, "PENDING"), gt(t.activatesAt, at));
  }
}

/** The tenant's entries, newest first (CONTRACT §1), before `beforeId` when given; `limit` rows at most. */
export function listAddressBookEntryRows(
  db: Executor,
  params: { tenantId: string; status?: AddressBookEntryStatus | undefined; at: Date; limit: number; beforeId?: string | undefined },
): Promise<AddressBookEntryRow[]> {
  const t = addressBookEntries;
  return db
    .select()
    .from(t)
    .where(
      and(eq(t.tenantId, params.tenantId), statusAt(params.status, params.at), params.beforeId ? lt(t.id, params.beforeId) : undefined),
    )
    .orderBy(desc(t.id))
    .limit(params.limit);
}

/** The tenant's entry; undefined for an unknown id or another tenant's. */
export async function findAddressBookEntry(
  db: Executor,
  params: { tenantId: string; entryId: string },
): Promise<AddressBookEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(addressBookEntries)
    .where(and(eq(addressBookEntries.id, params.entryId), eq(addressBookEntries.tenantId, params.tenantId)));
  return row;
}

/** Removes the entry if it is not removed yet (one conditional UPDATE); undefined when it was, or is not the tenant's. */
export async function removeAddressBookEntry(
  db: Executor,
  params: { tenantId: string; entryId: string; removedAt: Date; removedBy: string },
): Promise<AddressBookEntryRow | undefined> {
  const t = addressBookEntries;
  const [row] = await db
    .update(t)
    .set({ status: "REMOVED", removedAt: params.removedAt, removedBy: params.removedBy })
    .where(and(eq(t.id, params.entryId), eq(t.tenantId, params.tenantId), isNull(t.removedAt)))
    .returning();
  return row;
}

/**
 * The entry that puts `address` in the tenant's book at `at` for a transfer of `assetId` on
 * `networkCode`: active (`activates_at <= at`), not removed, and either for every asset or
 * listing this one. At most one row can be listed per (network, address) (the partial unique
 * index, which also serves this read).
 */
export async function findActiveAddressBookEntry(
  db: Executor,
  params: { tenantId: string; networkCode: NetworkCode; address: string; assetId: string; at: Date },
): Promise<Pick<AddressBookEntryRow, "id" | "label"> | undefined> {
  const t = addressBookEntries;
  const [row] = await db
    .select({ id: t.id, label: t.label })
    .from(t)
    .where(
      and(
        eq(t.tenantId, params.tenantId),
        eq(t.networkCode, params.networkCode),
        eq(t.address, params.address),
        isNull(t.removedAt),
        lte(t.activatesAt, params.at),
        or(isNull(t.assetIds), sql`${params.assetId}::uuid = any(${t.assetIds})`),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Records that `address_book.entry_activated` is being sent for the entry: one conditional UPDATE
 * that only an entry active at `at`, not removed and not announced yet passes, so of any number
 * of runs (on any instance) exactly one gets the row back and sends the event.
 */
export async function markAddressBookEntryAnnounced(
  db: Executor,
  params: { tenantId: string; entryId: string; at: Date },
): Promise<AddressBookEntryRow | undefined> {
  const t = addressBookEntries;
  const [row] = await db
    .update(t)
    .set({ activationAnnouncedAt: params.at })
    .where(
      and(
        eq(t.id, params.entryId),
        eq(t.tenantId, params.tenantId),
        isNull(t.removedAt),
        isNull(t.activationAnnouncedAt),
        lte(t.activatesAt, params.at),
      ),
    )
    .returning();
  return row;
}
