import { APPROVAL_DECISIONS } from "@qc/domain";
import { sql } from "drizzle-orm";
import { check, index, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity";
import { createdAt, id, updatedAt } from "./system";
import { transactions } from "./transfers";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** CONTRACT §15: the words are @qc/domain's; the enum only stores them. */
export const approvalDecision = pgEnum("approval_decision", APPROVAL_DECISIONS);

/**
 * Approver groups (CONTRACT §15): named sets of the tenant's members that a policy rule's
 * `approvals: [{groupId, quorum}]` requires. Deleting one deletes its memberships; a policy that
 * still names it fails closed (docs/approvals.md).
 */
export const approverGroups = pgTable(
  "approver_groups",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("approver_groups_tenant_idx").on(t.tenantId, t.id)],
);

/** Who is in an approver group. A removed member's rows are deleted with the removal (CONTRACT §14). */
export const approverGroupMembers = pgTable(
  "approver_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => approverGroups.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("approver_group_members_user_idx").on(t.tenantId, t.userId)],
);

/**
 * A member's approval keys (CONTRACT §15): ML-DSA-87 public keys (hex) enrolled with a proof of
 * possession, held by the member's own signer. Revoked keys stay (`revoked_at`): an auditor still
 * verifies past approvals with them, and they no longer count for anything not yet released.
 */
export const approvalKeys = pgTable(
  "approval_keys",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    publicKey: text("public_key").notNull(),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    index("approval_keys_user_idx").on(t.tenantId, t.userId),
    // An ML-DSA-87 public key is 2,592 bytes (5,186 hex characters): above a btree entry's limit,
    // so the index holds its SHA-256. Enrolled once across the service, whoever enrolled it.
    uniqueIndex("approval_keys_public_key_unique").on(sql`sha256(decode(substr(${t.publicKey}, 3), 'hex'))`),
    check("approval_keys_public_key_hex", sql`length(${t.publicKey}) = 5186 and ${t.publicKey} ~ '^0x[0-9a-f]+$'`),
  ],
);

/**
 * One member's decision on one transaction (CONTRACT §15), with the ML-DSA-87 signature over its
 * `approvalHash` for an approval: the source of truth the release verifies again, and what an
 * auditor verifies offline. One decision per member and transaction (the unique index).
 */
export const transactionApprovals = pgTable(
  "transaction_approvals",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    transactionId: uuid("transaction_id")
      .notNull()
      .references(() => transactions.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    decision: approvalDecision("decision").notNull(),
    /** The required groups the member was in when deciding: the decision counts once for each. */
    groupIds: uuid("group_ids").array().notNull(),
    keyId: uuid("key_id").references(() => approvalKeys.id),
    /** The hash signed (hex): rebuilt from the transaction's fields when the decision was taken. */
    approvalHash: text("approval_hash").notNull(),
    signature: text("signature"),
    reason: text("reason"),
    decidedAt: ts("decided_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("transaction_approvals_member_unique").on(t.transactionId, t.userId),
    index("transaction_approvals_tenant_tx_idx").on(t.tenantId, t.transactionId),
    check("transaction_approvals_signed", sql`(${t.decision} = 'APPROVED') = (${t.keyId} is not null and ${t.signature} is not null)`),
  ],
);
