import { ENDED_WITHOUT_TRANSFER } from "@qc/domain";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Executor } from "../client";
import { insertTransactionWithTrail } from "../hot-path/transaction-with-trail";
import { newRowId } from "../ids";
import { assets, tenants, USAGE_SHARDS, vaults, walletNetworkLinks, wallets } from "../schema";
import { useTestDatabase } from "../testing";
import { newTransactionRow, updateTransactionWhereStatus } from "./transactions";
import { countTransactionUsage, releaseTransactionUsage, sumUsage, type UsageWindow } from "./usage";

const HOUR = 3_600_000;
const NATIVE_SANDBOX = "011620ab-6fee-5894-b105-6c22053cf11e";

/** A seeded generator (mulberry32): a failing history is reproduced from the seed the test names. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let r = Math.imul(state ^ (state >>> 15), 1 | state);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { int, pick: <T>(items: readonly T[]): T => items[int(items.length)]!, chance: (p: number) => next() < p };
}

/**
 * The same sums straight from the transactions (what the checks summed before the buckets):
 * created in [from, to), not ended without moving value, in the scope.
 */
async function rawSums(db: Executor, window: UsageWindow): Promise<{ count: number; amount: bigint; everyAssetCount: number }> {
  const inScope =
    window.scope === "WALLET"
      ? sql`t.source_wallet_id = ${window.scopeId}`
      : window.scope === "VAULT"
        ? sql`exists (select 1 from wallet_network_links l where l.wallet_id = t.source_wallet_id
            and l.network_code = t.network_code and l.vault_id = ${window.scopeId})`
        : sql`true`;
  const result = await db.execute<{ count: number; amount: string; every: number }>(sql`
    select count(*) filter (where t.asset_id = ${window.assetId})::int as count,
      coalesce(sum(t.amount) filter (where t.asset_id = ${window.assetId}), 0)::text as amount,
      count(*)::int as every
    from transactions t
    where t.tenant_id = ${window.tenantId} and t.created_at >= ${window.from.toISOString()} and t.created_at < ${window.to.toISOString()}
      and t.status not in (${sql.join(
        ENDED_WITHOUT_TRANSFER.map((s) => sql`${s}`),
        sql`, `,
      )}) and ${inScope}`);
  const row = result.rows[0]!;
  return { count: row.count, amount: BigInt(row.amount), everyAssetCount: window.scope === "TENANT" ? row.every : 0 };
}

