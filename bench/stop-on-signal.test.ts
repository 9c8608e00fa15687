import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What every benchmark does first: a database on embedded PostgreSQL and a spawned server. */
const BENCHMARK = `
import { spawn } from "node:child_process";
import { benchDatabase } from ${JSON.stringify(join(ROOT, "bench/database.ts"))};
import { stopChild, stopOnSignal } from ${JSON.stringify(join(ROOT, "bench/stop-on-signal.ts"))};
const database = await benchDatabase("qc-bench-signal-test");
// In its own process group, so only the benchmark's own cleanup can reach it.
const server = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", detached: true });
stopOnSignal(() => stopChild(server));
console.log(JSON.stringify({ url: database.url, work: database.work, serverPid: server.pid }));
setInterval(() => {}, 1000);
`;

/** How a benchmark is started: its package script runs the tsx CLI; the README's form, node --import tsx. */
const LAUNCHERS = {
  "the tsx CLI": (file: string) => [join(ROOT, "node_modules/tsx/dist/cli.mjs"), file],
  "node --import tsx": (file: string) => ["--import", "tsx", file],
};

interface Started {
  url: string;
  work: string;
  serverPid: number;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      done(true);
    });
    socket.on("error", () => done(false));
  });
}

/** Processes whose command line names `path` (a postgres started with `-D <path>/pg`). */
function processesUsing(path: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(path);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("benchmarks interrupted by a signal", () => {
  const leftovers: Started[] = [];
  const scriptDirs: string[] = [];
  afterEach(() => {
    for (const dir of scriptDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    // Only when the assertions failed: do not leave a cluster or a server behind.
    for (const started of leftovers.splice(0)) {
      const pidFile = join(started.work, "pg", "postmaster.pid");
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, "utf8").split("\n")[0]), "SIGQUIT");
      if (isRunning(started.serverPid)) process.kill(started.serverPid, "SIGKILL");
      rmSync(started.work, { recursive: true, force: true });
    }
  });

  it.each([
    ["the tsx CLI", "SIGINT", "to its process group (Ctrl-C)", 130],
    ["the tsx CLI", "SIGTERM", "to the process", 143],
    ["node --import tsx", "SIGINT", "to the process", 130],
  ] as const)(
    "under %s, %s %s stops the embedded PostgreSQL and the spawned server, then exits %i",
    async (launcher, signal, target, exitCode) => {
      const dir = mkdtempSync(join(tmpdir(), "qc-bench-signal-script-"));
      scriptDirs.push(dir);
      const script = join(dir, "benchmark.mts"); // an ES module wherever it lies (top-level await)
      writeFileSync(script, BENCHMARK);
      const env = { ...process.env };
      delete env.DATABASE_URL; // the embedded cluster is what must not be left behind
      const benchmark = spawn(process.execPath, LAUNCHERS[launcher](script), {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let stderr = "";
      benchmark.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
        benchmark.once("exit", (code, signal) => done({ code, signal })),
      );
      const started = await new Promise<Started>((done, fail) => {
        let stdout = "";
        benchmark.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const line = stdout.split("\n").find((l) => l.startsWith("{"));
          if (line) done(JSON.parse(line) as Started);
        });
        void exited.then(({ code }) => fail(new Error(`the benchmark exited early (${code}): ${stderr}`)));
      });
      leftovers.push(started);
      const port = Number(new URL(started.url).port);
      expect(await portAccepts(port)).toBe(true);
      expect(isRunning(started.serverPid)).toBe(true);
      expect(processesUsing(started.work).length).toBeGreaterThan(0);

      if (target === "to the process") benchmark.kill(signal);
      else process.kill(-benchmark.pid!, signal);
      expect(await exited, stderr).toEqual({ code: exitCode, signal: null });
      expect(await portAccepts(port)).toBe(false);
      expect(isRunning(started.serverPid)).toBe(false);
      expect(processesUsing(started.work)).toEqual([]);
      expect(existsSync(started.work)).toBe(false);
      leftovers.pop();
    },
  );
});
