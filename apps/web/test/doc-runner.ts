import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository root: walk-throughs run from there, as their readers do (`./qc signer …`). */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The ```sh blocks of a Markdown document, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The ```sh blocks of a file under docs/. */
export function docBlocks(name: string): string[] {
  return shellBlocks(readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), "utf8"));
}

export interface BashRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` in one `bash -euo pipefail` from the repository root, so the first failing
 * command stops it like a reader would stop. Past `timeoutMs` the whole process group is killed:
 * a hung `sleep` or signer child would otherwise keep the pipes open and the test waiting.
 * Standard input is empty (no terminal), as in CI.
 */
export function runBash(script: string, options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<BashRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[doc-runner] killed after ${options.timeoutMs ?? 120_000} ms`;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, options.timeoutMs ?? 120_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A failed run's output, for the assertion message. */
export function describeRun(run: BashRun): string {
  return `exit ${run.code ?? run.signal}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}