describe("usage buckets", () => {
  const t = useTestDatabase();

  /** A tenant with two vaults on the sandbox (wallets a and b in the first, c in the second) and a token besides the native asset. */
  async function custody() {
    const [tenant] = await t.db.insert(tenants).values({ name: "usage" }).returning();
    const tenantId = tenant!.id;
    const vaultIds: string[] = [];
    for (const name of ["first", "second"]) {
      const [vault] = await t.db.insert(vaults).values({ tenantId, networkCode: "QUANTUM_SANDBOX", name }).returning();
      vaultIds.push(vault!.id);
    }
    const sources: { id: string; address: string; vaultId: string }[] = [];
    for (const vaultId of [vaultIds[0]!, vaultIds[0]!, vaultIds[1]!]) {
      const address = `0x${newRowId().replace(/-/g, "").padEnd(40, "0")}`;
      const [wallet] = await t.db
        .insert(wallets)
        .values({ tenantId, vaultId, type: "REGISTERED", address, publicKey: "0x" + "ab".repeat(32) })
        .returning();
      await t.db.insert(walletNetworkLinks).values({ tenantId, walletId: wallet!.id, networkCode: "QUANTUM_SANDBOX", vaultId });
      sources.push({ id: wallet!.id, address, vaultId });
    }
    const [token] = await t.db
      .insert(assets)
      .values({
        tenantId,
        networkCode: "QUANTUM_SANDBOX",
        kind: "TOKEN",
        symbol: "TKN",
        name: "Token",
        decimals: 6,
        contractAddress: "0x" + "cd".repeat(20),
      })
      .returning();
    return { tenantId, vaultIds, sources, assetIds: [NATIVE_SANDBOX, token!.id] };
  }

  interface Creation {
    source: { id: string; address: string };
    assetId: string | null;
    amount: bigint;
    createdAt: Date;
  }

  /**
   * Creates transactions in one database transaction as the create does (each row with its trail),
   * their usage counted in one statement at the end, as a batch counts its items. Returns their ids.
   */
  async function createAll(tenantId: string, creations: Creation[]): Promise<string[]> {
    const rows = creations.map(({ source, assetId, amount, createdAt }) =>
      newTransactionRow(
        {
          tenantId,
          networkCode: "QUANTUM_SANDBOX",
          chainId: 7,
          sourceWalletId: source.id,
          sourceAddress: source.address,
          destinationAddress: assetId ? "0x" + "22".repeat(20) : null,
          assetId,
          amount: amount.toString(),
          requiredConfirmations: 1,
          status: "SUBMITTED",
          ...(assetId ? {} : { type: "CONTRACT_DEPLOY" as const, templateId: "t", constructorArgs: {} }),
        },
        createdAt,
      ),
    );
    await t.db.transaction(async (tx) => {
      for (const row of rows)
        await insertTransactionWithTrail(tx, {
          row,
          history: { id: newRowId(), actorType: "system", actorId: "usage.test" },
          audit: {
            id: newRowId(),
            tenantId,
            actorType: "system",
            actorId: "usage.test",
            action: "transaction.created",
            targetType: "transaction",
            targetId: row.id,
            actorUserId: null,
            requestId: null,
            ip: null,
            details: {},
          },
          event: { id: newRowId(), tenantId, type: "transaction.created", aggregateType: "transaction", aggregateId: row.id, data: {} },
        });
      await countTransactionUsage(tx, { tenantId, transactionIds: rows.map((row) => row.id) });
    });
    return rows.map((row) => row.id);
  }

  async function create(tenantId: string, source: Creation["source"], assetId: string | null, amount: bigint, createdAt: Date) {
    return (await createAll(tenantId, [{ source, assetId, amount, createdAt }]))[0]!;
  }

  /** The native asset's usage of a scope over [from, to) (ms). */
  const nativeUsage = (tenantId: string, scope: UsageWindow["scope"], scopeId: string, [from, to]: [number, number]) =>
    sumUsage(t.db, { tenantId, scope, scopeId, assetId: NATIVE_SANDBOX, from: new Date(from), to: new Date(to) });

  /** Ends a transaction without moving value as the transition step does: the conditional move and the usage taken back, in one transaction. */
  async function end(tenantId: string, transactionId: string, status: (typeof ENDED_WITHOUT_TRANSFER)[number]) {
    await t.db.transaction(async (tx) => {
      const moved = await updateTransactionWhereStatus(tx, { tenantId, transactionId }, ["SUBMITTED", "QUEUED"], { status });
      if (moved) await releaseTransactionUsage(tx, { tenantId, transactionId });
    });
  }

  it("sum exactly what the transactions sum over windows on the hour, and never less over any other window (random histories)", async () => {
    for (const seed of [1, 2, 3, 20261125]) {
      const random = seeded(seed);
      const { tenantId, vaultIds, sources, assetIds } = await custody();
      // A history of 60 transactions over 30 hours, a fifth of them ended without moving value; some moved on first (QUEUED).
      const start = Date.UTC(2026, 10, 24, 22) + random.int(HOUR);
      const ids: string[] = [];
      for (let i = 0; i < 60;) {
        // Alone or in a batch of up to 6 counted in one statement (several of a batch on one bucket row).
        const creations: Creation[] = Array.from({ length: random.chance(0.5) ? 1 : 2 + random.int(5) }, () => {
          const assetId = random.chance(0.1) ? null : random.pick(assetIds);
          const amount = assetId ? BigInt(1 + random.int(1_000_000)) * 10n ** BigInt(random.int(13)) : 0n;
          // Some on the hour to the millisecond: an hour's first instant belongs to it.
          const at = random.chance(0.1) ? start + random.int(30) * HOUR : start + random.int(30 * HOUR);
          return { source: random.pick(sources), assetId, amount, createdAt: new Date(at) };
        });
        ids.push(...(await createAll(tenantId, creations)));
        i += creations.length;
      }
      for (const id of ids) {
        if (random.chance(0.2)) await t.db.execute(sql`update transactions set status = 'QUEUED' where id = ${id}`);
        if (random.chance(0.2)) await end(tenantId, id, random.pick(ENDED_WITHOUT_TRANSFER));
      }
      // Ending twice takes nothing back twice: the move is conditional.
      await end(tenantId, ids[0]!, "CANCELLED");
      await end(tenantId, ids[0]!, "FAILED");
      // A release takes back from the shard its count went to: no row ever goes below zero.
      const negative = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from usage_buckets where tenant_id = ${tenantId} and (count < 0 or amount < 0)`,
      );
      expect(negative.rows[0]!.n, `seed ${seed}`).toBe(0);

      const scopes = [
        { scope: "TENANT" as const, scopeId: tenantId },
        { scope: "VAULT" as const, scopeId: vaultIds[0]! },
        { scope: "VAULT" as const, scopeId: vaultIds[1]! },
        { scope: "WALLET" as const, scopeId: random.pick(sources).id },
      ];
      const firstHour = Math.floor(start / HOUR) * HOUR - HOUR;
      for (let i = 0; i < 40; i++) {
        const window = { ...random.pick(scopes), tenantId, assetId: random.pick(assetIds) };
        // On the hour: [h, h + n hours).
        const from = firstHour + random.int(32) * HOUR;
        const aligned = { ...window, from: new Date(from), to: new Date(from + (1 + random.int(25)) * HOUR) };
        const context = `seed ${seed}, ${JSON.stringify(aligned)}`;
        expect(await sumUsage(t.db, aligned), context).toEqual(await rawSums(t.db, aligned));
        // Anywhere: at least the window's own, and exactly the whole hours it overlaps.
        const anyFrom = firstHour + random.int(32 * HOUR);
        const any = { ...window, from: new Date(anyFrom), to: new Date(anyFrom + 1 + random.int(25 * HOUR)) };
        const buckets = await sumUsage(t.db, any);
        const own = await rawSums(t.db, any);
        const wholeHours = await rawSums(t.db, {
          ...any,
          from: new Date(Math.floor(anyFrom / HOUR) * HOUR),
          to: new Date(Math.ceil(any.to.getTime() / HOUR) * HOUR),
        });
        const anyContext = `seed ${seed}, ${JSON.stringify(any)}`;
        expect(buckets, anyContext).toEqual(wholeHours);
        expect(
          buckets.amount >= own.amount && buckets.count >= own.count && buckets.everyAssetCount >= own.everyAssetCount,
          anyContext,
        ).toBe(true);
      }
    }
  });

  it("reads at most USAGE_SHARDS rows per hour of the window and asset key, whatever the volume", async () => {
    const { tenantId, sources } = await custody();
    const at = Date.UTC(2026, 10, 25, 10, 30);
    for (let i = 0; i < 30; i++) await create(tenantId, sources[0]!, NATIVE_SANDBOX, 5n, new Date(at - i * 120_000));
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from usage_buckets where tenant_id = ${tenantId} and scope = 'TENANT'`,
    );
    // 30 transfers in two hours: per hour, the asset's and the every-asset count, each in at most USAGE_SHARDS rows.
    expect(rows[0]!.n).toBeGreaterThanOrEqual(4);
    expect(rows[0]!.n).toBeLessThanOrEqual(2 * 2 * USAGE_SHARDS);
    expect(await nativeUsage(tenantId, "TENANT", tenantId, [at - 86_400_000, at + 1])).toEqual({
      count: 30,
      amount: 150n,
      everyAssetCount: 30,
    });
  });

  it("lets a tenant's batches and single creates count concurrently on every shard without a deadlock, the sums exact", async () => {
    const { tenantId, sources } = await custody();
    const at = Date.UTC(2026, 10, 25, 14, 10);
    // Each batch's items pick shards at random (their ids); counted one statement per batch, every
    // writer takes the rows in the primary key's order, so none waits for one that waits for it.
    const batch = (size: number) =>
      createAll(
        tenantId,
        Array.from({ length: size }, (_, i) => ({ source: sources[i % 2]!, assetId: NATIVE_SANDBOX, amount: 3n, createdAt: new Date(at) })),
      );
    for (let round = 0; round < 5; round++) await Promise.all([batch(8), batch(8), batch(1), batch(1), batch(8), batch(1)]);
    expect(await nativeUsage(tenantId, "TENANT", tenantId, [at, at + 1])).toEqual({ count: 135, amount: 405n, everyAssetCount: 135 });
    expect(await nativeUsage(tenantId, "WALLET", sources[1]!.id, [at, at + 1])).toEqual({ count: 60, amount: 180n, everyAssetCount: 0 });
  });
});
