import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
    /**
     * The row's place in its tenant's hash chain (CONTRACT §19): `sequence` 1, 2, 3, … without
     * gaps, `prevHash` the previous row's `hash` (64 zeros for the first), `hash` the SHA-256 of
     * the row's canonical JSON. Null until the row is sealed: writers only insert (no lock, no
     * extra round trip on any hot path); the sealer (packages/core/src/audit/seal-audit-chain.ts)
     * chains a tenant's unsealed rows under the tenant's head row lock, and the append-only
     * trigger (migration 0018) lets an UPDATE fill these three columns once and change nothing
     * else. Rows without a tenant (refusals naming none) are never chained.
     */
    sequence: bigint("sequence", { mode: "number" }),
    prevHash: text("prev_hash"),
    hash: text("hash"),
  },
  (t) => [
    index("audit_events_tenant_created_idx").on(t.tenantId, t.id),
    index("audit_events_action_idx").on(t.action),
    uniqueIndex("audit_events_tenant_sequence_idx").on(t.tenantId, t.sequence),
    /** What the sealer reads: a tenant's rows not yet chained, in id (time) order. */
    index("audit_events_unsealed_idx")
      .on(t.tenantId, t.id)
      .where(sql`sequence is null and tenant_id is not null`),
  ],
);

/**
 * Each tenant's chain head (CONTRACT §19): the last sealed row's `sequence` and `hash`. The
 * sealer locks this row (`for update`) for the whole seal, so two sealers never fork the chain
 * or leave a gap; writers of audit rows never touch it.
 */
export const auditChainHeads = pgTable("audit_chain_heads", {
  tenantId: uuid("tenant_id").primaryKey(),
  sequence: bigint("sequence", { mode: "number" }).notNull().default(0),
  hash: text("hash").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Signed checkpoints of a tenant's chain (CONTRACT §19): `{tenantId, sequence, hash, signedAt}`
 * signed with the audit key `keyId` (ML-DSA-87, context `QUANTUM-AUDIT-v1`, over keccak256 of
 * the checkpoint's RFC 8785 JSON). Append-only like the rows they sign.
 */
export const auditCheckpoints = pgTable(
  "audit_checkpoints",
  {
    id: id(),
    tenantId: uuid("tenant_id").notNull(),
    sequence: bigint("sequence", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true, precision: 3 }).notNull(),
    keyId: text("key_id").notNull(),
    signature: text("signature").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("audit_checkpoints_tenant_sequence_idx").on(t.tenantId, t.sequence)],
);

/**
 * The service's audit signing keys (ML-DSA-87). One ACTIVE key signs new checkpoints; a RETIRED
 * key signs nothing more, and stays here (public key and id) so every checkpoint it signed stays
 * verifiable. The secret key is sealed at rest with the service's secret box, like webhook
 * signing keys.
 */
export const auditKeys = pgTable(
  "audit_keys",
  {
    id: id(),
    keyId: text("key_id").notNull().unique(),
    publicKey: text("public_key").notNull(),
    secretKeyCiphertext: text("secret_key_ciphertext").notNull(),
    status: text("status").notNull().default("ACTIVE"), // "ACTIVE" | "RETIRED"
    createdAt: createdAt(),
    retiredAt: timestamp("retired_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    /** At most one ACTIVE key: two processes creating the first key race on this index, one wins. */
    uniqueIndex("audit_keys_one_active_idx")
      .on(t.status)
      .where(sql`status = 'ACTIVE'`),
  ],
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

/**
 * Leases: at most one holder of a named piece of work across daemon instances (e.g. a network's
 * confirmation watcher), judged by the database's clock so every instance agrees. A holder renews
 * its lease while it works; a killed holder's lease runs out and another instance takes it. Plain
 * rows, so they work through any connection pooler (a session advisory lock does not).
 */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
