/**
 * What bench/transfers-create.ts prints: the five targets' table per round, the statements per
 * create beside the bare baselines', the ratios (medians over the rounds) and what was stored.
 */
import { cpus, loadavg } from "node:os";
import { POOL_MAX, ROUND_TRIPS } from "./create-bare-servers";
import type { StatementCount } from "./create-statement-count";
import { median } from "./rounds";

/** One target's load run, and the CPU time the serving process and PostgreSQL spent per request meanwhile. */
export type Measured = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
  serverCpuUsPerRequest: number | null;
  databaseCpuUsPerRequest: number | null;
};

export type CreateRound = { bare: Measured; roundTrips: Measured; pipelined: Measured; replay: Measured; create: Measured };

/** What the run left in the database: the web's rows, jobs and keys, and the round-trips baseline's. */
export type Stored = { stored: number; jobs: number; idempotencyKeys: Record<string, number>; bareJobs: number; bareKeys: number };

/** Each round's ratios, and their medians over the rounds. */
export function createRatios(perRound: CreateRound[]) {
  const each = perRound.map((r) => ({
    ratio: r.create.rps / r.bare.rps,
    ratioOverRoundTrips: r.create.rps / r.roundTrips.rps,
    ratioOverPipelined: r.create.rps / r.pipelined.rps,
    pipelinedOverRoundTrips: r.pipelined.rps / r.roundTrips.rps,
    ratioOverReplay: r.create.rps / r.replay.rps,
  }));
  return {
    each,
    ratio: median(each.map((r) => r.ratio)),
    ratioOverRoundTrips: median(each.map((r) => r.ratioOverRoundTrips)),
    ratioOverPipelined: median(each.map((r) => r.ratioOverPipelined)),
    pipelinedOverRoundTrips: median(each.map((r) => r.pipelinedOverRoundTrips)),
    ratioOverReplay: median(each.map((r) => r.ratioOverReplay)),
  };
}

export function printCreateReport(params: {
  seconds: number;
  rounds: number;
  connections: number;
  perRound: CreateRound[];
  ratios: ReturnType<typeof createRatios>;
  statements: StatementCount;
  stored: Stored;
}): void {
  const { seconds, rounds, connections, perRound, statements, stored } = params;
  const { ratio, ratioOverRoundTrips, ratioOverPipelined, pipelinedOverRoundTrips, ratioOverReplay } = params.ratios;
  const nameWidth = Math.max(34, ...Object.values(perRound[0]!).map((r) => r.name.length));
  console.log(
    `\n${seconds} s per target${rounds > 1 ? `, ${rounds} rounds` : ""}, ${connections} connections, pool ${POOL_MAX} per server, loopback, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}\n`,
  );
  console.log(
    "target".padEnd(nameWidth),
    "req/s".padStart(8),
    "p50 ms".padStart(7),
    "p99 ms".padStart(7),
    "cpu µs/req".padStart(11),
    "db cpu µs".padStart(10),
    " statuses",
  );
  perRound.forEach(({ bare, roundTrips, pipelined, replay, create }, round) => {
    if (rounds > 1) console.log(`round ${round + 1}`);
    for (const r of [bare, roundTrips, pipelined, replay, create]) {
      const cpu = r.serverCpuUsPerRequest === null ? "—" : r.serverCpuUsPerRequest.toFixed(0);
      const databaseCpu = r.databaseCpuUsPerRequest === null ? "—" : r.databaseCpuUsPerRequest.toFixed(0);
      console.log(
        r.name.padEnd(nameWidth),
        r.rps.toFixed(0).padStart(8),
        String(r.p50).padStart(7),
        String(r.p99).padStart(7),
        cpu.padStart(11),
        databaseCpu.padStart(10),
        ` ${Object.entries(r.statuses)
          .map(([c, n]) => `${c}×${n}`)
          .join(" ")}`,
      );
    }
  });
  console.log(
    `\nstatements per create, web process, ${statements.creates} sequential creates: ${statements.perCreate.toFixed(2)} in ${statements.roundTripsPerCreate.toFixed(2)} round trips; database transactions per create: ${statements.transactionsPerCreate.toFixed(2)}`,
  );
  for (const [text, count] of statements.byStatement)
    console.log(`  ${(count / statements.creates).toFixed(2).padStart(6)}  ${text.slice(0, 140)}`);
  const roundTripStatements = Object.values(ROUND_TRIPS);
  console.log(
    `\nstatements per request, bare round-trips baselines: ${roundTripStatements.length}, one database transaction, in ${roundTripStatements.length} round trips or (pipelined) 4`,
  );
  for (const text of roundTripStatements) console.log(`  ${(1).toFixed(2).padStart(6)}  ${text.slice(0, 140)}`);
  const each = (pick: (r: (typeof params.ratios.each)[number]) => number) =>
    rounds > 1 ? ` [${params.ratios.each.map((r) => pick(r).toFixed(3)).join(", ")}]` : "";
  console.log(
    `\ncreate ÷ bare insert${rounds > 1 ? " (median)" : ""}: ${ratio.toFixed(3)}${each((r) => r.ratio)}; create ÷ bare round trips: ${ratioOverRoundTrips.toFixed(3)}${each((r) => r.ratioOverRoundTrips)}` +
      `; create ÷ bare pipelined: ${ratioOverPipelined.toFixed(3)}${each((r) => r.ratioOverPipelined)}; bare pipelined ÷ bare round trips: ${pipelinedOverRoundTrips.toFixed(3)}${each((r) => r.pipelinedOverRoundTrips)}`,
  );
  console.log(
    `create ÷ the create's own statements replayed on raw pg (issue 30's goal ≥ 0.50)${rounds > 1 ? " (median)" : ""}: ${ratioOverReplay.toFixed(3)}${each((r) => r.ratioOverReplay)}`,
  );
  console.log(
    `rows stored ${stored.stored}, check jobs ${stored.jobs}, idempotency keys by stored status ${JSON.stringify(stored.idempotencyKeys)} (the web's and the replay's together)`,
  );
  console.log(
    `bare round trips: job rows ${stored.bareJobs}, stored answers ${stored.bareKeys} (one each per request it accepted, the ones still in flight when the load stopped included)`,
  );
}
