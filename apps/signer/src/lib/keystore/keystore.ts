import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic, type WriteFileAtomicOptions } from "../atomic-write";
import { SignerError, UsageError, WrongPassphraseError } from "../errors";
import { withFileLock } from "../file-lock";
import {
  KEYSTORE_VERSION,
  deriveKeystoreKey,
  newKeystoreHeader,
  parseKeystoreFile,
  sealKeystore,
  unsealKeystore,
  type KdfParameters,
  type KeystoreContents,
  type KeystoreHeader,
  type StoredApprovalKey,
  type StoredKey,
} from "./format";

export const MIN_PASSPHRASE_LENGTH = 12;

export type KeystoreUpdateOptions = Pick<WriteFileAtomicOptions, "beforeRename">;

/**
 * A decrypted keystore. It keeps the derived encryption key (not the passphrase) so that
 * changes can be written back; every change re-reads the file under a lock first, so two
 * signer processes never drop each other's keys.
 */
export class UnlockedKeystore {
  readonly path: string;
  #header: KeystoreHeader;
  #key: Uint8Array;
  #contents: KeystoreContents;

  constructor(path: string, header: KeystoreHeader, key: Uint8Array, contents: KeystoreContents) {
    this.path = path;
    this.#header = header;
    this.#key = key;
    this.#contents = contents;
  }

  get keys(): readonly StoredKey[] {
    return this.#contents.keys;
  }

  /** The approval keys (CONTRACT §15): they sign approvals only, never a transaction. */
  get approvalKeys(): readonly StoredApprovalKey[] {
    return this.#contents.approvalKeys;
  }

  get apiKey(): string | null {
    return this.#contents.apiKey;
  }

  findKey(address: string): StoredKey | undefined {
    const wanted = address.toLowerCase();
    return this.#contents.keys.find((key) => key.address === wanted);
  }

  /** Applies `change` to the current contents on disk and writes them back atomically. */
  async update(change: (contents: KeystoreContents) => void, options: KeystoreUpdateOptions = {}): Promise<void> {
    await withFileLock(this.path, () => {
      const file = parseKeystoreFile(this.path, readKeystoreText(this.path));
      if (file.kdf.salt !== this.#header.kdf.salt) {
        throw new SignerError(`${this.path} was replaced by another keystore while this command ran; run it again`);
      }
      const current = unsealKeystore(file, this.#key);
      if (!current) throw new SignerError(`${this.path} changed and no longer decrypts with this passphrase; run the command again`);
      change(current);
      writeFileAtomic(this.path, `${JSON.stringify(sealKeystore(this.#header, this.#key, current), null, 2)}\n`, {
        mode: 0o600,
        ...options,
      });
      this.#contents = current;
    });
  }

  /** Forgets the derived key; the object is unusable afterwards. */
  close(): void {
    this.#key.fill(0);
  }
}

function readKeystoreText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SignerError(`no keystore at ${path}: run \`signer init\` first`);
    throw new SignerError(`cannot read the keystore ${path} (${(error as NodeJS.ErrnoException).code ?? "read error"})`);
  }
}

export function keystoreExists(path: string): boolean {
  return existsSync(path);
}

/** Decrypts the keystore at `path`; a wrong passphrase is a `WrongPassphraseError`. */
export async function openKeystore(path: string, passphrase: string): Promise<UnlockedKeystore> {
  const file = parseKeystoreFile(path, readKeystoreText(path));
  const key = await deriveKeystoreKey(passphrase, file);
  const contents = unsealKeystore(file, key);
  if (!contents) {
    key.fill(0);
    throw new WrongPassphraseError(path);
  }
  // Written back in the current version whatever version was read (KEYSTORE_VERSION).
  return new UnlockedKeystore(
    path,
    { format: file.format, version: KEYSTORE_VERSION, kdf: file.kdf, cipher: { name: file.cipher.name } },
    key,
    contents,
  );
}

/**
 * Creates an empty keystore (mode 0600, its directory 0700). Refuses to replace an existing
 * one: that would destroy the only copy of enrolled keys.
 */
export async function createKeystore(path: string, passphrase: string, options: { kdf?: KdfParameters } = {}): Promise<UnlockedKeystore> {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) {
    throw new UsageError(`the passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const header = newKeystoreHeader(options.kdf);
  const key = await deriveKeystoreKey(passphrase, header);
  const contents: KeystoreContents = { keys: [], approvalKeys: [], apiKey: null };
  await withFileLock(path, () => {
    if (existsSync(path)) throw new SignerError(`a keystore already exists at ${path}; it is never overwritten`);
    writeFileAtomic(path, `${JSON.stringify(sealKeystore(header, key, contents), null, 2)}\n`, { mode: 0o600 });
  });
  return new UnlockedKeystore(path, header, key, contents);
}
