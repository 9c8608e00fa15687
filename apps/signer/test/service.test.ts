import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTenantFixture, createKeyFixture, type TenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { hexToBytes, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKeystore } from "../src/lib/keystore/keystore";
import { secretKeyOf } from "../src/lib/keystore/signer-key";
import { leaks, runSigner } from "./run-signer";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./service-harness";
import { tempDir, TEST_PASSPHRASE } from "./signer-home";

describe("signer CLI against the real server", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  /** The signer's own API key: the signer scope only, which every command needs and no integration key has. */
  let signerKey: { keyId: string; secret: string };
  let caFile: string;
  let home: string;
  let url: string;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    signerKey = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["signer"]);
    const dir = tempDir("qc-signer-service-");
    caFile = join(dir, "localhost-cert.pem");
    writeFileSync(caFile, server.tls.cert);
    home = join(dir, "signer");
    url = `https://127.0.0.1:${server.httpsPort}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  const signer = (args: string[], stdin?: string) =>
    runSigner(args, { home, passphrase: TEST_PASSPHRASE, ...(stdin === undefined ? {} : { stdin }) });
  const rest = (method: string, path: string, body?: unknown) =>
    call(server, path, {
      method,
      headers: { authorization: tenant.authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("init → login → enroll → a generated wallet uses an enrolled key → register-wallet", async () => {
    const init = await signer(["init"]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`Created the keystore ${join(home, "keystore.json")}`);

    // TLS verification is on: the self-signed development certificate needs --ca.
    const untrusted = await signer(["login", "--url", url, "--key", `${signerKey.keyId}:${signerKey.secret}`]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/cannot verify the TLS certificate of 127\.0\.0\.1:\d+ \(\w+\); .* --ca <pem file>/);
    const wrongKey = await signer(["login", "--url", url, "--key", `${signerKey.keyId}:${"0".repeat(64)}`, "--ca", caFile]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(
      /the service refused GET \/v1\/onboarding\/status: .*\(UNAUTHENTICATED 1010, request [^)]+\); check the API key/,
    );

    // An integration key (write, even admin) is refused at login: it cannot reach the signing queue.
    for (const scopes of [["write"], ["admin"]] as const) {
      const integration = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, [...scopes]);
      const refusedLogin = await signer(["login", "--url", url, "--key", `${integration.keyId}:${integration.secret}`, "--ca", caFile]);
      expect(refusedLogin.code).toBe(1);
      expect(refusedLogin.stderr).toContain("INSUFFICIENT_SCOPE 1020");
      expect(refusedLogin.stderr).toContain("the signer scope");
    }
    const login = await signer(["login", "--url", url, "--key", `${signerKey.keyId}:${signerKey.secret}`, "--ca", caFile]);
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`Logged in to ${url} (tenant ${tenant.tenantId}). The API key is stored encrypted in the keystore.\n`);

    const enroll = await signer(["enroll", "--count", "30"]);
    expect(enroll.stderr).toBe("");
    expect(enroll.code).toBe(0);
    // Two batches (25 + 5), one progress line each when not on a terminal.
    expect(enroll.stdout).toBe(
      [
        "Enrolling keys: 0/30",
        "Enrolling keys: 25/30",
        "Enrolling keys: 30/30",
        "Enrolled 30 keys. The service has 30 available and 0 assigned.",
        "",
      ].join("\n"),
    );
    expect((await rest("GET", "/v1/signer/keys")).json()).toEqual({ available: 30, assigned: 0 });

    const listed = JSON.parse((await signer(["keys", "list", "--json"])).stdout) as {
      keys: { address: string; publicKey: string; status: string }[];
    };
    expect(listed.keys).toHaveLength(30);
    expect(listed.keys.every((key) => key.status === "ENROLLED")).toBe(true);
    const rows = await t.db.select().from(schema.signerKeys).where(eq(schema.signerKeys.tenantId, tenant.tenantId));
    expect(new Set(rows.map((row) => `${row.address}/${row.publicKey}`))).toEqual(
      new Set(listed.keys.map((key) => `${key.address}/${key.publicKey}`)),
    );

    const vault = (await rest("POST", "/v1/vault/accounts", { name: "Treasury", networkCode: "QUANTUM_SANDBOX" })).json() as { id: string };
    const generated = await rest("POST", `/v1/vault/accounts/${vault.id}/wallets/generate`, { label: "hot" });
    expect(generated.status, generated.text).toBe(201);
    const wallet = generated.json() as { address: string; publicKey: string; type: string };
    expect(wallet.type).toBe("SIGNER_MANAGED");
    // Its key is one this signer holds: the keystore has the secret for the address the service handed out.
    const keystore = await openKeystore(join(home, "keystore.json"), TEST_PASSPHRASE);
    const held = keystore.findKey(wallet.address);
    expect(held).toMatchObject({ status: "ENROLLED", publicKey: wallet.publicKey });
    expect(secretKeyOf(held!)).toHaveLength(4896);

    const register = await signer(["register-wallet", "--vault", vault.id, "--label", "cold"]);
    expect(register.stderr).toBe("");
    expect(register.code).toBe(0);
    const registered = /Registered wallet (\S+) \(REGISTERED\) with address (0x[0-9a-f]{40}) in vault (\S+);/.exec(register.stdout);
    expect(registered, register.stdout).not.toBeNull();
    const [row] = await t.db.select().from(schema.wallets).where(eq(schema.wallets.id, registered![1]!));
    expect(row).toMatchObject({ type: "REGISTERED", address: registered![2], vaultId: vault.id, label: "cold" });
    const after = await openKeystore(join(home, "keystore.json"), TEST_PASSPHRASE);
    expect(after.findKey(registered![2]!)).toMatchObject({
      status: "REGISTERED",
      walletId: registered![1],
      vaultId: vault.id,
      label: "cold",
    });

    // Importing a seed registers that exact key; the same address again is refused by the
    // service and the keystore keeps the key it already had.
    const seedFile = join(home, "..", "seed.txt");
    writeFileSync(seedFile, `0x${"42".repeat(32)}\n`, { mode: 0o600 });
    const imported = await signer(["register-wallet", "--vault", vault.id, "--seed-file", seedFile]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(", imported, is in this keystore.");
    const again = await signer(["register-wallet", "--vault", vault.id, "--seed-file", seedFile]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("ADDRESS_ALREADY_REGISTERED 1103");
    const final = await openKeystore(join(home, "keystore.json"), TEST_PASSPHRASE);
    expect(final.keys.filter((key) => key.origin === "IMPORTED")).toHaveLength(1);

    // A key that lost the signer scope (here: the keystore's key replaced by a write key, as a
    // login before this change allowed) cannot enroll; nothing is left behind in the keystore.
    const writer = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["write"]);
    const store = await openKeystore(join(home, "keystore.json"), TEST_PASSPHRASE);
    await store.update((contents) => {
      contents.apiKey = `${writer.keyId}:${writer.secret}`;
    });
    store.close();
    const refused = await signer(["enroll", "--count", "2"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("INSUFFICIENT_SCOPE 1020");
    expect((await openKeystore(join(home, "keystore.json"), TEST_PASSPHRASE)).keys).toHaveLength(final.keys.length);

    // The service holds no secret of any key, and no run printed one (nor the API secret or
    // the passphrase).
    const secrets = final.keys.flatMap((key) => [hexToBytes(key.seed as Hex), secretKeyOf(key).slice(32, 64)]);
    const stored = JSON.stringify(await t.db.select().from(schema.signerKeys)) + JSON.stringify(await t.db.select().from(schema.wallets));
    expect(leaks(secrets, [stored])).toEqual([]);
    expect(leaks([...secrets, tenant.secret, signerKey.secret, writer.secret, TEST_PASSPHRASE])).toEqual([]);
    // Fifteen CLI processes, each starting TypeScript and opening the keystore (scrypt at
    // N = 2^17): on a 2-core machine under a heavy load that took longer than the file's 120 s.
  }, 300_000);
});
