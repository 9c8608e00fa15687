/**
 * A server process of a benchmark: `node <args>` (the compiled web server, or a baseline run
 * through tsx), registered with stopOnSignal so that an interrupted benchmark leaves none behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import { resolve } from "node:path";

import { stopChild, stopOnSignal } from "./stop-on-signal";

const root = resolve(import.meta.dirname, "..");

/**
 * Starts `node <args>` in `cwd` (this checkout by default) with `env` added to ours, and resolves
 * once its output (stdout and stderr) matches `readyWhen`; rejects, with the end of that output,
 * if it exits first. `log`: a file that receives the process's output too.
 */
export function startNode(
  args: string[],
  options: { readyWhen: RegExp; env?: Record<string, string>; cwd?: string; log?: string },
): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    stopOnSignal(() => stopChild(child));
    let output = "";
    const onData = (c: Buffer) => {
      if (options.log) appendFileSync(options.log, c);
      output += c.toString();
      if (options.readyWhen.test(output)) done(child);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => fail(new Error(`exited ${code}: ${output.slice(-2000)}`)));
  });
}

/** How a baseline written in TypeScript runs: see each caller's header for why it is not compiled. */
export const TSX = ["--import", "tsx"];
