/**
 * What bench/http.ts prints and reports: each round's table and the ratios between its targets,
 * then, over several rounds, each ratio's median beside every round's value.
 */
import { cpus, loadavg } from "node:os";
import { medians, type RatioMap } from "./rounds";

export interface Result {
  key: string;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /**
   * Mean latency (ms). At a fixed number of connections it is connections ÷ req/s (Little's law),
   * so p99 ÷ mean says how long the tail is apart from how fast the server is.
   */
  mean: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** Per request, from pg_stat_database over the run (null for the bare servers without a database). */
  db: { transactions: number; rowsWritten: number } | null;
  /**
   * CPU time the server process spent per request (user + system, from /proc): what a request
   * costs whatever else the machine is doing, where req/s also measures the machine's load.
   */
  serverCpuMsPerRequest: number | null;
}

/** The run's shape, as the header line of each round says it. */
export type RunShape = { rounds: number; seconds: number; connections: number; withBaseline: boolean };

export type RoundReport = { results: Result[]; ratios: RatioMap; baseline: RatioMap | undefined };

/** How long the tail is apart from the rate: p99 ÷ mean latency (null without a mean). */
const p99OverMean = (r: Pick<Result, "p99" | "mean">): number | null => (r.mean > 0 ? r.p99 / r.mean : null);

