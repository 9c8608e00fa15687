/**
 * What the pipeline benchmark reports of one run: its figures (as written to the results file)
 * from what the run observed, and the lines it prints.
 */
import type { Observed } from "./pipeline-observe";
import { summary, type analyseHistory } from "./pipeline-steps";
import type { VerifyRates } from "./pipeline-verify-rate";

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** One run's figures, from the status history (`steps`), the signer's clock, the chain and the observer. */
export function runFigures(params: {
  label: string;
  daemons: number;
  complete: boolean;
  created: number;
  signed: { submittedAt: Map<string, number>; postMs: number[] };
  steps: ReturnType<typeof analyseHistory>;
  wallSeconds: number;
  blockIntervals: number[];
  perBlock: number[];
  observed: Observed;
  verify: VerifyRates;
}) {
  const { label, daemons, complete, created, signed, steps, wallSeconds, blockIntervals, perBlock, observed, verify } = params;
  const completed = steps.completed;
  const verifies = {
    web: steps.counts.signed,
    daemons: steps.counts.broadcast,
    devnet: observed.devnet.metrics.signatureChecks ?? 0,
    signer: signed.submittedAt.size,
  };
  const totalVerifies = verifies.web + verifies.daemons + verifies.devnet + verifies.signer;
  return {
    label,
    daemons,
    complete,
    serviceCpuMsPerCompleted: serviceCpuPerCompleted(observed, completed),
    transfers: { created, signed: signed.submittedAt.size, completed },
    totalSeconds: steps.totalSeconds,
    wallSeconds: round(wallSeconds, 2),
    transfersPerSecond: round(completed / steps.totalSeconds, 2),
    stepsMs: steps.steps,
    signaturePostMs: summary(signed.postMs),
    perSource: steps.perSource,
    blockTimeMs: {
      mean: round(blockIntervals.reduce((a, b) => a + b, 0) / Math.max(1, blockIntervals.length)),
      ...summary(blockIntervals),
      blocks: blockIntervals.length,
    },
    transactionsPerBlock: {
      ...summary(perBlock),
      mean: round(perBlock.reduce((a, b) => a + b, 0) / Math.max(1, perBlock.length), 2),
      blocks: perBlock.length,
    },
    verify: {
      done: verifies,
      donePerSecond: round(totalVerifies / observed.seconds),
      /** Share of one core's verify rate (measured above) the pipeline's verifications used. */
      shareOfOneThread: round(totalVerifies / observed.seconds / verify.oneThreadPerSecond, 3),
      devnetMsPerSignatureCheck: verifies.devnet ? round((observed.devnet.metrics.signatureMs ?? 0) / verifies.devnet, 2) : null,
    },
    observed,
  };
}

export type RunResult = ReturnType<typeof runFigures>;

/**
 * The service's own CPU per completed transfer (issue 35's goal): the web server, the daemon(s)
 * and the database's backends, each in CPU milliseconds ÷ transfers completed in the window, and
 * their sum. The benchmark's own processes (the signer and load, the devnet) are not the service.
 */
export function serviceCpuPerCompleted(observed: Observed, completed: number): Record<string, number> {
  const perTransfer = (seconds: number) => round((seconds * 1000) / Math.max(1, completed), 1);
  const parts: Record<string, number> = {};
  for (const [name, cpu] of Object.entries(observed.cpu)) {
    const service = name === "web" || name.startsWith("daemon") ? name : name === "postgres backends" ? "postgres" : undefined;
    if (service) parts[service] = perTransfer(cpu.cpuSeconds);
  }
  return {
    ...parts,
    total: round(
      Object.values(parts).reduce((a, b) => a + b, 0),
      1,
    ),
  };
}

