import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * The service's own operators (the operators' console): people who run the deployment, not
 * users of a tenant. They see every queue and daemon but no tenant's data, and a tenant user
 * can never become one: the tables, the cookie and the procedure tier are separate. Created
 * only from the command line (scripts/create-operator.ts).
 */
export const operators = pgTable(
  "operators",
  {
    id: id(),
    /** Lower-cased at the boundary; one operator per address. */
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash").notNull(),
    disabledAt: ts("disabled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("operators_email_unique").on(t.email)],
);

/** Console sessions: `qo_` + 64 hex, stored as SHA-256 only; 8 h sliding. */
export const operatorSessions = pgTable(
  "operator_sessions",
  {
    id: id(),
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    lastSeenAt: ts("last_seen_at").notNull(),
    revokedAt: ts("revoked_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("operator_sessions_token_hash_unique").on(t.tokenHash), index("operator_sessions_operator_idx").on(t.operatorId)],
);

/**
 * An operator's WebAuthn credentials, the console's second factor (CONTRACT §14: "operators'
 * console logins follow the same rule with their own setting"). The same columns as a member's
 * `passkeys`, owned by an operator instead of a tenant's user; core verifies both with one code
 * path (packages/core/src/passkeys/ceremony.ts).
 */
export const operatorPasskeys = pgTable(
  "operator_passkeys",
  {
    id: id(),
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id),
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [
    uniqueIndex("operator_passkeys_credential_id_unique").on(t.credentialId),
    index("operator_passkeys_operator_idx").on(t.operatorId),
  ],
);

/** The console's WebAuthn challenges: single use, short-lived, as `webauthn_challenges`. */
export const operatorWebauthnChallenges = pgTable(
  "operator_webauthn_challenges",
  {
    id: id(),
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id),
    purpose: text("purpose").notNull(),
    challenge: text("challenge").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("operator_webauthn_challenges_operator_idx").on(t.operatorId),
    check("operator_webauthn_challenges_purpose_known", sql`${t.purpose} in ('REGISTER', 'LOGIN')`),
  ],
);

/**
 * The service-wide operators' settings: one row (`id` is always true). `require_operator_passkey`:
 * console logins need a passkey after the password.
 */
export const operatorSettings = pgTable(
  "operator_settings",
  {
    id: boolean("id").primaryKey().default(true),
    requireOperatorPasskey: boolean("require_operator_passkey").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check("operator_settings_one_row", sql`${t.id}`)],
);
