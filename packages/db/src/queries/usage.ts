import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import { defineRead, defineStatement } from "../hot-path/define-query";
import { writeAtCommit } from "../hot-path/pipelined-transaction";
import { transactions } from "../schema/transfers";
import { EVERY_ASSET, USAGE_SHARDS, usageBuckets, type UsageScope } from "../schema/usage";

/*
 * Usage buckets (docs/decisions/usage-buckets.md): per tenant, scope, asset and UTC hour, the
 * count and sum of the transactions created in that hour that have not ended without moving
 * value. Added in the database transaction that creates a transaction (with its COMMIT when it
 * can: `countTransactionUsage`), taken back by the transition that ends it without moving value,
 * in that transition's database transaction; read by the velocity windows
 * and the daily quotas, at most USAGE_SHARDS rows per hour of the window whatever the volume.
 */

/**
 * The shard a transaction counts into: its id's last byte (random in a UUID v7) modulo
 * USAGE_SHARDS, so a tenant's concurrent creates spread over the key's rows.
 */
const usageShardOf = (id: SQL): SQL => sql`(get_byte(uuid_send(${id}), 15) % ${sql.raw(String(USAGE_SHARDS))})::smallint`;

/**
 * The upsert that adds (`sign` 1) or takes back (-1) the usage of the tenant's transactions
 * `transactionIds` names: the tenant's, the source wallet's and its vault's rows for the asset (the
 * vault the wallet is placed in on the transaction's network; placements are never moved or
 * removed, so it is the vault of the creation), none for a row without an asset (a contract
 * deployment), and the tenant's every-asset count. Each goes to the shard the transaction's id
 * picks (`usageShardOf`: the same for its count and its release).
 *
 * One statement per database transaction, its rows grouped by key and sent in the primary key's
 * order: every writer takes the bucket row locks it needs in one global order, so no two writers
 * can each hold a row the other waits for, whatever shards their transactions pick (a batch of
 * transfers counts all its items at once for this reason: `countTransactionUsage`).
 */
const moveUsageStatement = defineStatement("qc_move_transaction_usage", () => {
  const sign = sql`${sql.placeholder("sign")}::int`;
  return sql`insert into ${usageBuckets} (tenant_id, scope, scope_id, asset_id, hour, shard, count, amount)
    select u.tenant_id, s.scope, s.scope_id, s.asset_id, date_trunc('hour', u.created_at, 'UTC') as hour,
      ${usageShardOf(sql`u.id`)} as shard, ${sign} * count(*), ${sign} * sum(s.amount)
    from ${transactions} u
    cross join lateral (values
      ('TENANT', u.tenant_id, ${sql.raw(`'${EVERY_ASSET}'::uuid`)}, 0::numeric),
      ('TENANT', u.tenant_id, u.asset_id, u.amount),
      ('VAULT', (select l.vault_id from wallet_network_links l
                 where l.tenant_id = u.tenant_id and l.wallet_id = u.source_wallet_id and l.network_code = u.network_code),
                u.asset_id, u.amount),
      ('WALLET', u.source_wallet_id, u.asset_id, u.amount)
    ) as s (scope, scope_id, asset_id, amount)
    where u.tenant_id = ${sql.placeholder("tenantId")} and u.id = any(${sql.placeholder("transactionIds")}::uuid[])
      and s.scope_id is not null and s.asset_id is not null
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (tenant_id, scope, scope_id, asset_id, hour, shard) do update
      set count = ${usageBuckets}.count + excluded.count, amount = ${usageBuckets}.amount + excluded.amount`;
});

/**
 * Counts new transactions' usage, in the database transaction that created their rows (the rows
 * must be written first in `tx`), in one statement (`moveUsageStatement`: call it once per
 * database transaction, with every transaction it creates). Sent with that transaction's COMMIT
 * (`writeAtCommit`): the tenant's concurrent creates all add to the same few bucket rows, and each
 * holds their row locks from this statement to its commit, so the statement goes as late as it
 * can, and the creates queue only for the commit itself, not for the rest of their work
 * (docs/performance/create.md).
 */
