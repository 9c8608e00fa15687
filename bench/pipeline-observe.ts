/**
 * Where the pipeline's time goes, observed from outside the processes (nothing in the service
 * is instrumented for the benchmark): CPU of each process from /proc, the database's own
 * counters (pg_stat_database) and its sessions' wait events (pg_stat_activity, sampled), the
 * chain's blocks, and what else was busy on the machine meanwhile.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { createDatabase } from "@qc/db";
import { rpc } from "./pipeline-stack";
import { allProcesses, readProcStat, type ProcStat } from "./proc-cpu";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function systemCpu(): { busy: number; total: number } {
  const [, ...values] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = n[3]! + n[4]!; // idle + iowait
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function descendantsOf(root: number, processes: Map<number, ProcStat>): Set<number> {
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes.values()) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return tree;
}

/** The machine: cores, load, and the share of its CPU that was busy over a window. */
export function machine() {
  return { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg: loadavg().map((l) => round(l, 2)) };
}

/**
 * The machine over a window: load average at both ends, the share of all cores that was busy,
 * and everyone else's processes that used at least a tenth of a core (outside this process's
 * tree and the `ours` pids, e.g. the benchmark database's backends).
 */
export function machineLoadWindow() {
  const startedAt = performance.now();
  const systemAtStart = systemCpu();
  const everyoneAtStart = allProcesses();
  const loadAtStart = loadavg();
  return {
    stop(ours: Iterable<number> = []) {
      const seconds = (performance.now() - startedAt) / 1000;
      const systemAfter = systemCpu();
      const everyoneAfter = allProcesses();
      const excluded = descendantsOf(process.pid, everyoneAfter);
      for (const pid of ours) excluded.add(pid);
      const others = [...everyoneAfter.values()]
        .filter((p) => !excluded.has(p.pid))
        .map((p) => ({
          pid: p.pid,
          comm: p.comm,
          coresUsed: round((p.cpuSeconds - (everyoneAtStart.get(p.pid)?.cpuSeconds ?? 0)) / seconds, 2),
        }))
        .filter((p) => p.coresUsed >= 0.1)
        .sort((a, b) => b.coresUsed - a.coresUsed);
      return {
        ...machine(),
        loadavgAtStart: loadAtStart.map((l) => round(l, 2)),
        cpuBusyShare: round((systemAfter.busy - systemAtStart.busy) / (systemAfter.total - systemAtStart.total), 3),
        otherBusyProcesses: others.length,
        othersTop: others.slice(0, 8),
      };
    },
  };
}

type DatabaseCounters = Record<string, number>;
const COUNTERS = [
  "xact_commit",
  "xact_rollback",
  "blks_read",
  "blks_hit",
  "tup_returned",
  "tup_fetched",
  "tup_inserted",
  "tup_updated",
  "tup_deleted",
  "deadlocks",
  "temp_bytes",
] as const;
type Activity = {
  pid: number;
  application: string;
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
  query: string;
};

/** What one sample of a working session counts under: its wait ("CPU": none) and its statement. */
function classify(row: Activity): { wait: string; statement: string } {
  const wait =
    row.state === "idle in transaction"
      ? "idle in transaction (waiting for its client)"
      : row.wait_event_type
        ? `${row.wait_event_type}:${row.wait_event}`
        : "CPU";
  return { wait, statement: `${row.application} ${row.state === "active" ? "running" : "after"}: ${row.query}` };
}

const increment = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const shares = (map: Map<string, number>, total: number, top = Infinity) =>
  Object.fromEntries(
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => [k || "(none)", round(v / Math.max(1, total), 3)]),
  );

/**
 * Samples, over one measured window: pg_stat_activity of the benchmark's database every
 * `intervalMs`, the CPU of the named processes and of the database's backends, the machine's CPU
 * and everyone else's busy processes, the database's and the devnet's counters.
 */
