import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity";
import { createdAt, id } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A member's WebAuthn credentials, the dashboard's second factor (CONTRACT §14). The public key is
 * the COSE key @simplewebauthn/server verified at registration, kept as it handed it over
 * (base64url); the counter is the highest signature counter seen, so a cloned authenticator's
 * older counter is refused.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** The credential id as the browser reports it (base64url); unique across the service. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key, base64url. */
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
  (t) => [uniqueIndex("passkeys_credential_id_unique").on(t.credentialId), index("passkeys_user_idx").on(t.tenantId, t.userId)],
);

/**
 * WebAuthn challenges: one per ceremony (registering a passkey, the login's second step), single
 * use (`used_at` set by one conditional UPDATE) and short-lived. A login challenge is issued only
 * after the right password, to that user.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    purpose: text("purpose").notNull(),
    /** The challenge as the options carried it (base64url). */
    challenge: text("challenge").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webauthn_challenges_user_idx").on(t.userId),
    check("webauthn_challenges_purpose_known", sql`${t.purpose} in ('REGISTER', 'LOGIN')`),
  ],
);
