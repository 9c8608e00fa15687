/**
 * The reference signer as a hot wallet runs it in a chaos scenario: a signer home (keystore with
 * enrolled keys, profile) for one tenant, then `signer serve --rules <file>` as a process, exactly
 * as `./qc signer serve` runs it (`node --import tsx apps/signer/src/main.ts`), its decision lines
 * (one JSON line each, CONTRACT §17) collected.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TenantFixture } from "@qc/core/testing";
import { createKeystore, createServiceClient, enrollKeys, signerApi, writeProfile } from "../../../signer/src/lib";
import { FAST_KDF } from "../../../signer/test/signer-home";
import { childHandle, type ChildHandle } from "./world";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const SIGNER_MAIN = fileURLToPath(new URL("../../../signer/src/main.ts", import.meta.url));
const PASSPHRASE = "chaos signer serve passphrase";

export interface ServeRules {
  maxAmountPerTransfer: Record<string, string>;
  dailyLimit: Record<string, string>;
  destinations: "ADDRESS_BOOK" | string[];
  types: string[];
}

/** One line `serve` wrote for a decision. */
export interface ServeDecision {
  transactionId: string;
  type: string;
  decision: "SIGNED" | "REJECTED";
  rule?: string;
  reason?: string;
}

export type ServeProcess = ChildHandle & { decisions: ServeDecision[] };

/**
 * A signer home for `tenant` logged in to the web server at `url` (trusting `ca`, a PEM), with
 * `keys` keys enrolled with the service (the pool its wallets are generated from).
 */
export async function serveHome(params: { url: string; ca: string; tenant: TenantFixture; keys: number }): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "qc-chaos-serve-"));
  const apiKey = `${params.tenant.keyId}:${params.tenant.secret}`;
  const keystore = await createKeystore(join(home, "keystore.json"), PASSPHRASE, { kdf: FAST_KDF });
  try {
    await keystore.update((contents) => {
      contents.apiKey = apiKey;
    });
    const api = signerApi(createServiceClient({ url: params.url, apiKey, ca: params.ca }));
    await enrollKeys({ keystore, api, tenantId: params.tenant.tenantId, count: params.keys });
  } finally {
    keystore.close();
  }
  writeProfile(join(home, "profile.json"), { url: params.url, tenantId: params.tenant.tenantId, ca: params.ca });
  return home;
}

/** `signer serve --rules <file>` on `home`, polling every `pollMs`. */
export function startServe(home: string, rules: ServeRules, pollMs = 100): ServeProcess {
  const rulesFile = join(home, "rules.json");
  writeFileSync(rulesFile, JSON.stringify(rules));
  const child = spawn(process.execPath, ["--import", "tsx", SIGNER_MAIN, "serve", "--rules", rulesFile, "--poll-ms", String(pollMs)], {
    cwd: ROOT,
    env: { ...process.env, QC_SIGNER_HOME: home, QC_SIGNER_PASSPHRASE: PASSPHRASE },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const decisions: ServeDecision[] = [];
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (line.trim()) decisions.push(JSON.parse(line) as ServeDecision);
  });
  return { ...childHandle("signer serve", child), decisions };
}
