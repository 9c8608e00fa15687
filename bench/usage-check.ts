/**
 * A transfer's policy check against the size of the tenant's history (issue 33): the dry run
 * (`evaluatePolicy`, what the checks decide for a transfer: the intent's reads, the policy read,
 * one 24-hour TENANT velocity window from the usage buckets) for a tenant with 1,000 transfers in
 * the window and for one with 1,000,000, in the same database and the same run. Beside it, the
 * sum the checks ran before the buckets (the window's transactions summed in SQL, served by
 * `transactions_tenant_created_idx`) at the same sizes: the baseline the flatness is read against.
 *
 * The history is inserted with generate_series (a tenant's transfers spread over the day, one in
 * ten ended without moving value), then its buckets filled as migration 0010 fills them; the rows
 * are vacuumed and analysed as autovacuum would have. Each variant runs sequentially (one call in
 * flight: a latency, not a throughput) for BENCH_SECONDS per round, rounds alternating.
 *
 *   ./qc exec tsx bench/usage-check.ts
 *   BENCH_ROWS=1000,100000,1000000 BENCH_ROUNDS=5 ./qc exec tsx bench/usage-check.ts
 *
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL. Writes
 * bench/results/usage-check-<time>.json.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { evaluatePolicy, nativeAssetId } from "@qc/core";
import { createDatabase, schema, sql } from "@qc/db";
import { insertPolicyVersion } from "@qc/db/queries";
import { benchTenant } from "./api-setup";
import { benchDatabase } from "./database";
import { median } from "./rounds";

const sizes = (process.env.BENCH_ROWS ?? "1000,1000000").split(",").map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const DAY = 86_400_000;
const asset = nativeAssetId("QUANTUM_SANDBOX");
// The transfer being decided: late in a UTC day, its history spread over that day's hours.
const dayStart = Date.UTC(2026, 10, 25);
const at = new Date(dayStart + DAY - 60_000);

/** Median ms per call of `fn`, called one after another for `seconds` (at least 5 calls). */
async function latency(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (times.length < 5 || performance.now() < until) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

const bench = await benchDatabase("qc-bench-usage");
try {
  const database = createDatabase({ url: bench.url });
  const { db } = database;
  const tenants: { rows: number; tenantId: string; walletId: string }[] = [];
  for (const rows of sizes) {
    const { tenantId } = await benchTenant(db, randomBytes(32));
    const address = `0x${randomBytes(20).toString("hex")}`;
    const vault = await db.execute<{ id: string }>(
      sql`insert into vaults (id, tenant_id, network_code, name) values (gen_random_uuid(), ${tenantId}, 'QUANTUM_SANDBOX', 'bench') returning id`,
    );
    const vaultId = vault.rows[0]!.id;
    const wallet = await db.execute<{ id: string }>(
      sql`insert into wallets (id, tenant_id, vault_id, type, address, public_key)
          values (gen_random_uuid(), ${tenantId}, ${vaultId}, 'REGISTERED', ${address}, '0xab') returning id`,
    );
    const walletId = wallet.rows[0]!.id;
    await db.execute(
      sql`insert into wallet_network_links (id, tenant_id, wallet_id, network_code, vault_id)
          values (gen_random_uuid(), ${tenantId}, ${walletId}, 'QUANTUM_SANDBOX', ${vaultId})`,
    );
    const started = performance.now();
    await db.execute(sql`
      insert into transactions (id, tenant_id, network_code, chain_id, source_wallet_id, source_address, destination_address,
        asset_id, amount, status, required_confirmations, created_at, updated_at)
      select gen_random_uuid(), ${tenantId}, 'QUANTUM_SANDBOX', 20804, ${walletId}, ${address}, '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
        ${asset}, 1000 + g, (case when g % 10 = 0 then 'BLOCKED' else 'COMPLETED' end)::transaction_status, 1,
        ${new Date(dayStart).toISOString()}::timestamptz + (g::bigint * ${DAY - 120_000} / ${rows}) * interval '1 millisecond',
        ${at.toISOString()}::timestamptz
      from generate_series(1, ${rows}) g`);
    // The buckets of that history, as migration 0010 fills them for stored transactions, each in
    // the shard its transaction's id picks (as the create's upsert does since migration 0021).
    await db.execute(sql`
      insert into usage_buckets (tenant_id, scope, scope_id, asset_id, hour, shard, count, amount)
      select t.tenant_id, s.scope, s.scope_id, s.asset_id, date_trunc('hour', t.created_at, 'UTC'),
        (get_byte(uuid_send(t.id), 15) % ${sql.raw(String(schema.USAGE_SHARDS))})::smallint, count(*)::int, sum(s.amount)
      from transactions t
      cross join lateral (values
        ('TENANT', t.tenant_id, '00000000-0000-0000-0000-000000000000'::uuid, 0::numeric),
        ('TENANT', t.tenant_id, t.asset_id, t.amount),
        ('VAULT', ${vaultId}::uuid, t.asset_id, t.amount),
        ('WALLET', t.source_wallet_id, t.asset_id, t.amount)
      ) as s (scope, scope_id, asset_id, amount)
      where t.tenant_id = ${tenantId} and t.status <> 'BLOCKED'
      group by 1, 2, 3, 4, 5, 6`);
    await insertPolicyVersion(db, {
      tenantId,
      document: {
        defaultAction: "ALLOW",
        rules: [
          {
            id: "day",
            name: "24 h",
            action: "BLOCK",
            match: {},
            velocity: { amount: (10n ** 30n).toString(), windowSeconds: 86_400, scope: "TENANT" },
          },
        ],
      },
      createdBy: null,
      createdAt: at,
    });
    process.stderr.write(`[bench] ${rows} rows of history in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    tenants.push({ rows, tenantId, walletId });
  }
  await db.execute(sql`vacuum analyze transactions`);
  await db.execute(sql`vacuum analyze usage_buckets`);

  const deps = { db, now: () => at };
  const variants: Record<string, (tenant: (typeof tenants)[number]) => Promise<unknown>> = {
    // What the checks run now.
    "policy check (buckets)": async ({ tenantId, walletId }) => {
      const decision = await evaluatePolicy(deps, {
        tenantId,
        networkCode: "QUANTUM_SANDBOX",
        sourceWalletId: walletId,
        destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
        assetId: asset,
        amount: "1",
      });
      if (decision.decision !== "ALLOW") throw new Error(`unexpected decision ${decision.decision}`);
    },
    // The velocity sum the checks ran before the buckets (the same window, the same scope).
    "window sum over the transactions (before)": ({ tenantId }) =>
      db.execute(sql`
        select count(*)::int, coalesce(sum(amount) filter (where asset_id = ${asset}), 0)::text
        from transactions
        where tenant_id = ${tenantId} and created_at >= ${new Date(at.getTime() - DAY).toISOString()}
          and created_at <= ${at.toISOString()}
          and status not in ('BLOCKED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED')`),
  };
  for (const run of Object.values(variants)) for (const tenant of tenants) await run(tenant); // warm-up
  const ms: Record<string, Record<number, number[]>> = {};
  for (let round = 0; round < rounds; round++)
    for (const [name, run] of Object.entries(variants))
      for (const tenant of tenants) ((ms[name] ??= {})[tenant.rows] ??= []).push(await latency(() => run(tenant)));

  const smallest = Math.min(...sizes);
  const figures = Object.fromEntries(
    Object.entries(ms).map(([name, bySize]) => [
      name,
      Object.fromEntries(
        Object.entries(bySize).map(([rows, values]) => [
          rows,
          { msPerCall: median(values), rounds: values, overSmallest: median(values) / median(bySize[smallest]!) },
        ]),
      ),
    ]),
  );
  const result = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, load: loadavg()[0] },
    rounds,
    seconds,
    figures,
  };
  console.log(`${rounds} rounds × ${seconds} s per variant and size, one call in flight, load ${loadavg()[0]!.toFixed(1)}`);
  console.log("variant".padEnd(44), "rows".padStart(9), "ms/call".padStart(9), `÷ at ${smallest}`.padStart(12), "  rounds (ms)");
  for (const [name, bySize] of Object.entries(figures))
    for (const [rows, f] of Object.entries(bySize))
      console.log(
        name.padEnd(44),
        rows.padStart(9),
        f.msPerCall.toFixed(3).padStart(9),
        f.overSmallest.toFixed(2).padStart(12),
        `  ${f.rounds.map((x) => x.toFixed(3)).join(", ")}`,
      );
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/usage-check-${Date.now()}.json`, import.meta.url), JSON.stringify(result, null, 2));
  await database.close();
} finally {
  await bench.dispose();
}