/** Prints one round's table and returns its ratios (null where a target was not run). */
export function roundRatios(results: Result[], round: number, run: RunShape): Omit<RoundReport, "results"> {
  const rps = (key: string) => results.find((r) => r.key === key)?.rps;
  const cpu = (key: string) => results.find((r) => r.key === key)?.serverCpuMsPerRequest ?? null;
  /** The same server's /healthz: each target is compared with its own server's. */
  const healthzOf = (key: string) => (key.includes("@") ? `healthz@${key.split("@")[1]}` : "healthz");
  const rpsRatio = (key: string) => (rps(healthzOf(key)) && rps(key) ? rps(key)! / rps(healthzOf(key))! : null);
  const cpuRatio = (key: string) => (cpu(healthzOf(key)) && cpu(key) ? cpu(healthzOf(key))! / cpu(key)! : null);
  /** The vault read against the bare process doing only its SELECT (one for both servers). */
  const overSelect = (key: string) =>
    key.startsWith("vault") && rps("bare-https-select") && rps(key) ? rps(key)! / rps("bare-https-select")! : null;
  const tail = (key: string) => {
    const r = results.find((result) => result.key === key);
    return r ? p99OverMean(r) : null;
  };
  const cpuOverSelect = (key: string) => (cpu("bare-https-select") && cpu(key) ? cpu("bare-https-select")! / cpu(key)! : null);
  console.log(
    `\n${run.rounds > 1 ? `round ${round + 1} of ${run.rounds}: ` : ""}${run.seconds} s per target, ${run.connections} connections, loopback, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}\n`,
  );
  console.log(
    "target".padEnd(65),
    "req/s".padStart(8),
    "p50 ms".padStart(7),
    "p99 ms".padStart(7),
    "p99÷mean".padStart(9),
    "÷healthz".padStart(9),
    "÷bare-sel".padStart(10),
    "cpu µs/req".padStart(11),
    "db tx/req".padStart(10),
    "rows/req".padStart(9),
    " statuses",
  );
  for (const r of results) {
    const ratio = rpsRatio(r.key);
    console.log(
      r.name.padEnd(65),
      r.rps.toFixed(0).padStart(8),
      String(r.p50).padStart(7),
      String(r.p99).padStart(7),
      (p99OverMean(r)?.toFixed(2) ?? "-").padStart(9),
      (ratio !== null ? ratio.toFixed(3) : "-").padStart(9),
      (overSelect(r.key)?.toFixed(3) ?? "-").padStart(10),
      (r.serverCpuMsPerRequest !== null ? (r.serverCpuMsPerRequest * 1000).toFixed(0) : "-").padStart(11),
      (r.db ? r.db.transactions.toFixed(3) : "-").padStart(10),
      (r.db ? r.db.rowsWritten.toFixed(3) : "-").padStart(9),
      ` ${Object.entries(r.statuses)
        .map(([code, count]) => `${code}×${count}`)
        .join(" ")}`,
    );
  }
  const ratios: RatioMap = {
    vaultOverHealthz: rpsRatio("vault"),
    unauthenticatedOverHealthz: rpsRatio("unauthenticated"),
    transactionOverHealthz: rpsRatio("transaction"),
    credentialsOverHealthz: rpsRatio("credentials"),
    // The same ratio from CPU time per request (healthz's cost ÷ the target's): robust to the machine's load.
    vaultCpuOverHealthz: cpuRatio("vault"),
    transactionCpuOverHealthz: cpuRatio("transaction"),
    unauthenticatedCpuOverHealthz: cpuRatio("unauthenticated"),
    // Against the same database work done bare (bare-https-select): what the framework costs.
    vaultOverBareHttpsSelect: overSelect("vault"),
    vaultCpuOverBareHttpsSelect: cpuOverSelect("vault"),
    bareHttpsSelectOverHealthz: rpsRatio("bare-https-select"),
    bareHttpsSelectPoolOverHealthz: rpsRatio("bare-https-select-pool"),
    // The tail's length apart from the rate (p99 ÷ mean latency): p99 ≤ 25 ms at 50 connections
    // needs both a short tail and a mean of 50 ÷ req/s short enough (docs/performance/reads.md).
    vaultP99OverMean: tail("vault"),
    healthzP99OverMean: tail("healthz"),
    bareHttpsSelectP99OverMean: tail("bare-https-select"),
  };
  const baseline: RatioMap | undefined = run.withBaseline
    ? {
        vaultOverHealthz: rpsRatio("vault@baseline"),
        unauthenticatedOverHealthz: rpsRatio("unauthenticated@baseline"),
        transactionOverHealthz: rpsRatio("transaction@baseline"),
        credentialsOverHealthz: rpsRatio("credentials@baseline"),
        vaultCpuOverHealthz: cpuRatio("vault@baseline"),
        unauthenticatedCpuOverHealthz: cpuRatio("unauthenticated@baseline"),
        vaultOverBareHttpsSelect: overSelect("vault@baseline"),
        vaultCpuOverBareHttpsSelect: cpuOverSelect("vault@baseline"),
      }
    : undefined;
  return { ratios, baseline };
}

/**
 * The ratios' medians over the rounds (with a baseline, its own under `baseline`); with more than
 * one round, printed each beside every round's value.
 */
export function reportMedians(perRound: RoundReport[], run: RunShape) {
  const ratios = {
    ...medians(perRound.map((r) => r.ratios)),
    ...(run.withBaseline ? { baseline: medians(perRound.map((r) => r.baseline ?? {})) } : {}),
  };
  if (run.rounds > 1) {
    console.log(`\nmedians over ${run.rounds} rounds (each round's value in brackets):`);
    for (const [label, pick] of [
      ["", (r: RoundReport) => r.ratios],
      ["baseline.", (r: RoundReport) => r.baseline ?? {}],
    ] as const) {
      const medianMap = medians(perRound.map(pick));
      for (const [name, value] of Object.entries(medianMap)) {
        if (value === null) continue;
        const each = perRound.map((r) => pick(r)[name] ?? null);
        console.log(
          `  ${(label + name).padEnd(43)} ${value.toFixed(3)}  [${each.map((v) => (v === null ? "-" : v.toFixed(3))).join(", ")}]`,
        );
      }
    }
  }
  console.log(`\nratios${run.rounds > 1 ? " (medians)" : ""}: ${JSON.stringify(ratios)}`);
  return ratios;
}
