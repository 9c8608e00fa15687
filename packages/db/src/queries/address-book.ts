import type { AddressBookEntryStatus } from "@qc/domain";
import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { approvalKeys } from "../schema/approvals";
import { addressBookApprovals, addressBookEntries, addressBookSettings } from "../schema/address-book";
import { users } from "../schema/identity";
import { approvalStandingColumns, type ApprovalStanding } from "./transaction-approvals";

export type AddressBookEntryRow = typeof addressBookEntries.$inferSelect;
export type AddressBookApprovalRow = typeof addressBookApprovals.$inferSelect;
export type AddressBookSettingsRow = typeof addressBookSettings.$inferSelect;
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
    createdAt: Date;
    createdBy: string;
    createdByUserId: string | null;
  } & (
    | { status: "PENDING"; activatesAt: Date }
    | { status: "AWAITING_APPROVAL"; approvalGroupId: string; approvalQuorum: number; approvalDeadline: Date }
  ),
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
    case "AWAITING_APPROVAL":
      return eq(t.status, "AWAITING_APPROVAL");
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

/** The tenant's entry locked FOR UPDATE until the transaction ends (a decision on it, its timeout). */
export async function lockAddressBookEntry(
  db: Executor,
  params: { tenantId: string; entryId: string },
): Promise<AddressBookEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(addressBookEntries)
    .where(and(eq(addressBookEntries.id, params.entryId), eq(addressBookEntries.tenantId, params.tenantId)))
    .for("update");
  return row;
}

/**
 * AWAITING_APPROVAL → PENDING with `activates_at` (its quorum met at `approvedAt`): one conditional
 * UPDATE; undefined when the entry is no longer waiting.
 */
export async function approveAddressBookEntry(
  db: Executor,
  params: { tenantId: string; entryId: string; approvedAt: Date; activatesAt: Date },
): Promise<AddressBookEntryRow | undefined> {
  const t = addressBookEntries;
  const [row] = await db
    .update(t)
    .set({ status: "PENDING", approvedAt: params.approvedAt, activatesAt: params.activatesAt })
    .where(and(eq(t.id, params.entryId), eq(t.tenantId, params.tenantId), eq(t.status, "AWAITING_APPROVAL")))
    .returning();
  return row;
}

/**
 * AWAITING_APPROVAL → REMOVED with why (a rejection; the timeout, only once `approval_deadline` ≤
 * `deadlineBy` when given): one conditional UPDATE; undefined when the entry is no longer waiting
 * (or not due).
 */
export async function removeWaitingAddressBookEntry(
  db: Executor,
  params: { tenantId: string; entryId: string; removedAt: Date; removedBy: string; reason: string; deadlineBy?: Date },
): Promise<AddressBookEntryRow | undefined> {
  const t = addressBookEntries;
  const [row] = await db
    .update(t)
    .set({ status: "REMOVED", removedAt: params.removedAt, removedBy: params.removedBy, removalReason: params.reason })
    .where(
      and(
        eq(t.id, params.entryId),
        eq(t.tenantId, params.tenantId),
        eq(t.status, "AWAITING_APPROVAL"),
        params.deadlineBy ? lte(t.approvalDeadline, params.deadlineBy) : undefined,
      ),
    )
    .returning();
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

/** A member's decision on an entry; undefined when the member already decided on it (one each: the unique index). */
export async function insertAddressBookApproval(
  db: Executor,
  values: typeof addressBookApprovals.$inferInsert,
): Promise<AddressBookApprovalRow | undefined> {
  const [row] = await db
    .insert(addressBookApprovals)
    .values(values)
    .onConflictDoNothing({ target: [addressBookApprovals.entryId, addressBookApprovals.userId] })
    .returning();
  return row;
}

/** A decision on an entry with its standing now (its key, whether its member was removed, their groups now). */
export interface AddressBookApprovalWithStanding extends AddressBookApprovalRow, ApprovalStanding {}

/** Every decision on the tenant's entry, oldest first, each with its standing: what counting its quorum and its record read. */
export async function findAddressBookApprovals(
  db: Executor,
  params: { tenantId: string; entryId: string },
): Promise<AddressBookApprovalWithStanding[]> {
  const a = addressBookApprovals;
  return db
    .select({ ...getTableColumns(a), ...approvalStandingColumns(a) })
    .from(a)
    .innerJoin(users, eq(users.id, a.userId))
    .leftJoin(approvalKeys, eq(approvalKeys.id, a.keyId))
    .where(and(eq(a.tenantId, params.tenantId), eq(a.entryId, params.entryId)))
    .orderBy(asc(a.decidedAt), asc(a.id));
}

/**
 * The tenant's address-book settings (undefined: never set, additions need no approval); `lock`
 * holds the row until the transaction ends.
 */
export async function findAddressBookSettings(
  db: Executor,
  params: { tenantId: string; lock?: "share" | "update" },
): Promise<AddressBookSettingsRow | undefined> {
  const query = db.select().from(addressBookSettings).where(eq(addressBookSettings.tenantId, params.tenantId));
  const [row] = await (params.lock ? query.for(params.lock) : query);
  return row;
}

/** Writes the tenant's settings (one row per tenant). */
export async function upsertAddressBookSettings(
  db: Executor,
  params: { tenantId: string; approvalGroupId: string | null; approvalQuorum: number | null; updatedAt: Date },
): Promise<AddressBookSettingsRow> {
  const [row] = await db
    .insert(addressBookSettings)
    .values(params)
    .onConflictDoUpdate({
      target: addressBookSettings.tenantId,
      set: { approvalGroupId: params.approvalGroupId, approvalQuorum: params.approvalQuorum, updatedAt: params.updatedAt },
    })
    .returning();
  return row!;
}

/** The decisions on the tenant's entries among `entryIds`, oldest first, by entry. */
export async function listAddressBookDecisions(
  db: Executor,
  params: { tenantId: string; entryIds: readonly string[] },
): Promise<Map<string, AddressBookApprovalRow[]>> {
  const byEntry = new Map<string, AddressBookApprovalRow[]>();
  if (params.entryIds.length === 0) return byEntry;
  const a = addressBookApprovals;
  const rows = await db
    .select()
    .from(a)
    .where(and(eq(a.tenantId, params.tenantId), inArray(a.entryId, [...params.entryIds])))
    .orderBy(asc(a.decidedAt), asc(a.id));
  for (const row of rows) byEntry.set(row.entryId, [...(byEntry.get(row.entryId) ?? []), row]);
  return byEntry;
}
