import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { hexToBytes, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredKey } from "../src/lib/keystore/format";
import { openKeystore } from "../src/lib/keystore/keystore";
import { secretKeyOf } from "../src/lib/keystore/signer-key";
import { leaks, runSigner } from "./run-signer";
import { startSignerDouble, type SignerDouble } from "./signer-double";
import { prepareSignerHome, tempDir, TEST_PASSPHRASE } from "./signer-home";

describe("signer login and enroll against a test double of the service", () => {
  let double: SignerDouble;
  const seen = new Map<string, StoredKey>();

  beforeAll(async () => {
    double = await startSignerDouble();
  });
  afterAll(async () => {
    await double?.close();
    expect(seen.size).toBeGreaterThan(25);
    const secrets = [...seen.values()].flatMap((key) => [hexToBytes(key.seed as Hex), secretKeyOf(key).slice(32, 64)]);
    expect(leaks([...secrets, double.apiKey.split(":")[1]!, TEST_PASSPHRASE])).toEqual([]);
  });

  async function freshHome() {
    const prepared = await prepareSignerHome({ url: double.url, apiKey: double.apiKey, tenantId: double.tenantId, keys: 0 });
    const keys = async () => {
      const keystore = await openKeystore(join(prepared.home, "keystore.json"), TEST_PASSPHRASE);
      for (const key of keystore.keys) seen.set(key.address, key);
      return keystore.keys;
    };
    return { home: prepared.home, keys, run: (args: string[]) => runSigner(args, { home: prepared.home, passphrase: TEST_PASSPHRASE }) };
  }

  it("removes the keys the service refused and the ones never sent: no orphan in the keystore", async () => {
    const { run, keys } = await freshHome();
    double.failEnrollment({ status: 400, skip: 1 });
    const result = await run(["enroll", "--count", "30"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "signer: enrolled 25 of 30 keys: the service refused POST /v1/signer/keys: ownership proof does not verify " +
        "(INVALID_OWNERSHIP_PROOF 1105",
    );
    expect(result.stderr).not.toContain("PENDING_ENROLLMENT");
    const stored = await keys();
    expect(stored).toHaveLength(25);
    expect(stored.every((key) => key.status === "ENROLLED")).toBe(true);
  });

  it("keeps keys whose upload may have reached the service as pending, and confirms them on the next run", async () => {
    const { run, keys } = await freshHome();
    double.failEnrollment({ status: 503, applied: true });
    const lost = await run(["enroll", "--count", "3"]);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain("3 key(s) whose upload may have reached the service are kept as PENDING_ENROLLMENT");
    expect((await keys()).map((key) => key.status)).toEqual(["PENDING_ENROLLMENT", "PENDING_ENROLLMENT", "PENDING_ENROLLMENT"]);

    const resumed = await run(["enroll", "--count", "0"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Enrolled 3 keys (3 of them left pending by an earlier run).");
    expect((await keys()).map((key) => key.status)).toEqual(["ENROLLED", "ENROLLED", "ENROLLED"]);
    expect((await run(["enroll", "--count", "0"])).stdout).toBe("Nothing to enroll.\n");
  });

  it("login checks the URL, the key and the certificate file before storing anything", async () => {
    const home = join(tempDir("qc-signer-login-"), "signer");
    const run = (args: string[]) => runSigner(args, { home, passphrase: TEST_PASSPHRASE });
    expect((await run(["init"])).code).toBe(0);
    const notPem = join(home, "..", "not.pem");
    writeFileSync(notPem, "hello");
    const usage = [
      ["login", "--url", "http://custody.example.com", "--key", double.apiKey],
      ["login", "--url", "ftp://127.0.0.1", "--key", double.apiKey],
      ["login", "--url", double.url, "--key", "no-colon"],
      ["login", "--url", double.url, "--key", double.apiKey, "--ca", notPem],
      ["login", "--url", double.url],
    ];
    for (const args of usage) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
    }
    expect((await run(["login", "--url", "http://custody.example.com", "--key", double.apiKey])).stderr).toContain(
      "plain http is allowed only for this machine",
    );
    expect((await run(["pending"])).stderr).toContain("not logged in: run `signer login");

    const login = await run(["login", "--url", double.url, "--key", double.apiKey]);
    expect(login.stderr).toBe("");
    expect(login.stdout).toBe(`Logged in to ${double.url} (tenant ${double.tenantId}). The API key is stored encrypted in the keystore.\n`);
    expect((await runSigner(["pending"], { home, passphrase: "the wrong passphrase" })).stderr).toMatch(
      /^signer: wrong passphrase: the keystore .* could not be decrypted/,
    );
    expect((await runSigner(["pending"], { home })).stderr).toBe(
      "signer: no passphrase: run the signer on a terminal, or set QC_SIGNER_PASSPHRASE for automation\n",
    );
  });
});
