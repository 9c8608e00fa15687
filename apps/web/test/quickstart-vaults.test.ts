import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, docBlocks, runBash } from "./doc-runner";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

describe("docs/quickstart-vaults.md, executed", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 50 });
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
  });
  afterAll(() => server?.close());

  it("creates a vault, enrolls keys with the signer, generates a wallet, funds it and reads its balance", async () => {
    const blocks = docBlocks("quickstart-vaults.md");
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    // Two keys, as the walk-through asks: the integration's (write) and the signer's (signer only).
    const integration = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["write"]);
    const signerKey = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["signer"]);
    const dir = mkdtempSync(join(tmpdir(), "qc-quickstart-"));
    // The test server's own self-signed certificate stands in for .data/tls/localhost-cert.pem.
    const ca = join(dir, "localhost-cert.pem");
    writeFileSync(ca, server.tls.cert);
    const env = {
      QC: `https://127.0.0.1:${server.httpsPort}`,
      QC_TOKEN: `${integration.keyId}:${integration.secret}`,
      QC_SIGNER_TOKEN: `${signerKey.keyId}:${signerKey.secret}`,
      QC_SANDBOX_RPC: devnet().url,
      QC_CA: ca,
      QC_SIGNER_HOME: join(dir, "signer"),
      QC_SIGNER_PASSPHRASE: "quickstart keystore passphrase",
    };
    const result = await runBash(blocks.join("\n"), { env });
    expect(result.stderr, describeRun(result)).toBe("");
    expect(result.code).toBe(0);

    const lines = result.stdout.trim().split("\n");
    const balance = JSON.parse(lines.at(-1)!);
    const [wallet] = await t.db.select().from(schema.wallets).where(eq(schema.wallets.tenantId, tenant.tenantId));
    expect(balance).toMatchObject({
      walletId: wallet!.id,
      assetId: "011620ab-6fee-5894-b105-6c22053cf11e",
      balance: "1000000000000000000",
    });
    expect(wallet).toMatchObject({ type: "SIGNER_MANAGED", label: "hot wallet" });
    expect(result.stdout).toContain(`Logged in to ${env.QC} (tenant ${tenant.tenantId}).`);
    expect(result.stdout).toContain("Enrolled 5 keys. The service has 5 available and 0 assigned.");
    expect(result.stdout).toContain('{"available":5,"assigned":0}');

    // The generated wallet's key is the oldest one the signer enrolled, and the signer holds it
    // in its encrypted keystore (apps/signer/test/service.test.ts checks the service holds no secret).
    const listed = await runBash("./qc signer keys list --json", { env });
    expect(listed.stderr).toBe("");
    const { keys } = JSON.parse(listed.stdout) as { keys: { address: string; publicKey: string; status: string }[] };
    expect(keys).toHaveLength(5);
    expect(keys.every((key) => key.status === "ENROLLED")).toBe(true);
    expect(keys[0]).toMatchObject({ address: wallet!.address, publicKey: wallet!.publicKey });
    const keystore = join(env.QC_SIGNER_HOME, "keystore.json");
    expect(statSync(keystore).mode & 0o777).toBe(0o600);
    expect(readFileSync(keystore, "utf8")).not.toContain(wallet!.address.slice(2));
  });
});
