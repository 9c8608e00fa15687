import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DOC = join(ROOT, "docs/quickstart-vaults.md");

/** The ```sh blocks of a Markdown file, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

function run(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", ["-euo", "pipefail", "-c", script], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("docs/quickstart-vaults.md, executed", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 50 });
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
  });
  afterAll(() => server?.close());

  it("creates a vault, enrolls keys with the script, generates a wallet, funds it and reads its balance", async () => {
    const blocks = shellBlocks(readFileSync(DOC, "utf8"));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const keystore = join(mkdtempSync(join(tmpdir(), "qc-quickstart-")), "signer-keys.json");
    const result = await run(blocks.join("\n"), {
      QC: `https://127.0.0.1:${server.httpsPort}`,
      QC_TOKEN: `${tenant.keyId}:${tenant.secret}`,
      QC_SANDBOX_RPC: devnet().url,
      QC_KEYSTORE: keystore,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const lines = result.stdout.trim().split("\n");
    const balance = JSON.parse(lines.at(-1)!);
    const [wallet] = await t.db.select().from(schema.wallets).where(eq(schema.wallets.tenantId, tenant.tenantId));
    expect(balance).toMatchObject({ walletId: wallet!.id, assetId: "011620ab-6fee-5894-b105-6c22053cf11e", balance: "1000000000000000000" });
    expect(wallet).toMatchObject({ type: "SIGNER_MANAGED", label: "hot wallet" });
    expect(result.stdout).toContain('{"enrolled":5,"skipped":0,"available":5,"assigned":0}');
    expect(result.stdout).toContain('{"available":5,"assigned":0}');

    // The keystore holds the secret of the generated wallet's key; the service holds none.
    const stored = JSON.parse(readFileSync(keystore, "utf8")) as { keys: { address: string; secretKey: string; publicKey: string }[] };
    expect(stored.keys).toHaveLength(5);
    expect(stored.keys[0]!.address).toBe(wallet!.address);
    expect(stored.keys[0]!.publicKey).toBe(wallet!.publicKey);
    expect(statSync(keystore).mode & 0o777).toBe(0o600);
    const everything = JSON.stringify(await t.db.select().from(schema.signerKeys)) + JSON.stringify(await t.db.select().from(schema.wallets));
    for (const key of stored.keys) expect(everything).not.toContain(key.secretKey.slice(2, 200));
  });
});