export function startObserver(params: {
  databaseUrl: string;
  rpcUrl: string;
  processes: { name: string; pid: number }[];
  intervalMs?: number;
}) {
  const database = createDatabase({ url: params.databaseUrl, applicationName: "qc-bench-observer", poolMax: 1 });
  const intervalMs = params.intervalMs ?? 250;
  const startedAt = performance.now();
  const cpuAtStart = new Map(params.processes.map((p) => [p.name, readProcStat(p.pid)?.cpuSeconds ?? 0]));
  const machineWindow = machineLoadWindow();
  /** Backend pid → CPU seconds when first and last seen. */
  const backends = new Map<number, { application: string; first: number; last: number }>();
  const waits = new Map<string, number>();
  const activeByApplication = new Map<string, number>();
  /** What the working sessions were running (or, idle in a transaction, last ran). */
  const statements = new Map<string, number>();
  let samples = 0;
  let failedSamples = 0;
  let stopped = false;

  const readCounters = async (): Promise<DatabaseCounters> => {
    const { rows } = await database.query<Record<string, string>>(
      `select ${COUNTERS.join(", ")} from pg_stat_database where datname = current_database()`,
    );
    return Object.fromEntries(COUNTERS.map((c) => [c, Number(rows[0]![c])]));
  };
  const readDevnet = async () => ({
    metrics: await rpc<Record<string, number>>(params.rpcUrl, "devnet_metrics"),
    head: Number(BigInt(await rpc<string>(params.rpcUrl, "eth_blockNumber"))),
  });

  const sample = async () => {
    const { rows } = await database.query<Activity>(
      "select pid, coalesce(application_name, '') as application, state, wait_event_type, wait_event, " +
        "left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as query from pg_stat_activity where datname = " +
        "current_database() and pid <> pg_backend_pid()",
    );
    samples += 1;
    for (const row of rows) {
      const cpu = readProcStat(row.pid)?.cpuSeconds;
      if (cpu !== undefined) {
        const known = backends.get(row.pid);
        if (known) known.last = cpu;
        else backends.set(row.pid, { application: row.application, first: cpu, last: cpu });
      }
      if (row.state !== "active" && row.state !== "idle in transaction") continue;
      const { wait, statement } = classify(row);
      increment(waits, wait);
      increment(statements, statement);
      increment(activeByApplication, row.application);
    }
  };

  const atStart = Promise.all([readCounters(), readDevnet()]);
  const sampling = (async () => {
    await atStart;
    while (!stopped) {
      // A lost sample (the database or the devnet busy for a moment) is counted, not fatal.
      await sample().catch(() => void (failedSamples += 1));
      await sleep(intervalMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      await sampling;
      const seconds = (performance.now() - startedAt) / 1000;
      const [countersAtStart, devnetAtStart] = await atStart;
      const [countersAfter, devnetAfter] = await Promise.all([readCounters(), readDevnet()]);
      await database.close();

      const cpu: Record<string, { cpuSeconds: number; coresUsed: number }> = {};
      for (const p of params.processes) {
        const used = (readProcStat(p.pid)?.cpuSeconds ?? 0) - cpuAtStart.get(p.name)!;
        cpu[p.name] = { cpuSeconds: round(used, 2), coresUsed: round(used / seconds, 2) };
      }
      let backendSeconds = 0;
      const backendsByApplication: Record<string, number> = {};
      for (const b of backends.values()) {
        backendSeconds += b.last - b.first;
        backendsByApplication[b.application || "(none)"] = round(
          (backendsByApplication[b.application || "(none)"] ?? 0) + b.last - b.first,
          2,
        );
      }
      cpu["postgres backends"] = { cpuSeconds: round(backendSeconds, 2), coresUsed: round(backendSeconds / seconds, 2) };

      /** devnet_metrics over the window: signatureChecks, signatureMs, blocksMined, transactionsMined… */
      const devnetDelta: Partial<Record<string, number>> = {};
      for (const k of Object.keys(devnetAfter.metrics))
        devnetDelta[k] = round(devnetAfter.metrics[k]! - (devnetAtStart.metrics[k] ?? 0), 1);
      const working = [...waits.values()].reduce((a, b) => a + b, 0);
      const delta = Object.fromEntries(COUNTERS.map((c) => [c, countersAfter[c]! - countersAtStart[c]!]));
      return {
        seconds: round(seconds, 2),
        machine: machineWindow.stop(backends.keys()),
        cpu,
        postgresBackendCpuByApplication: backendsByApplication,
        database: {
          counters: delta,
          xactPerSecond: round((delta.xact_commit! + delta.xact_rollback!) / seconds),
          cacheHitShare: round(delta.blks_hit! / Math.max(1, delta.blks_hit! + delta.blks_read!), 4),
          activitySamples: samples,
          failedSamples,
          /**
           * Mean time a database transaction stays open (Little's law: sessions working on average ÷
           * transactions per second; a single statement counts as a transaction).
           */
          meanTransactionOpenMs: round(
            ((working / Math.max(1, samples)) * seconds * 1000) / Math.max(1, delta.xact_commit! + delta.xact_rollback!),
            2,
          ),
          /** Mean number of sessions working (active or idle in a transaction) at a sample. */
          meanActiveSessions: round(working / Math.max(1, samples), 2),
          activeSessionsByApplication: Object.fromEntries(
            [...activeByApplication].map(([k, v]) => [k || "(none)", round(v / Math.max(1, samples), 2)]),
          ),
          /** Of the working sessions sampled, the share in each wait ("CPU": no wait event). */
          waitShares: shares(waits, working),
          /** The statements most often seen in the working sessions, as a share of them. */
          topStatements: shares(statements, working, 12),
        },
        devnet: { metrics: devnetDelta, headAtStart: devnetAtStart.head, headAfter: devnetAfter.head },
      };
    },
  };
}

/** Wall-clock times at which the devnet's head changed (ms since the epoch). */
export function watchBlocks(rpcUrl: string) {
  const heads: number[] = [];
  let stopped = false;
  const watching = (async () => {
    let last = -1;
    while (!stopped) {
      const head = await rpc<string>(rpcUrl, "eth_blockNumber").then(
        (h) => Number(BigInt(h)),
        () => last,
      );
      if (head !== last) {
        if (last !== -1) heads.push(Date.now());
        last = head;
      }
      await sleep(10);
    }
  })();
  return {
    async stop(): Promise<number[]> {
      stopped = true;
      await watching;
      return heads.slice(1).map((t, i) => t - heads[i]!);
    },
  };
}

/** Transactions in each block from `from` to `to` (inclusive). */
export async function transactionsPerBlock(rpcUrl: string, from: number, to: number): Promise<number[]> {
  const counts: number[] = [];
  for (let n = from; n <= to; n++) {
    const block = await rpc<{ transactions: unknown[] } | null>(rpcUrl, "eth_getBlockByNumber", [`0x${n.toString(16)}`, false]);
    counts.push(block?.transactions.length ?? 0);
  }
  return counts;
}

/** What `startObserver(…).stop()` saw over the measured window. */
export type Observed = Awaited<ReturnType<ReturnType<typeof startObserver>["stop"]>>;
