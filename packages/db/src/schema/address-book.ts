import { STORED_ADDRESS_BOOK_ENTRY_STATUSES } from "@qc/domain";
import { sql } from "drizzle-orm";
import { check, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { networkCode } from "./custody";
import { tenants } from "./identity";
import { createdAt, id } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** CONTRACT §16: the stored words are @qc/domain's; ACTIVE is derived from `activates_at` and the clock. */
export const addressBookEntryStatus = pgEnum("address_book_entry_status", STORED_ADDRESS_BOOK_ENTRY_STATUSES);

/**
 * The tenant's address book (CONTRACT §16): destinations a policy rule may match with
 * `destination: "ADDRESS_BOOK" | "NOT_ADDRESS_BOOK"`. An entry counts as in the book exactly when
 * the clock is at or past `activates_at` and it is not removed; `activation_announced_at` only
 * records that `address_book.entry_activated` was sent (once, by the job scheduled at
 * `activates_at`), it decides nothing. A removed entry stays (who removed it, when) and frees its
 * address for a new entry, which starts its own delay.
 */
export const addressBookEntries = pgTable(
  "address_book_entries",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    networkCode: networkCode("network_code").notNull(),
    /** Canonical form (lower-case 0x + 40 hex), so a lookup is one equality. */
    address: text("address").notNull(),
    label: text("label").notNull(),
    /** The assets the entry is limited to; null: every asset of its network. */
    assetIds: uuid("asset_ids").array(),
    status: addressBookEntryStatus("status").notNull().default("PENDING"),
    activatesAt: ts("activates_at").notNull(),
    activationAnnouncedAt: ts("activation_announced_at"),
    createdAt: createdAt(),
    /** The actor's id as audited: a member's user id (session) or an API key's public id. */
    createdBy: text("created_by").notNull(),
    removedAt: ts("removed_at"),
    removedBy: text("removed_by"),
  },
  (t) => [
    index("address_book_entries_tenant_idx").on(t.tenantId, t.id),
    // One entry per address and network that is not removed: 409 ADDRESS_ALREADY_LISTED (1501); also
    // the policy's lookup of a transfer's destination.
    uniqueIndex("address_book_entries_listed_unique")
      .on(t.tenantId, t.networkCode, t.address)
      .where(sql`${t.removedAt} is null`),
    check("address_book_entries_address_canonical", sql`${t.address} ~ '^0x[0-9a-f]{40}$'`),
    check("address_book_entries_label_length", sql`char_length(${t.label}) between 1 and 100`),
    check("address_book_entries_asset_ids_not_empty", sql`${t.assetIds} is null or cardinality(${t.assetIds}) > 0`),
    check(
      "address_book_entries_removed",
      sql`(${t.status} = 'REMOVED') = (${t.removedAt} is not null) and (${t.removedAt} is null) = (${t.removedBy} is null)`,
    ),
  ],
);
