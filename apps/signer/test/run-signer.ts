import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

export type SignerRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; args: string[] };

export type RunSignerOptions = {
  /** QC_SIGNER_HOME. */
  home: string;
  /** QC_SIGNER_PASSPHRASE; omitted: unset (the CLI has no terminal, so it must refuse). */
  passphrase?: string;
  /** Written to standard input, then closed (a pipe, never a terminal). */
  stdin?: string;
  env?: Record<string, string>;
};

/** Every run of this test process, so a file can scan all output for secrets at the end. */
export const signerRuns: SignerRun[] = [];

function childEnv(options: RunSignerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, QC_SIGNER_HOME: options.home, ...options.env };
  delete env.QC_SIGNER_PASSPHRASE;
  if (options.passphrase !== undefined) env.QC_SIGNER_PASSPHRASE = options.passphrase;
  return env;
}

/** Starts the CLI exactly as `./qc signer` does (node --import tsx src/main.ts), from the repo root. */
export function spawnSigner(args: string[], options: RunSignerOptions): { child: ChildProcess; done: Promise<SignerRun> } {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    cwd: ROOT,
    env: childEnv(options),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin!.end(options.stdin ?? "");
  const done = new Promise<SignerRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const run = { code, signal, stdout, stderr, args };
      signerRuns.push(run);
      resolve(run);
    });
  });
  return { child, done };
}

/** Runs one signer command to completion. */
export function runSigner(args: string[], options: RunSignerOptions): Promise<SignerRun> {
  return spawnSigner(args, options).done;
}

/** Every encoding a secret could leak in: hex (either case, with or without 0x) and base64. */
export function secretForms(secret: Uint8Array | string): string[] {
  if (typeof secret === "string") return [secret];
  const hex = Buffer.from(secret).toString("hex");
  return [hex, hex.toUpperCase(), Buffer.from(secret).toString("base64"), Buffer.from(secret).toString("base64url")];
}

/** The runs (and extra texts) that contain any of the secrets, for a readable failure. */
export function leaks(secrets: (Uint8Array | string)[], texts: string[] = signerRuns.flatMap((run) => [run.stdout, run.stderr])): string[] {
  const forms = secrets.flatMap(secretForms).filter((form) => form.length >= 8);
  return forms.filter((form) => texts.some((text) => text.includes(form))).map((form) => `${form.slice(0, 12)}…`);
}

/** Stops a running command (`serve`, `watch`) with SIGTERM, as a service manager does, and waits for its exit. */
export function stopSigner(running: ReturnType<typeof spawnSigner>): Promise<SignerRun> {
  running.child.kill("SIGTERM");
  return running.done;
}

/** The JSON lines a command printed on standard output (`serve`'s decisions), parsed. */
export function jsonLines(run: SignerRun): Record<string, any>[] {
  return run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}