export function printRun(run: RunResult, transfers: number) {
  const s = run.stepsMs;
  const row = (name: string, v: { p50: number; p95: number } | undefined) =>
    console.log(`  ${name.padEnd(40)} p50 ${String(v?.p50 ?? "—").padStart(6)} ms   p95 ${String(v?.p95 ?? "—").padStart(6)} ms`);
  console.log(
    `\n${run.label}, ${run.daemons} daemon(s): ${run.transfers.completed}/${transfers} COMPLETED${run.complete ? "" : " (DEADLINE PASSED)"} in ${run.totalSeconds} s → ${run.transfersPerSecond} transfers/s  (load ${run.observed.machine.loadavg.join(" ")}, ${run.observed.machine.otherBusyProcesses} other busy processes)`,
  );
  row("create → PENDING_SIGNATURE (all)", s.createToPendingSignature);
  row("  first of each source (no queue)", s.createToPendingSignatureFirst);
  row("  released from QUEUED: ahead BROADCASTING →", s.releaseAfterPredecessorBroadcast);
  row("PENDING_SIGNATURE → SIGNED (signer)", s.pendingSignatureToSigned);
  row("signature (SIGNED) → BROADCASTING", s.signedToBroadcasting);
  row("signature POST → BROADCASTING (bench clock)", s.signaturePostToBroadcasting);
  row("BROADCASTING → CONFIRMING", s.broadcastingToConfirming);
  row("CONFIRMING → COMPLETED", s.confirmingToCompleted);
  row("end to end (SUBMITTED → COMPLETED)", s.endToEnd);
  row("a source's cycle (BROADCASTING → next)", run.perSource.cycleMs);
  row("devnet block time", run.blockTimeMs);
  console.log(
    `  transactions per block: mean ${run.transactionsPerBlock.mean}, p95 ${run.transactionsPerBlock.p95}, max ${run.transactionsPerBlock.max}`,
  );
  console.log(
    `  verifications: ${run.verify.donePerSecond}/s done (${JSON.stringify(run.verify.done)}), ${run.verify.shareOfOneThread} of one thread's rate`,
  );
  console.log(
    `  CPU (cores used): ${Object.entries(run.observed.cpu)
      .map(([k, v]) => `${k} ${v.coresUsed}`)
      .join(", ")}; machine busy ${Math.round(run.observed.machine.cpuBusyShare * 100)} %`,
  );
  console.log(
    `  service CPU per completed transfer: ${Object.entries(run.serviceCpuMsPerCompleted)
      .map(([k, v]) => `${k} ${v}`)
      .join(" + ")
      .replace(/ \+ total /, " = ")} ms`,
  );
  console.log(
    `  database: ${run.observed.database.xactPerSecond} xact/s (open ${run.observed.database.meanTransactionOpenMs} ms each on average), ${run.observed.database.meanActiveSessions} sessions working on average; waits ${JSON.stringify(run.observed.database.waitShares)}`,
  );
}

export function printVerifyRates(verify: VerifyRates): void {
  console.log(
    `ML-DSA-87 verify: inline ${verify.oneThreadPerSecond}/s; pool (QC_VERIFY_IMPL=${verify.poolImplementation}) 1 thread ${verify.poolOneThreadPerSecond}/s, ${verify.poolThreads} threads ${verify.poolPerSecond}/s (${verify.poolOverPoolOneThread}×)`,
  );
}

/**
 * This checkout ÷ the baseline (BENCH_BASELINE), per daemon count, over the rounds' medians:
 * transfers/s and the service's CPU per completed transfer. Measured in the same minutes, so the
 * machine's load (shared cores) weighs on both alike.
 */
export function printBaselineRatios(runs: RunResult[]): void {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2 : NaN;
  };
  for (const daemons of new Set(runs.map((r) => r.daemons))) {
    const of = (label: string) => runs.filter((r) => r.daemons === daemons && r.label === label);
    const [base, current] = [of("baseline"), of("this checkout")];
    if (!base.length || !current.length) continue;
    const ratio = (pick: (r: RunResult) => number) => round(median(current.map(pick)) / median(base.map(pick)), 3);
    console.log(
      `\n${daemons} daemon(s), this checkout ÷ baseline (medians of ${current.length} and ${base.length} runs): transfers/s ×${ratio((r) => r.transfersPerSecond)}, service CPU per transfer ×${ratio((r) => r.serviceCpuMsPerCompleted.total!)} (web ×${ratio((r) => r.serviceCpuMsPerCompleted.web!)}, daemon ×${ratio((r) => r.serviceCpuMsPerCompleted["daemon-1"]!)}, PostgreSQL ×${ratio((r) => r.serviceCpuMsPerCompleted.postgres!)}), idle-in-transaction share of working sessions ${base.map((r) => r.observed.database.waitShares["idle in transaction (waiting for its client)"]).join("/")} → ${current.map((r) => r.observed.database.waitShares["idle in transaction (waiting for its client)"]).join("/")}`,
    );
  }
}
