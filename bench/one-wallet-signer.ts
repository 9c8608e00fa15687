/**
 * The reference signer as a hot wallet runs it (CONTRACT §12, §17), for bench/one-wallet.ts: a
 * signer home set up with its own commands (init, login, register-wallet), then `signer serve
 * --rules <file>` signing unattended, one JSON line per decision. The signer runs compiled, as
 * the web server and the daemon do (scripts/bundle.ts), so its start-up is not tsx's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stopChild, stopOnSignal } from "./stop-on-signal";
import { compiledAppArgs } from "./web-server";

const root = resolve(import.meta.dirname, "..");
const PASSPHRASE = "bench-one-wallet-passphrase";

type Address = `0x${string}`;

export type SignerHome = {
  env: Record<string, string>;
  /** Runs one signer command to its end; its standard output, or an error with both streams. */
  run(args: string[]): Promise<string>;
};

/** A fresh signer home under `work`, logged in to the web server at `baseUrl` (trusting `ca`) with `apiKey`. */
export async function signerHome(params: { work: string; baseUrl: string; ca: string; apiKey: string }): Promise<SignerHome> {
  const caFile = join(params.work, "signer-ca.pem");
  writeFileSync(caFile, params.ca);
  const env = { QC_SIGNER_HOME: join(params.work, "signer"), QC_SIGNER_PASSPHRASE: PASSPHRASE };
  const bundle = await compiledAppArgs("signer");
  const run = (args: string[]) =>
    new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, [...bundle, ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.on("exit", (code) => (code === 0 ? done(out) : fail(new Error(`signer ${args[0]} exited ${code}: ${out}${err}`))));
    });
  await run(["init"]);
  await run(["login", "--url", params.baseUrl, "--key", params.apiKey, "--ca", caFile]);
  return { env, run };
}

/** A wallet registered in `vaultId` with a new key of this signer's keystore. */
export async function registerSignerWallet(home: SignerHome, vaultId: string): Promise<{ walletId: string; address: Address }> {
  const out = await home.run(["register-wallet", "--vault", vaultId, "--label", "hot"]);
  const found = /Registered wallet (\S+) .*with address (0x[0-9a-fA-F]{40})/.exec(out);
  if (!found) throw new Error(`register-wallet printed no wallet: ${out}`);
  return { walletId: found[1]!, address: found[2]!.toLowerCase() as Address };
}

export type ServeDecision = { time: string; transactionId: string; type: string; decision: "SIGNED" | "REJECTED"; rule?: string };

export type ServeProcess = { child: ChildProcess; decisions: ServeDecision[]; stop(): Promise<void> };

/** `signer serve --rules <file>` with `rules` written to that file; its decision lines collected. */
export async function startServe(home: SignerHome, params: { work: string; rules: unknown; pollMs: number }): Promise<ServeProcess> {
  const rulesFile = join(params.work, "serve-rules.json");
  writeFileSync(rulesFile, JSON.stringify(params.rules));
  const child = spawn(
    process.execPath,
    [...(await compiledAppArgs("signer")), "serve", "--rules", rulesFile, "--poll-ms", String(params.pollMs)],
    {
      cwd: root,
      env: { ...process.env, ...home.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const release = stopOnSignal(() => stopChild(child));
  const decisions: ServeDecision[] = [];
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (line.trim()) decisions.push(JSON.parse(line) as ServeDecision);
  });
  // "serving…" and "stopped…" are routine; anything else it says is worth seeing.
  child.stderr!.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    if (!/^signer: (serving|stopped)/.test(text)) process.stderr.write(`[signer serve] ${text}`);
  });
  return {
    child,
    decisions,
    async stop() {
      await stopChild(child);
      release();
    },
  };
}