export async function countTransactionUsage(tx: Executor, key: { tenantId: string; transactionIds: string[] }): Promise<void> {
  if (key.transactionIds.length === 0) return;
  await writeAtCommit(tx, moveUsageStatement.with({ sign: 1, tenantId: key.tenantId, transactionIds: key.transactionIds }));
}

/**
 * Takes a transaction's usage back: for the transition that ends it without moving value, in
 * that transition's database transaction. Conditional transitions move a row once, and a row
 * that has ended never moves again, so this runs once per transaction.
 */
export async function releaseTransactionUsage(db: Executor, key: { tenantId: string; transactionId: string }): Promise<void> {
  await moveUsageStatement.on(db).execute({ sign: -1, tenantId: key.tenantId, transactionIds: [key.transactionId] });
}

export interface UsageWindow {
  tenantId: string;
  scope: UsageScope;
  /** The tenant's, the vault's or the source wallet's id. */
  scopeId: string;
  assetId: string;
  /** The window [from, to): every hour that overlaps it is read whole. */
  from: Date;
  to: Date;
}

/**
 * What the scope moved over the window, read from its hourly buckets: `amount` and `count` of
 * `assetId`, `everyAssetCount` the transactions of every asset (kept for the TENANT scope only;
 * 0 for the others). Every hour that overlaps [from, to) counts whole, so the sums are exact when
 * both ends are on the hour and never below the transactions created in the window otherwise.
 * At most (⌈(to − from) / 1 h⌉ + 1) × USAGE_SHARDS rows per asset key, whatever the volume.
 */
export async function sumUsage(db: Executor, window: UsageWindow): Promise<{ count: number; amount: bigint; everyAssetCount: number }> {
  const [row] = await sumUsageRead.on(db).execute({
    tenantId: window.tenantId,
    scope: window.scope,
    scopeId: window.scopeId,
    assetIds: [window.assetId, EVERY_ASSET],
    assetId: window.assetId,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
  });
  return { count: row?.count ?? 0, amount: BigInt(row?.amount ?? "0"), everyAssetCount: row?.everyAssetCount ?? 0 };
}
const sumUsageRead = defineRead("qc_sum_usage", (db) =>
  db
    .select({
      count: sql<number>`coalesce(sum(${usageBuckets.count}) filter (where ${usageBuckets.assetId} = ${sql.placeholder("assetId")}), 0)::int`,
      amount: sql<string>`coalesce(sum(${usageBuckets.amount}) filter (where ${usageBuckets.assetId} = ${sql.placeholder("assetId")}), 0)::text`,
      everyAssetCount: sql<number>`coalesce(sum(${usageBuckets.count}) filter (where ${usageBuckets.assetId} = ${sql.raw(`'${EVERY_ASSET}'::uuid`)}), 0)::int`,
    })
    .from(usageBuckets)
    .where(
      and(
        eq(usageBuckets.tenantId, sql.placeholder("tenantId")),
        eq(usageBuckets.scope, sql.placeholder("scope")),
        eq(usageBuckets.scopeId, sql.placeholder("scopeId")),
        sql`${usageBuckets.assetId} = any(${sql.placeholder("assetIds")}::uuid[])`,
        gte(usageBuckets.hour, sql`date_trunc('hour', ${sql.placeholder("from")}::timestamptz, 'UTC')`),
        lt(usageBuckets.hour, sql.placeholder("to")),
      ),
    ),
);

/**
 * Deletes up to `limit` buckets of hours before `before` (the purge: no window reaches them).
 * Returns how many went. A transfer ending later than the retention gives its usage back into
 * a row this recreates at its old hour, outside every window; the next purge takes it.
 */
export async function deleteUsageBucketsBefore(db: Executor, params: { before: Date; limit: number }): Promise<number> {
  const result = await db.execute(sql`delete from ${usageBuckets} where ctid in (
    select ctid from ${usageBuckets} where ${usageBuckets.hour} < ${params.before.toISOString()} limit ${params.limit}) returning 1`);
  return result.rows.length;
}
