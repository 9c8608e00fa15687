import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKeystore } from "../src/lib/keystore/keystore";
import { keyFromSeed, type KeyMaterial } from "../src/lib/keystore/signer-key";
import { writeProfile } from "../src/lib/profile";

/**
 * scrypt at its lowest accepted cost: a keystore made with it opens in milliseconds, so the
 * many CLI runs of a review test do not each pay half a second. `init` always uses the default.
 */
export const FAST_KDF = { n: 2 ** 14, r: 8, p: 1 };

export const TEST_PASSPHRASE = "test passphrase, long enough";

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A signer home as `init`, `login` and `enroll` would leave it, written through the library:
 * `keys` enrolled keys, the API key stored encrypted, the profile pointing at `url`.
 */
export async function prepareSignerHome(options: { url: string; apiKey: string; tenantId: string; keys: number; passphrase?: string }) {
  const home = tempDir("qc-signer-home-");
  const passphrase = options.passphrase ?? TEST_PASSPHRASE;
  const keystore = await createKeystore(join(home, "keystore.json"), passphrase, { kdf: FAST_KDF });
  const keys: KeyMaterial[] = Array.from({ length: options.keys }, () => keyFromSeed());
  const now = new Date().toISOString();
  await keystore.update((contents) => {
    contents.apiKey = options.apiKey;
    contents.keys.push(
      ...keys.map((key) => ({
        ...key,
        origin: "GENERATED" as const,
        status: "ENROLLED" as const,
        tenantId: options.tenantId,
        createdAt: now,
        acceptedAt: now,
        vaultId: null,
        walletId: null,
        label: null,
      })),
    );
  });
  keystore.close();
  writeProfile(join(home, "profile.json"), { url: options.url, tenantId: options.tenantId, ca: null });
  return { home, passphrase, keys };
}
