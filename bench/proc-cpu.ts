/** CPU time of processes on this machine, from Linux's /proc (every reader returns nothing elsewhere). */
import { readdirSync, readFileSync } from "node:fs";

// USER_HZ: 100 on every Linux architecture Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

export type ProcStat = { pid: number; comm: string; ppid: number; cpuSeconds: number };

/** A process's command name, parent and user + system CPU time so far; undefined once it is gone. */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm may hold spaces and parentheses: the fields resume after the last ")"; utime and
    // stime are fields 14 and 15.
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    return {
      pid,
      comm: text.slice(text.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** Every process readable now, by pid. */
export function allProcesses(): Map<number, ProcStat> {
  const found = new Map<number, ProcStat>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat) found.set(stat.pid, stat);
  }
  return found;
}

/** User + system CPU time of a process so far, in ms (null when it cannot be read). */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const stat = readProcStat(pid);
  return stat ? stat.cpuSeconds * 1000 : null;
}

/**
 * CPU time so far of every PostgreSQL process on this machine (postmaster, backends, WAL writer,
 * checkpointer…), in ms by pid; null where /proc cannot be read.
 */
export function databaseCpuSnapshot(): Map<number, number> | null {
  const processes = allProcesses();
  if (processes.size === 0) return null;
  const snapshot = new Map<number, number>();
  for (const p of processes.values()) if (p.comm.startsWith("postgres")) snapshot.set(p.pid, p.cpuSeconds * 1000);
  return snapshot;
}

/**
 * PostgreSQL's CPU time between two snapshots, in ms. On a shared server (DATABASE_URL) it
 * includes whatever else that server did meanwhile. A process started in between counts whole;
 * one that ended in between is lost (a pool's backends live through a load).
 */
export function databaseCpuMsBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, cpuMs] of after) total += cpuMs - (before.get(pid) ?? 0);
  return total;
}
