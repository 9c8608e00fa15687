import type { StoredKey } from "../keystore/format";
import { secretKeyOf } from "../keystore/signer-key";

/**
 * The secret keys `signer serve` signs with, each derived from its keystore entry once and kept
 * until `close` zeroes them: a process that signs unattended holds the unlocked keystore for its
 * whole life anyway, and deriving an ML-DSA-87 key costs as much as half a signature.
 */
export class SecretKeys {
  readonly #keys = new Map<string, Uint8Array>();

  of(key: StoredKey): Uint8Array {
    let secretKey = this.#keys.get(key.address);
    if (!secretKey) {
      secretKey = secretKeyOf(key);
      this.#keys.set(key.address, secretKey);
    }
    return secretKey;
  }

  close(): void {
    for (const secretKey of this.#keys.values()) secretKey.fill(0);
    this.#keys.clear();
  }
}
