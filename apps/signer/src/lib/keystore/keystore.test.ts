import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hexToBytes, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { FAST_KDF, tempDir } from "../../../test/signer-home";
import { leaks } from "../../../test/run-signer";
import { SignerError, WrongPassphraseError } from "../errors";
import type { StoredKey } from "./format";
import { createKeystore, openKeystore } from "./keystore";
import { keyFromSeed, secretKeyOf } from "./signer-key";

const PASSPHRASE = "a keystore passphrase";
const API_KEY = `qc_${"a".repeat(32)}:${"7".repeat(64)}`;

function storedKey(tenantId = "tenant-1"): StoredKey {
  return {
    ...keyFromSeed(),
    origin: "GENERATED",
    status: "ENROLLED",
    tenantId,
    createdAt: "2026-11-21T10:00:00.000Z",
    acceptedAt: "2026-11-21T10:00:01.000Z",
    vaultId: null,
    walletId: null,
    label: null,
  };
}

async function keystoreWithKeys(count: number) {
  const path = join(tempDir("qc-keystore-"), "keystore.json");
  const keystore = await createKeystore(path, PASSPHRASE, { kdf: FAST_KDF });
  const keys = Array.from({ length: count }, () => storedKey());
  await keystore.update((contents) => {
    contents.keys.push(...keys);
    contents.apiKey = API_KEY;
  });
  return { path, keystore, keys };
}

