/**
 * KEY NAMES: lower-case, delete `-` and `_`, exact match against {privatekey, secretkey,
 * privkey, seed, seedphrase, mnemonic, recoveryphrase, xprv}. A present key with such a
 * name is rejected WHATEVER its value (null, "", 0, {} included): asking the service to
 * take key material by name is the violation. `publicKey`, `keyId`, `seedless`,
 * `secret`, `mnemonicHint` pass (their values are still scanned). No Unicode folding.
 */
const KEY_NAMES: ReadonlySet<string> = new Set([
  "privatekey",
  "secretkey",
  "privkey",
  "seed",
  "seedphrase",
  "mnemonic",
  "recoveryphrase",
  "xprv",
]);

const KEY_NAME_MEMO = new Map<string, boolean>();
const KEY_NAME_MEMO_MAX = 4096;
const KEY_NAME_MEMO_MAX_LEN = 64;
const SEPARATORS = /[-_]/g;

/** Lower-cased first letters of the names: m, p, r, s, x. */
const FIRST_LETTER = new Uint8Array(128);
for (const n of KEY_NAMES) FIRST_LETTER[n.charCodeAt(0)] = FIRST_LETTER[n.charCodeAt(0) - 32] = 1;

export function isKeyMaterialKeyName(name: string): boolean {
  if (name.length < 4) return false; // shortest normalised names: "seed", "xprv"
  let i = 0;
  let c = name.charCodeAt(0);
  while (c === 45 || c === 95) c = name.charCodeAt(++i); // skip leading '-' / '_' (NaN at the end)
  if (!(c < 128 && FIRST_LETTER[c] === 1)) return false;
  const memo = KEY_NAME_MEMO.get(name);
  if (memo !== undefined) return memo;
  const verdict = KEY_NAMES.has(name.replace(SEPARATORS, "").toLowerCase());
  if (name.length <= KEY_NAME_MEMO_MAX_LEN) {
    if (KEY_NAME_MEMO.size >= KEY_NAME_MEMO_MAX) KEY_NAME_MEMO.clear();
    KEY_NAME_MEMO.set(name, verdict);
  }
  return verdict;
}
