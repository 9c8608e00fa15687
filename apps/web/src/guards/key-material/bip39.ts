/**
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
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { wordlist as english } from "@scure/bip39/wordlists/english.js";
import { C_LETTER, CLASS, cls } from "./char-classes";

// Wordlist lookup without allocation. Words are 3–8 lowercase letters and unique in their
// first 4 letters. A word's first four letters (base 27, letters 1..26, 0 = absent) index
// WORD_BY_HEAD; letters 5..8 must equal WORD_TAIL[index].

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

/** Per-body mutable state: the checksum budget is shared by every string of one body. */
export interface MnemonicScan {
  windowBudget: number;
  ring: Int16Array;
}

export function createMnemonicScan(): MnemonicScan {
  return { windowBudget: MNEMONIC_WINDOW_BUDGET, ring: new Int16Array(RING) };
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
function mnemonicEndsHere(scan: MnemonicScan, run: number): boolean {
  for (const size of MNEMONIC_SIZES) {
    if (run < size) break;
    if (--scan.windowBudget < 0) return true; // fail closed, see header
    if (windowChecksumOk(scan.ring, run, size)) return true;
  }
  return false;
}

/** Shortest word run: 12 × 3 letters + 11 separators; word runs are probed this far apart. */
export const MIN_WORD_RUN = 47;

/** Whether `s` holds a run of wordlist words with a valid mnemonic window (or the budget ran out). */
export function hasMnemonicWordRun(s: string, scan: MnemonicScan): boolean {
  const L = s.length;
  let wordsDone = 0; // positions below were covered by examined words / word runs
  for (let p = 0; p < L; p += MIN_WORD_RUN) {
    if (p < wordsDone) continue;
    wordsDone = wordRunAt(s, p, wordsDone, scan);
    if (wordsDone < 0) return true;
  }
  return false;
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
function wordRunAt(s: string, p: number, lo: number, scan: MnemonicScan): number {
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
  const ring = scan.ring;
  let run = 0;
  let w = start;
  for (;;) {
    const we = wordAt(s, w);
    if (WORD_HIT < 0) return we;
    ring[run % RING] = WORD_HIT;
    run++;
    if (run >= 12 && mnemonicEndsHere(scan, run)) return -1;
    let n = we;
    while (n < L && (cls(s, n) & C_LETTER) === 0) n++;
    if (n >= L) return L;
    w = n;
  }
}

/** A mnemonic given as one word per array element (consecutive elements, any case). */
export function hasMnemonicArray(a: readonly unknown[], scan: MnemonicScan): boolean {
  const n = a.length;
  const ring = scan.ring;
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
    if (run >= 12 && mnemonicEndsHere(scan, run)) return true;
  }
  return false;
}
