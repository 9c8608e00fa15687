/**
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
 */
import { C_B64, C_HEX, C_NEWLINE, cls } from "./char-classes";

function isMldsaHexLength(n: number): boolean {
  return n === 5120 || n === 8064 || n === 9792;
}
function isMldsaBase64Length(n: number): boolean {
  return n === 3414 || n === 5376 || n === 6528;
}

// Base64 runs are probed every 3414 chars, hex runs inside them every 5120 (see index.ts).
export const MIN_MLDSA_RUN = 3414;
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

export const LONG_NONE = 0;
export const LONG_FOUND = 1;
export const LONG_ALL_HEX = 2;

/**
 * ML-DSA secret keys: base64(url) runs and the hex runs inside them (newlines skipped).
 * Returns LONG_FOUND, LONG_ALL_HEX (nothing found and the whole string is one hex run,
 * optionally 0x-prefixed) or LONG_NONE.
 */
export function scanMldsaRuns(s: string): number {
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

/** An array of exactly 2560/4032/4896 integers 0–255: a serialised secret key. */
export function isMldsaByteArray(a: readonly unknown[]): boolean {
  const n = a.length;
  if (n !== 2560 && n !== 4032 && n !== 4896) return false;
  for (let i = 0; i < n; i++) {
    const v = a[i];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 255) return false;
  }
  return true;
}
