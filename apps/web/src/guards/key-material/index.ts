/**
 * Key-material guard (CONTRACT.md §9): `findKeyMaterial(body)` scans a parsed JSON body and
 * returns the first key material found (document order, depth-first) or null. Pure and
 * synchronous (module state: a bounded memo of key-name verdicts and scratch buffers,
 * neither can change a result). A finding is a kind plus an RFC 6901 path (`~` → `~0`,
 * `/` → `~1`) and NEVER the value, so it can be audited as is. Input must be JSON data
 * (acyclic, as from JSON.parse). Policy: fail closed — when in doubt, reject.
 *
 * This file walks the body; each detector, with its exact rule and its accepted false
 * positives, is a module beside it: names.ts (key names), bip39.ts (mnemonics),
 * extended-keys.ts, pem.ts, wif.ts, mldsa.ts (ML-DSA secret keys).
 *
 * WHERE: every string value and every object key, anywhere inside the string ("my key is
 *   xprv…" is rejected). A finding inside an object *key* is reported as
 *   `<object path>/~key` (`~k` is an invalid RFC 6901 escape, so it cannot collide with a
 *   real key, and the secret never enters the path). Keys are checked before their values.
 *   Numbers, booleans and null are never key material by value.
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
import { createMnemonicScan, hasMnemonicArray, hasMnemonicWordRun, MIN_WORD_RUN, type MnemonicScan } from "./bip39";
import { C_B58, cls } from "./char-classes";
import { isExtendedPrivateKeyRun } from "./extended-keys";
import { LONG_ALL_HEX, LONG_FOUND, MIN_MLDSA_RUN, isMldsaByteArray, scanMldsaRuns } from "./mldsa";
import { isKeyMaterialKeyName } from "./names";
import { hasPemPrivateKey, MIN_PEM } from "./pem";
import { isWifRun } from "./wif";

export { isKeyMaterialKeyName } from "./names";

export type KeyMaterialKind =
  "KEY_NAME" | "BIP39_MNEMONIC" | "EXTENDED_PRIVATE_KEY" | "PEM_PRIVATE_KEY" | "WIF_PRIVATE_KEY" | "MLDSA_SECRET_KEY";

export interface KeyMaterialFinding {
  kind: KeyMaterialKind;
  /** JSON pointer to the offending member, e.g. "/wallets/0/meta/privateKey". Never contains the value. */
  path: string;
}

/** Below this length only a PEM header fits: mnemonics need 47 chars, WIF keys 51. */
const MIN_TOKENS = MIN_WORD_RUN;

function scanString(s: string, scan: MnemonicScan): KeyMaterialKind | null {
  const L = s.length;
  if (L < MIN_PEM) return null;
  if (hasPemPrivateKey(s)) return "PEM_PRIVATE_KEY";
  if (L < MIN_TOKENS) return null;
  if (L >= MIN_MLDSA_RUN) {
    const long = scanMldsaRuns(s);
    if (long === LONG_FOUND) return "MLDSA_SECRET_KEY";
    // Base58 keys and mnemonics cannot be spelled in hex digits alone: done.
    if (long === LONG_ALL_HEX) return null;
  }
  const base58 = scanBase58Runs(s);
  if (base58 !== null) return base58;
  return hasMnemonicWordRun(s, scan) ? "BIP39_MNEMONIC" : null;
}

/**
 * WIF and extended keys: base58 runs of ≥ 51 chars, skip-loop style. `start` always follows
 * a non-base58 char (or is 0); test the last char of the 51-char window, then scan back for a
 * breaker.
 */
function scanBase58Runs(s: string): KeyMaterialKind | null {
  const L = s.length;
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
    const n = b - start;
    if ((n === 51 || n === 52) && isWifRun(s, start, b)) return "WIF_PRIVATE_KEY";
    if (n >= 100 && n <= 120 && isExtendedPrivateKeyRun(s, start, b)) return "EXTENDED_PRIVATE_KEY";
    start = b + 1;
  }
  return null;
}

/** Arrays: a mnemonic given as one word per element, or a serialised ML-DSA secret key. */
function scanArray(a: readonly unknown[], scan: MnemonicScan): KeyMaterialKind | null {
  if (a.length < 12) return null;
  if (isMldsaByteArray(a)) return "MLDSA_SECRET_KEY";
  return hasMnemonicArray(a, scan) ? "BIP39_MNEMONIC" : null;
}

function escapeSegment(seg: string): string {
  return seg.indexOf("~") === -1 && seg.indexOf("/") === -1 ? seg : seg.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function findKeyMaterial(body: unknown): KeyMaterialFinding | null {
  const scan = createMnemonicScan();

  if (typeof body === "string") {
    const kind = scanString(body, scan);
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
      const kind = scanArray(node, scan);
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
        const kind = scanString(key, scan);
        if (kind !== null) return { kind, path: pathTo(top) + "/~key" };
      }
      child = (node as Record<string, unknown>)[key];
    }

    if (typeof child === "string") {
      if (child.length >= MIN_PEM) {
        const kind = scanString(child, scan);
        if (kind !== null) return { kind, path: pathTo(sp) };
      }
    } else if (child !== null && typeof child === "object") {
      found = enter(child);
      if (found !== null) return found;
    }
  }
  return null;
}
