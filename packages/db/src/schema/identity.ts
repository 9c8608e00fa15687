import {
  ACCOUNT_TYPES,
  KYC_STATUSES,
  MEMBER_ROLES,
  STORED_API_KEY_STATUSES,
  STORED_INVITATION_STATUSES,
  TENANT_STATUSES,
  USER_STATUSES,
} from "@qc/domain";
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const tenantStatus = pgEnum("tenant_status", TENANT_STATUSES);
export const accountType = pgEnum("account_type", ACCOUNT_TYPES);
export const userStatus = pgEnum("user_status", USER_STATUSES);
export const kycStatus = pgEnum("kyc_status", KYC_STATUSES);
export const memberRole = pgEnum("member_role", MEMBER_ROLES);

export const tenants = pgTable("tenants", {
  id: id(),
  name: text("name").notNull(),
  accountType: accountType("account_type").notNull().default("BUSINESS"),
  status: tenantStatus("status").notNull().default("PENDING_VERIFICATION"),
  /** Dashboard logins need a passkey after the password (CONTRACT §14; packages/core/src/passkeys). */
  requirePasskey: boolean("require_passkey").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const users = pgTable(
  "users",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** Lower-cased at the boundary; unique across the service (one login per address). */
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash").notNull(),
    /** The member's one role (CONTRACT §14); no default: signup makes an OWNER, adding a member names the role. */
    role: memberRole("role").notNull(),
    status: userStatus("status").notNull().default("PENDING_EMAIL_VERIFICATION"),
    emailVerifiedAt: ts("email_verified_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), index("users_tenant_idx").on(t.tenantId)],
);

/**
 * Single-use emailed tokens, stored as SHA-256 of the token only: email verification (24 h) and
 * password reset (1 h). A token only ever works for its own purpose.
 */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    purpose: text("purpose").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_tokens_hash_unique").on(t.tokenHash),
    index("email_tokens_user_idx").on(t.userId),
    check("email_tokens_purpose_known", sql`${t.purpose} in ('VERIFY_EMAIL', 'PASSWORD_RESET')`),
  ],
);

export const invitationStatus = pgEnum("invitation_status", STORED_INVITATION_STATUSES);

/**
 * Invitations to join a tenant (CONTRACT §14): the emailed token (32 random bytes, base64url)
 * stored only as its SHA-256, single use, 7 days. EXPIRED is read from `expires_at`, not stored.
 * The person has no user row until they accept, so the token lives here, not in email_tokens.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** Lower-cased at the boundary, like users.email. */
    email: text("email").notNull(),
    role: memberRole("role").notNull(),
    status: invitationStatus("status").notNull().default("PENDING"),
    tokenHash: text("token_hash").notNull(),
    invitedByUserId: uuid("invited_by_user_id").references(() => users.id),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedUserId: uuid("accepted_user_id").references(() => users.id),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_unique").on(t.tokenHash),
    index("invitations_tenant_idx").on(t.tenantId, t.id),
    index("invitations_tenant_email_idx").on(t.tenantId, t.email),
  ],
);

/** Dashboard sessions: `qs_` + 64 hex, stored as SHA-256; 12 h sliding. */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    lastSeenAt: ts("last_seen_at").notNull(),
    revokedAt: ts("revoked_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sessions_token_hash_unique").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

export const apiKeyStatus = pgEnum("api_key_status", STORED_API_KEY_STATUSES);

/**
 * API keys: `qc_` + 32 hex id, 64-hex secret stored only as HMAC-SHA256(pepper, secret).
 * Rotation sets `rotatedAt` and `graceEndsAt` on the old key and links the new one.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    keyId: varchar("key_id", { length: 35 }).notNull(),
    secretHash: text("secret_hash").notNull(),
    label: text("label").notNull(),
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: apiKeyStatus("status").notNull().default("ACTIVE"),
    expiresAt: ts("expires_at"),
    lastUsedAt: ts("last_used_at"),
    rotatedAt: ts("rotated_at"),
    graceEndsAt: ts("grace_ends_at"),
    replacedByKeyId: varchar("replaced_by_key_id", { length: 35 }),
    revokedAt: ts("revoked_at"),
    /** Set when the key arrived over plain HTTP (CONTRACT §10): the dashboard asks for rotation. */
    exposedAt: ts("exposed_at"),
    /** The member who created the key: it acts with that member's current role (CONTRACT §14). */
    createdByUserId: uuid("created_by_user_id")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_key_id_unique").on(t.keyId), index("api_keys_tenant_idx").on(t.tenantId, t.id)],
);

export const ipAllowlistEntries = pgTable(
  "ip_allowlist_entries",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    cidr: text("cidr").notNull(),
    label: text("label").notNull().default(""),
    position: integer("position").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ip_allowlist_tenant_idx").on(t.tenantId)],
);

export const kycCases = pgTable(
  "kyc_cases",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    provider: text("provider").notNull(),
    reference: text("reference").notNull(),
    status: kycStatus("status").notNull().default("PENDING"),
    reason: text("reason"),
    startedAt: ts("started_at").notNull(),
    decidedAt: ts("decided_at"),
  },
  (t) => [uniqueIndex("kyc_cases_reference_unique").on(t.reference), index("kyc_cases_tenant_idx").on(t.tenantId, t.startedAt)],
);

/**
 * Every email the service sends. Sending is a job (email.send) that delivers the row over SMTP;
 * without SMTP_URL (development) the row itself is the dev mailbox shown in the dashboard.
 */
export const emails = pgTable(
  "emails",
  {
    id: id(),
    tenantId: uuid("tenant_id"),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    kind: text("kind").notNull(),
    transport: text("transport"), // "smtp" | "outbox", set when delivered
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: ts("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [index("emails_to_idx").on(t.to, t.createdAt)],
);

/** rate-limiter-flexible's PostgreSQL store (created here, so the library never issues DDL). */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});