describe("keystore", () => {
  it("round-trips keys and the API key through the encrypted file", async () => {
    const { path, keys } = await keystoreWithKeys(3);
    const reopened = await openKeystore(path, PASSPHRASE);
    expect(reopened.keys).toEqual(keys);
    expect(reopened.apiKey).toBe(API_KEY);
    // The seed gives back the stored key pair.
    expect(secretKeyOf(reopened.keys[0]!)).toHaveLength(4896);
  });

  it("uses scrypt at N = 2^17 by default", async () => {
    const path = join(tempDir("qc-keystore-"), "keystore.json");
    await createKeystore(path, PASSPHRASE);
    expect(JSON.parse(readFileSync(path, "utf8")).kdf).toMatchObject({ name: "scrypt", n: 2 ** 17, r: 8, p: 1 });
  });

  it("refuses a wrong passphrase with a clear error", async () => {
    const { path } = await keystoreWithKeys(1);
    const opening = openKeystore(path, "not the passphrase");
    await expect(opening).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(openKeystore(path, "not the passphrase")).rejects.toThrow(
      `wrong passphrase: the keystore ${path} could not be decrypted with it`,
    );
  });

  it("writes the file with mode 0600, in a 0700 directory, and keeps the mode on every update", async () => {
    const { path, keystore } = await keystoreWithKeys(1);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    await keystore.update((contents) => void contents.keys.push(storedKey()));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("holds no key material, API secret or passphrase in clear, in any encoding", async () => {
    const { path, keys } = await keystoreWithKeys(2);
    const text = readFileSync(path, "utf8");
    const secrets = keys.flatMap((key) => [hexToBytes(key.seed as Hex), secretKeyOf(key).slice(32, 64)]);
    expect(leaks([...secrets, API_KEY.split(":")[1]!, PASSPHRASE], [text])).toEqual([]);
    // Nor which addresses it holds.
    for (const key of keys) expect(text).not.toContain(key.address.slice(2));
  });

  it("fails like a wrong passphrase when the header or the ciphertext was altered", async () => {
    const { path } = await keystoreWithKeys(1);
    const original = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...original, kdf: { ...original.kdf, n: 2 ** 15 } }));
    await expect(openKeystore(path, PASSPHRASE)).rejects.toBeInstanceOf(WrongPassphraseError);
    const bytes = Buffer.from(original.ciphertext, "base64");
    bytes[10] = bytes[10]! ^ 1;
    writeFileSync(path, JSON.stringify({ ...original, ciphertext: bytes.toString("base64") }));
    await expect(openKeystore(path, PASSPHRASE)).rejects.toBeInstanceOf(WrongPassphraseError);
  });

  it("names what is wrong with a file that is not a keystore, or of a newer version", async () => {
    const { path } = await keystoreWithKeys(0);
    const original = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...original, version: 3 }));
    await expect(openKeystore(path, PASSPHRASE)).rejects.toThrow(
      "is a version 3 keystore; this signer reads versions 1 to 2: upgrade the signer",
    );
    writeFileSync(path, JSON.stringify({ ...original, version: 0 }));
    await expect(openKeystore(path, PASSPHRASE)).rejects.toThrow(/not a valid signer keystore \(version:/);
    writeFileSync(path, JSON.stringify({ ...original, kdf: { ...original.kdf, n: 2 ** 30 } }));
    await expect(openKeystore(path, PASSPHRASE)).rejects.toThrow(/not a valid signer keystore \(kdf\.n:/);
    writeFileSync(path, "{");
    await expect(openKeystore(path, PASSPHRASE)).rejects.toThrow("is not a signer keystore (not JSON)");
    await expect(openKeystore(join(path, "..", "absent.json"), PASSPHRASE)).rejects.toThrow("run `signer init` first");
  });

  it("reads a version 1 keystore (no approval keys) and writes it back as version 2 on its first change", async () => {
    // Written by the version 1 signer (commit 035d326): one imported key (seed 0x0707…07) and an API key.
    const path = join(tempDir("qc-keystore-"), "keystore.json");
    writeFileSync(path, readFileSync(new URL("../../../test/fixtures/keystore-v1.json", import.meta.url)), { mode: 0o600 });
    const opened = await openKeystore(path, "test passphrase, long enough");
    expect(JSON.parse(readFileSync(path, "utf8")).version).toBe(1);
    expect(opened.apiKey).toBe(API_KEY);
    expect(opened.keys.map((key) => [key.address, key.status, key.origin])).toEqual([
      [keyFromSeed(new Uint8Array(32).fill(7)).address, "ENROLLED", "IMPORTED"],
    ]);
    expect(opened.approvalKeys).toEqual([]);
    await opened.update((contents) => void contents.keys.push(storedKey()));
    expect(JSON.parse(readFileSync(path, "utf8")).version).toBe(2);
    const reopened = await openKeystore(path, "test passphrase, long enough");
    expect(reopened.keys).toHaveLength(2);
    expect(reopened.keys[0]).toEqual(opened.keys[0]);
    expect(reopened.approvalKeys).toEqual([]);
  });

  it("never replaces an existing keystore", async () => {
    const { path } = await keystoreWithKeys(1);
    await expect(createKeystore(path, PASSPHRASE, { kdf: FAST_KDF })).rejects.toThrow("a keystore already exists");
    expect((await openKeystore(path, PASSPHRASE)).keys).toHaveLength(1);
  });

  it("keeps the old file intact when the process dies between writing the new one and the rename", async () => {
    const { path, keys } = await keystoreWithKeys(2);
    const before = readFileSync(path);
    const crash = spawnSync(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("../../../test/fixtures/crash-before-rename.ts", import.meta.url)), path, PASSPHRASE],
      {
        encoding: "utf8",
      },
    );
    expect(crash.signal).toBe("SIGKILL");

    expect(readFileSync(path).equals(before)).toBe(true);
    const reopened = await openKeystore(path, PASSPHRASE);
    expect(reopened.keys).toEqual(keys);
    // The complete new file is left beside it (never read), and as private as the keystore.
    const leftovers = readdirSync(join(path, "..")).filter((name) => name.endsWith(".tmp"));
    expect(leftovers).toHaveLength(1);
    expect(statSync(join(path, "..", leftovers[0]!)).mode & 0o777).toBe(0o600);
    // The dead process's lock is taken over: the keystore stays writable.
    await reopened.update((contents) => void contents.keys.push(storedKey()));
    expect((await openKeystore(path, PASSPHRASE)).keys).toHaveLength(3);
  });

  it("loses no key when two holders of the keystore add keys at the same time", async () => {
    const { path } = await keystoreWithKeys(0);
    const [a, b] = await Promise.all([openKeystore(path, PASSPHRASE), openKeystore(path, PASSPHRASE)]);
    const added = Array.from({ length: 6 }, () => storedKey());
    await Promise.all(added.map((key, i) => (i % 2 === 0 ? a : b).update((contents) => void contents.keys.push(key))));
    const final = await openKeystore(path, PASSPHRASE);
    expect(new Set(final.keys.map((key) => key.address))).toEqual(new Set(added.map((key) => key.address)));
  });

  it("refuses a passphrase shorter than 12 characters at creation", async () => {
    const path = join(tempDir("qc-keystore-"), "keystore.json");
    await expect(createKeystore(path, "short", { kdf: FAST_KDF })).rejects.toBeInstanceOf(SignerError);
  });
});
