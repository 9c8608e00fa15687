import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import type { TestDatabase } from "@qc/db/testing";
import type { TestDevnet } from "@qc/devnet/testing";
import { expect } from "vitest";
import { createVault } from "../../web/test/custody-helpers";
import { nativeTransfer, transfersClient } from "../../web/test/transfers-front-helpers";
import { writeProfile } from "../src/lib/profile";
import { jsonLines, runSigner, spawnSigner, stopSigner } from "./run-signer";
import { TEST_PEPPER, type TestServer } from "./service-harness";
import { prepareSignerHome, tempDir } from "./signer-home";

export const Q = 10n ** 18n;
export const PAYEE = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
export type GeneratedWallet = { id: string; address: `0x${string}`; publicKey: string };

/**
 * A tenant of the real stack (`useApprovalStack`) whose signer home (its own `signer` key, `enroll`
 * run) holds the keys of `count` generated wallets, each funded with 20 Q; `serve` started and
 * stopped on it with a rules file (`rules` at first, `writeRules` to change it).
 */
export async function signerOnStack(
  stack: { t: Pick<TestDatabase, "db">; devnet: () => TestDevnet; server: () => TestServer },
  count: number,
  rules: unknown,
) {
  const { t, devnet, server } = stack;
  const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
  const api = transfersClient(server, owner.authorization);
  const key = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, owner, ["signer"]);
  const url = `https://127.0.0.1:${server().httpsPort}`;
  const { home, passphrase } = await prepareSignerHome({ url, apiKey: `${key.keyId}:${key.secret}`, tenantId: owner.tenantId, keys: 0 });
  writeProfile(join(home, "profile.json"), { url, tenantId: owner.tenantId, ca: server().tls.cert });
  const enrolled = await runSigner(["enroll", "--count", String(count)], { home, passphrase });
  expect(enrolled.code, enrolled.stderr).toBe(0);
  const vault = await createVault(api);
  const wallets: GeneratedWallet[] = [];
  for (let i = 0; i < count; i += 1) {
    const generated = await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {});
    expect(generated.status, generated.text).toBe(201);
    wallets.push(generated.json() as GeneratedWallet);
    await devnet().fund(generated.json().address, 20n * Q);
  }
  const rulesFile = join(tempDir("qc-serve-stack-"), "rules.json");
  const writeRules = (value: unknown) => writeFileSync(rulesFile, JSON.stringify(value));
  writeRules(rules);
  const serve = () => spawnSigner(["serve", "--rules", rulesFile, "--poll-ms", "100"], { home, passphrase });
  const stop = async (running: ReturnType<typeof serve>) => {
    const run = await stopSigner(running);
    expect(run.code, run.stderr).toBe(0);
    expect(run.signal).toBeNull();
    return { run, lines: jsonLines(run) };
  };
  const transfer = async (amount: bigint, source = wallets[0]!, destinationAddress = PAYEE) => {
    const created = await api.createTransfer(nativeTransfer({ wallet: source }, amount, { destinationAddress }));
    expect(created.status, created.text).toBe(201);
    return created.json().id as string;
  };
  return { owner, api, key, home, passphrase, vault, wallets, writeRules, serve, stop, transfer };
}
