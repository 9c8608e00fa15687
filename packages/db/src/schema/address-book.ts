import { STORED_ADDRESS_BOOK_ENTRY_STATUSES } from "@qc/domain";
import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { approvalDecision, approvalKeys, approverGroups } from "./approvals";
import { networkCode } from "./custody";
import { tenants, users } from "./identity";
import { createdAt, id, updatedAt } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * CONTRACT §16: the stored words are @qc/domain's; ACTIVE is derived from `activates_at` and the clock.
 * AWAITING_APPROVAL: added while the tenant's additions need a quorum, no `activates_at` until it is met.
 */
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
    /** Null while AWAITING_APPROVAL (and for an entry removed while it waited): its delay starts at its quorum. */
    activatesAt: ts("activates_at"),
    activationAnnouncedAt: ts("activation_announced_at"),
    createdAt: createdAt(),
    /** The actor's id as audited: a member's user id (session) or an API key's public id. */
    createdBy: text("created_by").notNull(),
    /** The member who added it (a session's user, or the member an API key acts for): never its approver. */
    createdByUserId: uuid("created_by_user_id").references(() => users.id),
    removedAt: ts("removed_at"),
    removedBy: text("removed_by"),
    /** Why it was removed when no one deleted it: an approver's rejection (their reason) or the approval timeout. */
    removalReason: text("removal_reason"),
    /**
     * The quorum an addition needed (the tenant's setting when it was added): one approver group and
     * how many of its members; null for an entry added without the setting. Kept with the entry, so
     * turning the setting off or changing it releases no entry already waiting.
     */
    approvalGroupId: uuid("approval_group_id"),
    approvalQuorum: integer("approval_quorum"),
    /** When an entry still AWAITING_APPROVAL is removed (created + APPROVAL_TIMEOUT_SECONDS). */
    approvalDeadline: ts("approval_deadline"),
    /** The instant its quorum was met (then `activates_at` = this + ADDRESS_BOOK_ACTIVATION_SECONDS). */
    approvedAt: ts("approved_at"),
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
    // Only an entry waiting for its quorum (or removed while it waited) has no activation instant.
    // (`status::text`: the migration that adds the enum's value cannot name it as a value yet.)
    check(
      "address_book_entries_activates_at",
      sql`(${t.activatesAt} is not null or ${t.status}::text <> 'PENDING') and (${t.status}::text <> 'AWAITING_APPROVAL' or ${t.activatesAt} is null)`,
    ),
    check(
      "address_book_entries_approval",
      sql`(${t.approvalGroupId} is null) = (${t.approvalQuorum} is null) and (${t.approvalGroupId} is null) = (${t.approvalDeadline} is null) and (${t.status}::text <> 'AWAITING_APPROVAL' or ${t.approvalGroupId} is not null) and (${t.approvalQuorum} is null or ${t.approvalQuorum} >= 1)`,
    ),
  ],
);

/**
 * One member's decision on an address-book entry awaiting approval (CONTRACT §16, decided as §15):
 * for an approval, the ML-DSA-87 signature over the entry's `approvalHash`, verified when given and
 * again when the quorum is counted. One decision per member and entry (the unique index).
 */
export const addressBookApprovals = pgTable(
  "address_book_approvals",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => addressBookEntries.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    decision: approvalDecision("decision").notNull(),
    /** The entry's approver group, when the member was in it: the shape a transfer's decision has. */
    groupIds: uuid("group_ids").array().notNull(),
    keyId: uuid("key_id").references(() => approvalKeys.id),
    approvalHash: text("approval_hash").notNull(),
    signature: text("signature"),
    reason: text("reason"),
    decidedAt: ts("decided_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("address_book_approvals_member_unique").on(t.entryId, t.userId),
    index("address_book_approvals_tenant_entry_idx").on(t.tenantId, t.entryId),
    check("address_book_approvals_signed", sql`(${t.decision} = 'APPROVED') = (${t.keyId} is not null and ${t.signature} is not null)`),
  ],
);

/**
 * The tenant's address-book settings (`PUT /v1/settings/address-book`): whether an addition needs an
 * approver group's quorum. The group is held like a policy holds it: deleting it or shrinking it
 * below the quorum is refused while the setting names it (the foreign key backs the service's 409).
 */
export const addressBookSettings = pgTable(
  "address_book_settings",
  {
    tenantId: uuid("tenant_id")
      .primaryKey()
      .references(() => tenants.id),
    approvalGroupId: uuid("approval_group_id").references(() => approverGroups.id),
    approvalQuorum: integer("approval_quorum"),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "address_book_settings_approval",
      sql`(${t.approvalGroupId} is null) = (${t.approvalQuorum} is null) and (${t.approvalQuorum} is null or ${t.approvalQuorum} >= 1)`,
    ),
  ],
);
