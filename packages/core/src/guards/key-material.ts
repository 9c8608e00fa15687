/**
 * Key-material guard (CONTRACT.md §9): `findKeyMaterial(body)` scans a parsed JSON body and
 * returns the first key material found (document order, depth-first) or null. Pure and
 * synchronous (module state: a bounded memo of key-name verdicts and scratch buffers,
 * neither can change a result). A finding is a kind plus an RFC 6901 path (`~` → `~0`,
 * `/` → `~1`) and NEVER the value, so it can be audited as is. Input must be JSON data
 * (acyclic, as from JSON.parse). Policy: fail closed — when in doubt, reject.
 *
 * KEY NAMES: lower-case, delete `-` and `_`, exact match against {privatekey, secretkey,
 *   privkey, seed, seedphrase, mnemonic, recoveryphrase, xprv}. A present key with such a
 *   name is rejected WHATEVER its value (null, "", 0, {} included): asking the service to
 *   take key material by name is the violation. `publicKey`, `keyId`, `seedless`,
 *   `secret`, `mnemonicHint` pass (their values are still scanned). No Unicode folding.
 *
 * WHERE: every string value and every object key, anywhere inside the string ("my key is
 *   xprv…" is rejected). A finding inside an object *key* is reported as
 *   `<object path>/~key` (`~k` is an invalid RFC 6901 escape, so it cannot collide with a
 *   real key, and the secret never enters the path). Keys are checked before their values.
 *   Numbers, booleans and null are never key material by value.
 *
 * BIP-39 MNEMONIC (English list): words = maximal runs of ASCII letters, any case; ANY
 *   non-letter run separates them (spaces, newlines, commas, "1." numbering, `+`…). Every
 *   window of 12/15/18/21/24 consecutive wordlist words is checked for a valid checksum
 *   (own bit-packing + sha256, cross-checked against `validateMnemonic` in the tests), so
 *   a mnemonic embedded in a sentence is found. Also an array whose consecutive elements
 *   are single wordlist words (["abandon", …]), reported at the array.
 *   FALSE POSITIVES (accepted): an all-wordlist window of n words passes the checksum by
 *   chance with p = 2^-(n/3) — 1/16 for 12 words … 1/256 for 24 — so a run of k ≥ 12
 *   wordlist words is rejected with p ≈ 1 − (15/16)^(k−11)·(31/32)^(k−14)·…. Prose rarely
 *   has such runs: over 560k words of English READMEs and licences, 21.5 % of words are
 *   wordlist words and only two runs reached 12 (12 and 17 words: ~0.45 expected false
 *   rejections), i.e. roughly one false rejection per million words of prose; none of
 *   6,963 README paragraphs had such a run. "the quick brown fox…" passes.
 *   BUDGET: at most 1024 checksum windows per body, then BIP39_MNEMONIC (fail closed). An
 *   honest body reaching it would have been rejected by chance anyway (p > 1 − 10^-20); it
 *   bounds a crafted all-wordlist body to ~1024 sha256 (~2 ms).
 *   Not detected: other languages, 4-letter abbreviations, words spread over object values.
 *
 * EXTENDED PRIVATE KEYS, in each maximal base58 run of 100–120 chars: (a) starts with
 *   xprv/tprv/yprv/zprv/uprv/vprv/Yprv/Zprv/Uprv/Vprv → rejected without any checksum
 *   (fail closed on look-alikes); (b) else, if 107–115 chars and not starting with a known
 *   PUBLIC prefix (xpub, tpub, … are never decoded: the common legitimate case), decoded:
 *   a 78-byte payload with a valid double-sha256 checksum and key-data byte 45 = 0x00 is a
 *   private key whatever its version (Ltpv, dgpv…). Random text passes (b) with p = 2^-32.
 *
 * PEM: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/i anywhere: a superset of the
 *   contract's (RSA |EC |ENCRYPTED |OPENSSH |DSA )? list (also "PGP PRIVATE KEY BLOCK").
 *   Public keys and certificates pass; bare base64 DER without the armour is not detected.
 *
 * WIF: a maximal base58 run of 51 chars starting 5/9 or 52 chars starting K/L/c that is a
 *   valid base58check (double sha256, always verified) of 0x80|0xef + 32 bytes (+ 0x01 for
 *   52 chars). Other coins' version bytes are not covered.
 *
 * ML-DSA SECRET KEYS (2560/4032/4896 B = ML-DSA-44/65/87): a maximal hex run of exactly
 *   5120/8064/9792 digits (so `0x…` and `sk_…` prefixes are fine), or a maximal run of the
 *   base64 ∪ base64url alphabet of exactly 3414/5376/6528 chars (`=` ends a run, so padded
 *   or not). Newlines inside a run are skipped (wrapped encodings), and when a run spans
 *   lines its first/last line may be a word of the surrounding text, so the length without
 *   them counts too. Also an array of exactly 2560/4032/4896 integers 0–255 (serialised
 *   bytes, e.g. Buffer JSON). Public keys (1312/1952/2592 B), signatures (2420/3309/4627 B)
 *   and 64-hex pass in every encoding. FALSE POSITIVES (accepted): any other blob of exactly
 *   such an encoded length, e.g. 2688 bytes in hex (5376 hex digits are also base64 of
 *   4032 bytes). Not detected: the 32-byte seed form of an ML-DSA key (looks like a hash;
 *   only its key name can catch it) and base64 glued to other base64-alphabet text.
 *
 * PERFORMANCE: one walk with an explicit stack (no recursion: 100,000 levels are fine);
 *   paths are built only for a finding. Strings under 27 chars cost one comparison. Longer
 *   ones are never scanned character by character: every target occupies an interval of
 *   at least m chars (word run 47, base58 key 51, base64 key 3414, hex key 5120), so it
 *   contains one of the probes 0, m, 2m, …; only the run under a probe is expanded
 *   (base58 runs with a skip loop, long runs with sticky native regexes) and a processed
 *   run is never revisited: linear, ~0.5 steps per character. Only runs of a matching
 *   length are decoded. A string of ≥ 3414 chars that is entirely (0x-)hex is only checked
 *   as ML-DSA (base58 keys and mnemonics cannot be spelled in hex digits).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { wordlist as english } from "@scure/bip39/wordlists/english.js";

export type KeyMaterialKind =
  | "KEY_NAME"
  | "BIP39_MNEMONIC"
  | "EXTENDED_PRIVATE_KEY"
  | "PEM_PRIVATE_KEY"
  | "WIF_PRIVATE_KEY"
  | "MLDSA_SECRET_KEY";

export interface KeyMaterialFinding {
  kind: KeyMaterialKind;
  /** JSON pointer to the offending member, e.g. "/wallets/0/meta/privateKey". Never contains the value. */
  path: string;
}

