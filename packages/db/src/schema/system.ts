import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { newRowId } from "../ids";

export const id = () =>
  uuid("id")
    .primaryKey()
    .$defaultFn(() => newRowId());
export const createdAt = () => timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();

/**
 * Append-only audit trail. A trigger (sql/001_audit_append_only.sql) makes UPDATE and DELETE
 * fail, so the application can insert but never rewrite history. Values of secrets are
 * never stored: `details` carries only what the action needs to be understood.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: id(),
    tenantId: uuid("tenant_id"),
    actorType: text("actor_type").notNull(), // "anonymous" | "user" | "api_key" | "system" | "provider"
    actorId: text("actor_id"),
    /**
     * The member the actor acted for (CONTRACT §14): a session's user, or the member who created
     * the API key; null for the system, providers and anonymous callers. Kept after the member
     * is removed, so their past actions stay theirs.
     */
    actorUserId: uuid("actor_user_id"),
    action: text("action").notNull(), // e.g. "request.key_material_rejected"
    targetType: text("target_type"),
    targetId: text("target_id"),
    requestId: text("request_id"),
    ip: text("ip"),
    details: jsonb("details")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_tenant_created_idx").on(t.tenantId, t.id), index("audit_events_action_idx").on(t.action)],
);

/**
 * Transactional outbox. Every service writes its domain events here in the same database
 * transaction as the state change; the webhook dispatcher turns them into deliveries.
 */
export const eventOutbox = pgTable(
  "event_outbox",
  {
    seq: bigserial("seq", { mode: "bigint" }).primaryKey(),
    id: uuid("id")
      .notNull()
      .unique()
      .$defaultFn(() => newRowId()),
    tenantId: uuid("tenant_id").notNull(),
    type: text("type").notNull(),
    /** What the event is about ("transaction", "wallet", …) and its id. */
    aggregateType: text("aggregate_type").notNull(),
    aggregateId: text("aggregate_id").notNull(),
    /** 1, 2, 3 … per aggregate, in commit order: receivers order a transaction's events by it. */
    sequence: integer("sequence").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index("event_outbox_undispatched_idx")
      .on(t.seq)
      .where(sql`${t.dispatchedAt} is null`),
    uniqueIndex("event_outbox_aggregate_sequence_unique").on(t.aggregateType, t.aggregateId, t.sequence),
    index("event_outbox_tenant_idx").on(t.tenantId, t.seq),
  ],
);

/** One row per running daemon process, refreshed every few seconds; shown to operators. */
export const daemonHeartbeats = pgTable("daemon_heartbeats", {
  instanceId: text("instance_id").primaryKey(),
  hostname: text("hostname").notNull(),
  pid: integer("pid").notNull(),
  version: text("version").notNull(),
  queues: jsonb("queues").$type<string[]>().notNull(),
  startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull(),
  lastBeatAt: timestamp("last_beat_at", { withTimezone: true, precision: 3 }).notNull(),
  stoppedAt: timestamp("stopped_at", { withTimezone: true, precision: 3 }),
});
