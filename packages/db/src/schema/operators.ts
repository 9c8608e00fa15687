import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