// ---------------------------------------------------------------------------------------
// Key names

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

// ---------------------------------------------------------------------------------------
// Character classes

const C_B58 = 1;
const C_HEX = 2;
const C_B64 = 4; // union of the base64 and base64url alphabets
const C_LETTER = 8;
const C_NEWLINE = 16; // transparent inside hex / base64 runs

const CLASS = new Uint8Array(128);
{
  const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    let k = 0;
    if (B58.includes(ch)) k |= C_B58;
    if (/[0-9a-fA-F]/.test(ch)) k |= C_HEX;
    if (/[A-Za-z0-9+/_-]/.test(ch)) k |= C_B64;
    if (/[A-Za-z]/.test(ch)) k |= C_LETTER;
    if (ch === "\n" || ch === "\r") k |= C_NEWLINE;
    CLASS[c] = k;
  }
}

const B58_DIGIT = new Int8Array(128).fill(-1);
"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
  .split("")
  .forEach((ch, i) => (B58_DIGIT[ch.charCodeAt(0)] = i));

// ---------------------------------------------------------------------------------------
// BIP-39 English wordlist lookup without allocation.
// Words are 3–8 lowercase letters and unique in their first 4 letters. A word's first four
// letters (base 27, letters 1..26, 0 = absent) index WORD_BY_HEAD; letters 5..8 must equal
// WORD_TAIL[index].

