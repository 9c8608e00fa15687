/**
 * ASCII character classes shared by the detectors, as bit flags in one table so that a scan
 * tests a character with a single lookup. Anything at or above 128 is in no class.
 */
export const C_B58 = 1;
export const C_HEX = 2;
/** The union of the base64 and base64url alphabets. */
export const C_B64 = 4;
export const C_LETTER = 8;
/** Transparent inside hex / base64 runs (wrapped encodings). */
export const C_NEWLINE = 16;

export const B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let k = 0;
  if (B58_ALPHABET.includes(ch)) k |= C_B58;
  if (/[0-9a-fA-F]/.test(ch)) k |= C_HEX;
  if (/[A-Za-z0-9+/_-]/.test(ch)) k |= C_B64;
  if (/[A-Za-z]/.test(ch)) k |= C_LETTER;
  if (ch === "\n" || ch === "\r") k |= C_NEWLINE;
  CLASS[c] = k;
}

/** The classes of `s[i]` (0 past the end or outside ASCII). */
export function cls(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? CLASS[c]! : 0;
}
