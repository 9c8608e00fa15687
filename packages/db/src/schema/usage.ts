import { sql } from "drizzle-orm";
import { check, integer, numeric, pgTable, primaryKey, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity";

/**
 * The scopes usage is kept for: the policy's velocity scopes (the source wallet, the vault it is
 * placed in on the transfer's network, the whole tenant); the daily quotas read the tenant's.
 */
export const USAGE_SCOPES = ["TENANT", "VAULT", "WALLET"] as const;
export type UsageScope = (typeof USAGE_SCOPES)[number];

/**
 * The asset id of the rows that count a scope's transactions of every asset (the daily quota's
 * count, contract deployments included): the nil UUID, which no asset has.
 */
export const EVERY_ASSET = "00000000-0000-0000-0000-000000000000";

/**
 * Each (scope, asset, hour) is kept in this many rows, a transaction counting into the one its
 * id picks (`usageShardOf`), and read as their sum: a tenant's concurrent creates then rarely
 * wait for each other's row locks (docs/decisions/usage-buckets.md, "Shards"). Changing it needs
 * no migration for the sums (every row of a key is summed, whatever its shard), but a transaction
 * counted before the change is released into the shard the new count picks, which may be another
 * row of its key: that row can go below zero while the key's sum stays exact.
 */
export const USAGE_SHARDS = 4;

/**
 * What a scope moved in one UTC hour (docs/decisions/usage-buckets.md): the transactions created
 * in that hour that have not ended without moving value, counted and summed, per scope and asset.
 * +1 and +amount in the statement that creates a transaction, −1 and −amount in the transition
 * that ends it without moving value, so the velocity windows and daily quotas read at most one
 * row per hour of their window instead of every transaction in it.
 */
export const usageBuckets = pgTable(
  "usage_buckets",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    scope: text("scope").$type<UsageScope>().notNull(),
    /** The tenant's, the vault's or the wallet's id. */
    scopeId: uuid("scope_id").notNull(),
    /** The asset, or EVERY_ASSET (a count of every transaction of the scope). */
    assetId: uuid("asset_id").notNull(),
    /** The hour's start, UTC. */
    hour: timestamp("hour", { withTimezone: true, precision: 3 }).notNull(),
    /** Which of the key's USAGE_SHARDS rows this is (picked by the transaction's id); read summed. */
    shard: smallint("shard").notNull().default(0),
    count: integer("count").notNull(),
    amount: numeric("amount", { precision: 78, scale: 0 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.scope, t.scopeId, t.assetId, t.hour, t.shard] }),
    check("usage_buckets_scope_known", sql`${t.scope} in ('TENANT', 'VAULT', 'WALLET')`),
    check("usage_buckets_hour_start", sql`${t.hour} = date_trunc('hour', ${t.hour}, 'UTC')`),
  ],
);