const HEAD_SPACE = 27 ** 4;
const WORD_BY_HEAD = new Int16Array(HEAD_SPACE); // word index + 1; 0 = none
const WORD_TAIL = new Int32Array(2048);
{
  if (english.length !== 2048) throw new Error("unexpected BIP-39 wordlist size");
  english.forEach((w, idx) => {
    let head = 0;
    let tail = 0;
    for (let j = 0; j < 4; j++) head = head * 27 + (j < w.length ? w.charCodeAt(j) - 96 : 0);
    for (let j = 4; j < w.length; j++) tail = tail * 27 + (w.charCodeAt(j) - 96);
    WORD_BY_HEAD[head] = idx + 1;
    WORD_TAIL[idx] = tail;
  });
}

/** Index of a single wordlist word (surrounding whitespace allowed, any case), else -1. */
function wordIndex(s: string): number {
  if (s.length > 32) return -1;
  const t = s.trim();
  const n = t.length;
  if (n < 3 || n > 8) return -1;
  let head = 0;
  let tail = 0;
  for (let j = 0; j < n; j++) {
    const c = t.charCodeAt(j);
    if (c >= 128 || (CLASS[c]! & C_LETTER) === 0) return -1;
    const code = (c | 32) - 96;
    if (j < 4) head = head * 27 + code;
    else tail = tail * 27 + code;
  }
  if (n === 3) head *= 27;
  const idx = WORD_BY_HEAD[head]! - 1;
  return idx >= 0 && WORD_TAIL[idx] === tail ? idx : -1;
}

const MNEMONIC_SIZES = [12, 15, 18, 21, 24] as const;
const MNEMONIC_WINDOW_BUDGET = 1024;
const RING = 24;
const ENTROPY_SCRATCH: Record<number, Uint8Array> = {
  12: new Uint8Array(16),
  15: new Uint8Array(20),
  18: new Uint8Array(24),
  21: new Uint8Array(28),
  24: new Uint8Array(32),
};

/** Per-call mutable state. */
interface ScanCtx {
  windowBudget: number;
  ring: Int16Array;
}

