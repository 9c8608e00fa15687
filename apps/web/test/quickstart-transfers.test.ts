import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex } from "viem";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The signer's library, to read the seeds back out of the keystore the walk-through filled and
// look for them in its output (reached by path, as dashboard.test.ts does: no package dependency).
import { openKeystore, secretKeyOf } from "../../signer/src/lib";
import { newSignerKey, Q } from "./custody-helpers";
import { describeRun, docBlocks, runBash } from "./doc-runner";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { devnetConfig, startTransfersDaemon } from "./transfers-front-helpers";

const PASSPHRASE = "quickstart keystore passphrase";
const AMOUNT = 250_000_000_000_000_000n; // the walk-through's 0.25 Q

describe("docs/quickstart-transfers.md after docs/quickstart-vaults.md, executed", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 200 });
  let server: TestServer;
  let daemon: Daemon;

  beforeAll(async () => {
    // The web server and the daemon share one configuration, as `./qc start` gives them.
    const config = devnetConfig(devnet());
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  it("has the steps the walk-through promises", () => {
    const script = docBlocks("quickstart-transfers.md").join("\n");
    expect(script).toContain("X-Idempotency-Key");
    expect(script).toContain('echo "${DEST: -4}" | ./qc signer review "$TX_ID"');
    expect(script).toContain("/events");
    expect(script).not.toMatch(/(^|\s)pnpm\s/m); // only what the README's two commands installed
  });

  it("creates a transfer with curl, signs it in the signer after the typed confirmation, and it completes on chain", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    // Two keys, as the walk-through asks: the integration's (write) and the signer's (signer only).
    const integration = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["write"]);
    const signerKey = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["signer"]);
    const dir = mkdtempSync(join(tmpdir(), "qc-quickstart-transfers-"));
    // The test server's own self-signed certificate stands in for .data/tls/localhost-cert.pem.
    const ca = join(dir, "localhost-cert.pem");
    writeFileSync(ca, server.tls.cert);
    const destination = newSignerKey().address;
    const env = {
      QC: `https://127.0.0.1:${server.httpsPort}`,
      QC_TOKEN: `${integration.keyId}:${integration.secret}`,
      QC_SIGNER_TOKEN: `${signerKey.keyId}:${signerKey.secret}`,
      QC_SANDBOX_RPC: devnet().url,
      QC_CA: ca,
      QC_SIGNER_HOME: join(dir, "signer"),
      QC_SIGNER_PASSPHRASE: PASSPHRASE,
      DEST: destination,
    };

    const script = [...docBlocks("quickstart-vaults.md"), ...docBlocks("quickstart-transfers.md")].join("\n");
    const result = await runBash(script, { env, timeoutMs: 170_000 });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stderr, describeRun(result)).toBe("");

    // The service's view: one transfer (the replay created nothing), COMPLETED, signed by the signer.
    const rows = await t.db.select().from(schema.transactions).where(eq(schema.transactions.tenantId, tenant.tenantId));
    expect(rows).toHaveLength(1);
    const [transfer] = rows;
    expect(transfer).toMatchObject({ status: "COMPLETED", destinationAddress: destination.toLowerCase(), amount: AMOUNT.toString() });
    const [wallet] = await t.db.select().from(schema.wallets).where(eq(schema.wallets.tenantId, tenant.tenantId));
    expect(transfer!.sourceWalletId).toBe(wallet!.id);

    // The chain's view: the destination got the amount, the source paid the amount and the fee.
    const chain = devnet().publicClient();
    const receipt = await chain.getTransactionReceipt({ hash: transfer!.chainTxHash as `0x${string}` });
    expect(receipt.status).toBe("success");
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(fee).toBeGreaterThan(0n);
    expect(await chain.getBalance({ address: destination })).toBe(AMOUNT);
    expect(await chain.getBalance({ address: wallet!.address as `0x${string}` })).toBe(1n * Q - AMOUNT - fee);

    // What the reader sees at each step.
    const out = result.stdout;
    expect(out).toContain("HTTP 201");
    expect(out).toMatch(new RegExp(`"id":"${transfer!.id}"[^\\n]*"status":"SUBMITTED"`));
    expect(out).toMatch(/"status":"PENDING_SIGNATURE"/);
    expect(out).toContain(transfer!.id); // listed by `signer pending`
    expect(out).toContain(`Destination   ${destination.toLowerCase()}`);
    expect(out).toContain("Verified      the transaction to sign was rebuilt here");
    expect(out).toContain("Signed and submitted. Status: SIGNED");
    expect(out).toContain("status:        COMPLETED");
    expect(out).toContain(`chainTxHash:   ${transfer!.chainTxHash}`);
    expect(out).toContain(`blockNumber:   ${receipt.blockNumber}`);
    expect(out).toMatch(/confirmations: \d+ \(required 2\)/);
    for (const [from, to] of [
      ["(created)", "SUBMITTED"],
      ["SUBMITTED", "PENDING_SIGNATURE"],
      ["PENDING_SIGNATURE", "SIGNED"],
      ["SIGNED", "BROADCASTING"],
      ["BROADCASTING", "CONFIRMING"],
      ["CONFIRMING", "COMPLETED"],
    ]) {
      expect(out).toMatch(new RegExp(`${from!.replace(/[()]/g, "\\$&")}\\s+-> ${to}\\s`));
    }
    expect(out).toMatch(new RegExp(`PENDING_SIGNATURE -> SIGNED +api_key ${signerKey.keyId}`)); // the key the signer logged in with
    expect(out).toMatch(/SUBMITTED +-> PENDING_SIGNATURE system transfers\.check/);
    expect(out).toContain(`source:      ${Q} -> ${Q - AMOUNT - fee} Qwei (amount ${AMOUNT} + fee ${fee})`);
    expect(out).toContain(`destination: 0 -> ${AMOUNT} Qwei`);
    expect(out).toMatch(/^HTTP\/[\d.]+ 201/m);
    expect(out).toMatch(/^idempotent-replayed: true$/im);
    expect(out).toContain(`the first answer again, byte for byte: transaction ${transfer!.id}`);

    // No secret in anything printed: the passphrase, the API secret, the keys' seeds and secret keys.
    const keystore = await openKeystore(join(env.QC_SIGNER_HOME, "keystore.json"), PASSPHRASE);
    const secrets = [PASSPHRASE, tenant.secret, integration.secret, signerKey.secret];
    try {
      expect(keystore.keys.length).toBeGreaterThan(0);
      for (const key of keystore.keys) {
        secrets.push(key.seed.slice(2), key.seed.slice(2).toUpperCase(), bytesToHex(secretKeyOf(key)).slice(2, 130));
      }
    } finally {
      keystore.close();
    }
    const printed = result.stdout + result.stderr;
    expect(secrets.filter((secret) => printed.includes(secret)).map((secret) => `${secret.slice(0, 6)}…`)).toEqual([]);
  }, 180_000);
});
