import { migrationStatus, type DatabaseHandle } from "@qc/db";
import type { ChainClients, Logger } from "@qc/core";
import type { NetworkCode } from "@qc/chain";

export interface ReadinessCheck {
  status: "ok" | "fail";
  [detail: string]: unknown;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, ReadinessCheck>;
}

/** Additional checks (chain RPC per network) registered by the process that owns them. */
export type ReadinessProbe = () => Promise<Record<string, ReadinessCheck>>;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

/**
 * Ready when the database answers and every shipped migration is applied. Extra probes (chain
 * RPC) are reported in `checks` but do not decide readiness: the API serves reads and queues
 * work while a chain endpoint is down, and says so per request (503 UNAVAILABLE).
 *
 * /readyz is unauthenticated, so a failing check says only a fixed reason ("unavailable",
 * "migrations pending"); what the driver said goes to the log, where it may name hosts, roles,
 * tables or SQL that an anonymous caller has no business reading.
 */
export async function checkReadiness(database: DatabaseHandle, probes: ReadinessProbe[] = [], log?: Logger): Promise<Readiness> {
  const checks: Record<string, ReadinessCheck> = {};
  try {
    const started = performance.now();
    await withTimeout(database.query("select 1"), 2_000);
    checks.database = { status: "ok", latencyMs: Math.round(performance.now() - started) };
    try {
      const migrations = await withTimeout(migrationStatus(database.query), 2_000);
      checks.migrations = migrations.upToDate
        ? { status: "ok", applied: migrations.applied, expected: migrations.expected }
        : { status: "fail", error: "migrations pending", applied: migrations.applied, expected: migrations.expected };
    } catch (error) {
      log?.warn({ err: error }, "readiness: migration status unavailable");
      checks.migrations = { status: "fail", error: "unavailable" };
    }
  } catch (error) {
    log?.warn({ err: error }, "readiness: database unreachable");
    checks.database = { status: "fail", error: "database unreachable" };
    checks.migrations = { status: "fail", error: "database unreachable" };
  }
  for (const probe of probes) {
    try {
      Object.assign(checks, await withTimeout(probe(), 3_000));
    } catch (error) {
      log?.warn({ err: error }, "readiness: probe failed");
      checks.probe = { status: "fail", error: "unavailable" };
    }
  }
  return { ready: checks.database?.status === "ok" && checks.migrations?.status === "ok", checks };
}

/** Reports each configured network's RPC (block number and latency) in /readyz `checks`. */
export function chainReadinessProbe(chain: ChainClients, networks: NetworkCode[]): ReadinessProbe {
  return async () => {
    const entries = await Promise.all(
      networks.map(async (network): Promise<[string, ReadinessCheck]> => {
        const started = performance.now();
        try {
          const blockNumber = await withTimeout(chain.client(network).getBlockNumber({ cacheTime: 0 }), 2_000);
          return [network, { status: "ok", blockNumber: Number(blockNumber), latencyMs: Math.round(performance.now() - started) }];
        } catch {
          return [network, { status: "fail", error: "RPC unreachable" }];
        }
      }),
    );
    return Object.fromEntries(entries);
  };
}
