/**
 * What one authenticated vault read costs, layer by layer (issue 15, goal 1), in-process and
 * without HTTP: the vault query through drizzle as the route ran it, the same query through the
 * prepared-statement path the route uses now, and the whole tRPC call the REST dispatch makes
 * (`vaults.get` through the procedure chain: credentials, scope, rate limit, input and output
 * validation, the query), beside the same steps called directly (what tRPC's chain adds). Each variant runs with `BENCH_CONCURRENCY` calls in flight (50, as the
 * HTTP benchmark's connections) in alternating rounds; the figure is the process's CPU time
 * (user + system) per call, which the machine's load changes least.
 *
 *   ./qc exec tsx bench/read-path-layers.ts
 *   BENCH_CALLS=20000 BENCH_ROUNDS=3 ./qc exec tsx bench/read-path-layers.ts
 *
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import {
  createLogger,
  DEFAULT_RATE_LIMITS,
  getVault,
  hasScope,
  ipAllowed,
  serviceConfig,
  vaultRecordSchema,
  type Authenticator,
  type RateLimits,
} from "@qc/core";
import { and, createDatabase, eq, schema } from "@qc/db";
import { findVaultRow } from "@qc/db/queries";
import { benchTenant } from "./api-setup";
import { benchDatabase } from "./database";

/**
 * @qc/api, imported without its types: they pull in trpc-to-openapi's Next adapter typings, whose
 * global `ProcessEnv` would change how every other benchmark in this package type-checks.
 */
interface ApiModule {
  appRouter: unknown;
  createAppDeps(
    options: Record<string, unknown>,
  ): Promise<{ authenticator: Authenticator; rateLimits: RateLimits; close(): Promise<void> }>;
  createCallerFactory(router: unknown): (ctx: unknown) => { vaults: { get(input: { vaultAccountId: string }): Promise<unknown> } };
  createContext(deps: unknown, request: Record<string, unknown>): unknown;
}
const apiModule = "@qc/api";
const { appRouter, createAppDeps, createCallerFactory, createContext } = (await import(apiModule)) as ApiModule;

const calls = Number(process.env.BENCH_CALLS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const only = process.env.BENCH_VARIANTS?.split(",").map((s) => s.trim());

/** CPU µs per call and calls/s for `calls` calls of `fn`, `concurrency` of them in flight. */
async function measure(fn: () => Promise<unknown>): Promise<{ cpuUs: number; perSecond: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < calls) await fn();
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / calls, perSecond: (calls * 1000) / elapsed };
}

const bench = await benchDatabase("qc-bench-layers");
try {
  const database = createDatabase({ url: bench.url });
  const pepper = randomBytes(32);
  const { tenantId, authorization } = await benchTenant(database.db, pepper);
  const now = new Date();
  const [vault] = await database.db
    .insert(schema.vaults)
    .values({ tenantId: tenantId, name: "bench vault", networkCode: "QUANTUM_SANDBOX", metadata: {}, createdAt: now, updatedAt: now })
    .returning();
  const deps = await createAppDeps({
    database,
    databaseUrl: bench.url,
    log: createLogger("bench", "silent"),
    config: { ...serviceConfig({ publicUrl: "https://localhost" }), apiKeyPepper: pepper },
    rateLimits: { ...DEFAULT_RATE_LIMITS, tenantPerSecond: 1_000_000, tenantBurstExtra: 1_000_000 },
  });
  const createCaller = createCallerFactory(appRouter);
  const vaultKey = { tenantId: tenantId, vaultId: vault!.id };
  const v = schema.vaults;

  const variants: Record<string, () => Promise<unknown>> = {
    "vault query, drizzle query builder": () =>
      database.db
        .select()
        .from(v)
        .where(and(eq(v.id, vaultKey.vaultId), eq(v.tenantId, vaultKey.tenantId))),
    "vault query, findVaultRow": () => findVaultRow(database.db, vaultKey),
    "vault query, raw pg": () =>
      database.pool.query("select * from vaults where id = $1 and tenant_id = $2", [vaultKey.vaultId, vaultKey.tenantId]),
    // What the procedure does, called directly: the difference to the next line is tRPC's own cost.
    "vaults.get's work without tRPC": async () => {
      const principal = await deps.authenticator.authenticate({ authorization, ip: "127.0.0.1", requestId: "bench" });
      if (!ipAllowed("127.0.0.1", await deps.authenticator.allowlist(principal.tenantId))) throw new Error("not allowed");
      if (!hasScope(principal.scopes, "read")) throw new Error("scope");
      await deps.rateLimits.consumeTenant(principal.tenantId);
      return vaultRecordSchema.parse(await getVault({ db: database.db }, { tenantId: principal.tenantId, vaultId: vaultKey.vaultId }));
    },
    "vaults.get through tRPC (whole procedure)": () => {
      const ctx = createContext(deps, {
        requestId: "bench",
        ip: "127.0.0.1",
        method: "GET",
        path: `/v1/vault/accounts/${vaultKey.vaultId}`,
        headers: { authorization },
        transport: "rest",
      });
      return createCaller(ctx).vaults.get({ vaultAccountId: vaultKey.vaultId });
    },
  };
  for (const name of Object.keys(variants)) if (only && !only.some((word) => name.includes(word))) delete variants[name];
  for (const run of Object.values(variants)) await measure(run); // warm-up: JIT, pool, caches
  const results: Record<string, { cpuUs: number[]; perSecond: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(variants)) {
      const r = await measure(run);
      (results[name] ??= { cpuUs: [], perSecond: [] }).cpuUs.push(r.cpuUs);
      results[name].perSecond.push(r.perSecond);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`${calls} calls × ${rounds} rounds, ${concurrency} in flight, load ${loadavg()[0]!.toFixed(1)}`);
  console.log("variant".padEnd(44), "CPU µs/call".padStart(12), "calls/s".padStart(9), "  rounds (CPU µs)");
  for (const [name, r] of Object.entries(results)) {
    console.log(
      name.padEnd(44),
      median(r.cpuUs).toFixed(0).padStart(12),
      median(r.perSecond).toFixed(0).padStart(9),
      `  ${r.cpuUs.map((x) => x.toFixed(0)).join(", ")}`,
    );
  }
  await deps.close();
  await database.close();
} finally {
  await bench.dispose();
}