/** BIP-39 checksum of the `size` words ending at position `run` (exclusive) in the ring. */
function windowChecksumOk(ring: Int16Array, run: number, size: number): boolean {
  const ent = ENTROPY_SCRATCH[size]!;
  const entBytes = ent.length;
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let j = run - size; j < run; j++) {
    acc = (acc << 11) | ring[j % RING]!;
    bits += 11;
    while (bits >= 8 && o < entBytes) {
      bits -= 8;
      ent[o++] = (acc >>> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  // `bits` checksum bits (size / 3) remain in acc.
  return sha256(ent)[0]! >>> (8 - bits) === acc;
}

/** Called when the current run of wordlist words has grown to `run` words. */
function mnemonicEndsHere(ctx: ScanCtx, run: number): boolean {
  for (const size of MNEMONIC_SIZES) {
    if (run < size) break;
    if (--ctx.windowBudget < 0) return true; // fail closed, see header
    if (windowChecksumOk(ctx.ring, run, size)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// base58 / base58check

const LIMB = 16777216; // 2^24
const INV_LIMB = 1 / LIMB; // exact (power of two)
const LIMBS = new Float64Array(32); // scratch: 24-bit limbs, little-endian

/** Decodes s[start, end) as base58 into exactly `size` (≤ 90) bytes, or null if it doesn't fit. */
function base58Decode(s: string, start: number, end: number, size: number): Uint8Array | null {
  // Four base58 digits at a time (58^4 < 2^24): limb · 58^4 + carry < 2^48, exact in a double.
  const maxLimbs = Math.ceil(size / 3) + 1;
  const limbs = LIMBS;
  limbs.fill(0, 0, maxLimbs);
  let used = 1;
  for (let i = start; i < end; ) {
    let mul = 1;
    let carry = 0;
    for (let k = 0; k < 4 && i < end; k++, i++) {
      const c = s.charCodeAt(i);
      const d = c < 128 ? B58_DIGIT[c]! : -1;
      if (d < 0) return null;
      carry = carry * 58 + d;
      mul *= 58;
    }
    for (let j = 0; j < used; j++) {
      const v = limbs[j]! * mul + carry;
      carry = Math.floor(v * INV_LIMB);
      limbs[j] = v - carry * LIMB;
    }
    while (carry > 0) {
      if (used === maxLimbs) return null;
      limbs[used++] = carry % LIMB;
      carry = Math.floor(carry * INV_LIMB);
    }
  }
  let zeros = 0;
  while (start + zeros < end && s.charCodeAt(start + zeros) === 49 /* '1' */) zeros++;
  const out = new Uint8Array(size);
  let o = size - 1;
  for (let j = 0; j < used; j++) {
    const limb = limbs[j]!;
    for (let b = 0; b < 3; b++) {
      const byte = (limb >>> (8 * b)) & 0xff;
      if (o < 0) {
        if (byte !== 0) return null;
      } else out[o--] = byte;
    }
  }
  let significant = 0;
  for (let i = 0; i < size; i++) {
    if (out[i] !== 0) {
      significant = size - i;
      break;
    }
  }
  // Base58 writes each leading zero byte as '1': the byte length must match exactly.
  return zeros + significant === size ? out : null;
}

function checksumOk(data: Uint8Array): boolean {
  const n = data.length - 4;
  const h = sha256(sha256(data.subarray(0, n)));
  return h[0] === data[n] && h[1] === data[n + 1] && h[2] === data[n + 2] && h[3] === data[n + 3];
}

const XPRV_PREFIXES = ["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv"];
const XPUB_PREFIXES = ["xpub", "tpub", "ypub", "zpub", "upub", "vpub", "Ypub", "Zpub", "Upub", "Vpub"];

function hasPrefixAt(s: string, start: number, prefixes: readonly string[]): boolean {
  for (const p of prefixes) if (s.startsWith(p, start)) return true;
  return false;
}

/** A maximal base58 run s[start, end) of length >= 51. */
function base58RunKind(s: string, start: number, end: number): KeyMaterialKind | null {
  const n = end - start;
  if (n === 51 || n === 52) {
    const first = s.charCodeAt(start);
    // '5' / '9' (uncompressed mainnet / testnet), 'K' 'L' / 'c' (compressed).
    const plausible = n === 51 ? first === 53 || first === 57 : first === 75 || first === 76 || first === 99;
    if (!plausible) return null;
    const data = base58Decode(s, start, end, n === 51 ? 37 : 38);
    if (data === null || (data[0] !== 0x80 && data[0] !== 0xef)) return null;
    if (n === 52 && data[33] !== 0x01) return null;
    return checksumOk(data) ? "WIF_PRIVATE_KEY" : null;
  }
  if (n >= 100 && n <= 120) {
    if (hasPrefixAt(s, start, XPRV_PREFIXES)) return "EXTENDED_PRIVATE_KEY";
    if (n < 107 || n > 115 || hasPrefixAt(s, start, XPUB_PREFIXES)) return null;
    const data = base58Decode(s, start, end, 82);
    if (data === null || data[45] !== 0x00) return null;
    return checksumOk(data) ? "EXTENDED_PRIVATE_KEY" : null;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// String scan

const PEM_PRIVATE = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/i;
const MIN_PEM = "-----BEGIN PRIVATE KEY-----".length; // 27
const MIN_TOKENS = 47; // 12 three-letter words + 11 separators; WIF is 51

function isMldsaHexLength(n: number): boolean {
  return n === 5120 || n === 8064 || n === 9792;
}
function isMldsaBase64Length(n: number): boolean {
  return n === 3414 || n === 5376 || n === 6528;
}

function cls(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? CLASS[c]! : 0;
}

function scanString(s: string, ctx: ScanCtx): KeyMaterialKind | null {
  const L = s.length;
  if (L < MIN_PEM) return null;
  if (s.indexOf("-----") !== -1 && PEM_PRIVATE.test(s)) return "PEM_PRIVATE_KEY";
  if (L < MIN_TOKENS) return null;
  if (L >= MIN_MLDSA_RUN) {
    const long = scanLongRuns(s);
    if (long === LONG_FOUND) return "MLDSA_SECRET_KEY";
    // Base58 keys and mnemonics cannot be spelled in hex digits alone: done.
    if (long === LONG_ALL_HEX) return null;
  }
  return scanShortRuns(s, ctx);
}

// Probe and expand (see the header): word runs are probed every 47 chars, base64 runs every
// 3414, hex runs inside them every 5120; base58 runs use a skip loop over 51-char windows.
const PROBE_STRIDE = 47; // shortest word run: 12 × 3 letters + 11 separators
const MIN_MLDSA_RUN = 3414;
const HEX_STRIDE = 5120;
const B64_RUN = /[A-Za-z0-9+/_\-\r\n]*/y;
const HEX_RUN = /[0-9A-Fa-f\r\n]*/y;

/**
 * Whether the run s[a, b) has a length accepted by `ok`, newlines not counted. When the run
 * spans lines, its first and/or last line may be a word of the surrounding text ("my key\n"
 * + base64…), so the length without them is tried too.
 */
function runLengthMatches(s: string, a: number, b: number, hasNewline: boolean, ok: (n: number) => boolean): boolean {
  if (!hasNewline) return ok(b - a);
  let newlines = 0;
  let firstNl = -1;
  let lastNl = -1;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || c === 13) {
      newlines++;
      if (firstNl < 0) firstNl = i;
      lastNl = i;
    }
  }
  const total = b - a - newlines;
  if (newlines === 0) return ok(total);
  const first = firstNl - a;
  const last = b - lastNl - 1;
  return ok(total) || ok(total - first) || ok(total - last) || ok(total - first - last);
}

const LONG_NONE = 0;
const LONG_FOUND = 1;
const LONG_ALL_HEX = 2;

/**
 * ML-DSA secret keys: base64(url) runs and the hex runs inside them (newlines skipped).
 * Returns LONG_FOUND, LONG_ALL_HEX (nothing found and the whole string is one hex run,
 * optionally 0x-prefixed) or LONG_NONE.
 */
function scanLongRuns(s: string): number {
  const L = s.length;
  const hasNewline = s.indexOf("\n") !== -1 || s.indexOf("\r") !== -1;
  let done = 0;
  for (let p = 0; p < L; p += MIN_MLDSA_RUN) {
    if (p < done || (cls(s, p) & (C_B64 | C_NEWLINE)) === 0) continue;
    let a = p;
    while (a > 0 && (cls(s, a - 1) & (C_B64 | C_NEWLINE)) !== 0) a--;
    B64_RUN.lastIndex = p;
    B64_RUN.test(s);
    const b = B64_RUN.lastIndex;
    done = b;
    if (runLengthMatches(s, a, b, hasNewline, isMldsaBase64Length)) return LONG_FOUND;
    if (b - a < 5120) continue;
    // Hex runs of ≥ 5120 digits inside it, probed every 5120 chars from the run start (after
    // a "0x" prefix): for a hex string the first probe is its start and one native forward
    // scan settles it; for base64 each probe expands a few characters.
    const h = s.charCodeAt(a) === 48 && s.charCodeAt(a + 1) === 120 ? a + 2 : a;
    let hexDone = h;
    for (let q = h; q < b; q += HEX_STRIDE) {
      if (q < hexDone || (cls(s, q) & (C_HEX | C_NEWLINE)) === 0) continue;
      let c = q;
      while (c > h && (cls(s, c - 1) & (C_HEX | C_NEWLINE)) !== 0) c--;
      HEX_RUN.lastIndex = q;
      HEX_RUN.test(s);
      const d = Math.min(HEX_RUN.lastIndex, b);
      hexDone = d;
      if (runLengthMatches(s, c, d, hasNewline, isMldsaHexLength)) return LONG_FOUND;
      if (a === 0 && c === h && d === L) return LONG_ALL_HEX;
    }
  }
  return LONG_NONE;
}

/** WIF / extended keys (base58 runs) and BIP-39 word runs. */
function scanShortRuns(s: string, ctx: ScanCtx): KeyMaterialKind | null {
  const L = s.length;
  // Base58 runs of ≥ 51 chars, skip-loop style: `start` always follows a non-base58 char (or
  // is 0); test the last char of the 51-char window, then scan back for a breaker.
  let start = 0;
  while (start + 51 <= L) {
    const p = start + 50;
    if ((cls(s, p) & C_B58) === 0) {
      start = p + 1;
      continue;
    }
    let q = p - 1;
    while (q >= start && (cls(s, q) & C_B58) !== 0) q--;
    if (q >= start) {
      start = q + 1;
      continue;
    }
    let b = p + 1;
    while (b < L && (cls(s, b) & C_B58) !== 0) b++;
    const kind = base58RunKind(s, start, b);
    if (kind !== null) return kind;
    start = b + 1;
  }
  // Word runs, probed every 47 chars.
  let wordsDone = 0; // positions below were covered by examined words / word runs
  for (let p = 0; p < L; p += PROBE_STRIDE) {
    if (p < wordsDone) continue;
    wordsDone = wordRunAt(s, p, wordsDone, ctx);
    if (wordsDone < 0) return "BIP39_MNEMONIC";
  }
  return null;
}

/** End (exclusive) of the word starting at `i`, with its wordlist index in WORD_HIT. */
let WORD_HIT = -1;
function wordAt(s: string, i: number): number {
  const L = s.length;
  let head = 0;
  let tail = 0;
  let n = 0;
  let j = i;
  for (; j < L; j++) {
    const c = s.charCodeAt(j);
    if (c >= 128 || (CLASS[c]! & C_LETTER) === 0) break;
    const code = (c | 32) - 96;
    if (n < 4) head = head * 27 + code;
    else if (n < 8) tail = tail * 27 + code;
    n++;
  }
  WORD_HIT = -1;
  if (n >= 3 && n <= 8) {
    const idx = WORD_BY_HEAD[n === 3 ? head * 27 : head]! - 1;
    if (idx >= 0 && WORD_TAIL[idx] === tail) WORD_HIT = idx;
  }
  return j;
}

/**
 * Examines the word under (or after) probe `p` and, if it is a wordlist word, the whole run
 * of consecutive wordlist words around it. Returns the position up to which words are
 * settled (no run can start before it), or -1 if a mnemonic was found. `lo` is the previous
 * such position: no run member lies before it.
 */
function wordRunAt(s: string, p: number, lo: number, ctx: ScanCtx): number {
  const L = s.length;
  let i = p;
  if ((cls(s, i) & C_LETTER) === 0) {
    while (i < L && (cls(s, i) & C_LETTER) === 0) i++;
    if (i >= L) return L;
  } else {
    while (i > 0 && (cls(s, i - 1) & C_LETTER) !== 0) i--;
  }
  const end = wordAt(s, i);
  if (WORD_HIT < 0) return end;

  // Walk back to the first word of the run.
  let start = i;
  for (;;) {
    let j = start - 1;
    while (j >= lo && (cls(s, j) & C_LETTER) === 0) j--;
    if (j < lo) break;
    let ws = j;
    while (ws > 0 && (cls(s, ws - 1) & C_LETTER) !== 0) ws--;
    wordAt(s, ws);
    if (WORD_HIT < 0) break;
    start = ws;
  }

  // Walk forward through the run, checking every window that ends at each word.
  const ring = ctx.ring;
  let run = 0;
  let w = start;
  for (;;) {
    const we = wordAt(s, w);
    if (WORD_HIT < 0) return we;
    ring[run % RING] = WORD_HIT;
    run++;
    if (run >= 12 && mnemonicEndsHere(ctx, run)) return -1;
    let n = we;
    while (n < L && (cls(s, n) & C_LETTER) === 0) n++;
    if (n >= L) return L;
    w = n;
  }
}

/** Arrays: a mnemonic given as one word per element, or a serialised ML-DSA secret key. */
function scanArray(a: readonly unknown[], ctx: ScanCtx): KeyMaterialKind | null {
  const n = a.length;
  if (n < 12) return null;
  if (n === 2560 || n === 4032 || n === 4896) {
    let bytes = true;
    for (let i = 0; i < n; i++) {
      const v = a[i];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 255) {
        bytes = false;
        break;
      }
    }
    if (bytes) return "MLDSA_SECRET_KEY";
  }
  const ring = ctx.ring;
  let run = 0;
  for (let i = 0; i < n; i++) {
    const v = a[i];
    const idx = typeof v === "string" && v.length >= 3 ? wordIndex(v) : -1;
    if (idx < 0) {
      run = 0;
      continue;
    }
    ring[run % RING] = idx;
    run++;
    if (run >= 12 && mnemonicEndsHere(ctx, run)) return "BIP39_MNEMONIC";
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Traversal

function escapeSegment(seg: string): string {
  return seg.indexOf("~") === -1 && seg.indexOf("/") === -1
    ? seg
    : seg.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function findKeyMaterial(body: unknown): KeyMaterialFinding | null {
  const ctx: ScanCtx = { windowBudget: MNEMONIC_WINDOW_BUDGET, ring: new Int16Array(RING) };

  if (typeof body === "string") {
    const kind = scanString(body, ctx);
    return kind === null ? null : { kind, path: "" };
  }
  if (body === null || typeof body !== "object") return null;

  // Explicit stack of containers. For level d: nodes[d] is the container, keyLists[d] its
  // own keys (null for arrays), pos[d] the index of the child being visited next.
  const nodes: object[] = [];
  const keyLists: (string[] | null)[] = [];
  const pos: number[] = [];
  let sp = 0;

  /** Path of the container at depth `depth` (exclusive) plus an optional last segment. */
  const pathTo = (depth: number, last?: string): string => {
    let p = "";
    for (let d = 0; d < depth; d++) {
      const keys = keyLists[d];
      p += "/" + (keys === null ? String(pos[d]! - 1) : escapeSegment(keys![pos[d]! - 1]!));
    }
    return last === undefined ? p : p + "/" + last;
  };

  const enter = (node: object): KeyMaterialFinding | null => {
    let keys: string[] | null = null;
    if (Array.isArray(node)) {
      const kind = scanArray(node, ctx);
      if (kind !== null) return { kind, path: pathTo(sp) };
    } else keys = Object.keys(node);
    nodes[sp] = node;
    keyLists[sp] = keys;
    pos[sp] = 0;
    sp++;
    return null;
  };

  let found = enter(body);
  if (found !== null) return found;

  while (sp > 0) {
    const top = sp - 1;
    const node = nodes[top]!;
    const keys = keyLists[top]!;
    const i = pos[top]!;
    let child: unknown;
    if (keys === null) {
      const arr = node as unknown[];
      if (i >= arr.length) {
        sp--;
        continue;
      }
      pos[top] = i + 1;
      child = arr[i];
    } else {
      if (i >= keys.length) {
        sp--;
        continue;
      }
      pos[top] = i + 1;
      const key = keys[i]!;
      if (isKeyMaterialKeyName(key)) return { kind: "KEY_NAME", path: pathTo(sp) };
      if (key.length >= MIN_PEM) {
        const kind = scanString(key, ctx);
        if (kind !== null) return { kind, path: pathTo(top) + "/~key" };
      }
      child = (node as Record<string, unknown>)[key];
    }

    if (typeof child === "string") {
      if (child.length >= MIN_PEM) {
        const kind = scanString(child, ctx);
        if (kind !== null) return { kind, path: pathTo(sp) };
      }
    } else if (child !== null && typeof child === "object") {
      found = enter(child);
      if (found !== null) return found;
    }
  }
  return null;
}
