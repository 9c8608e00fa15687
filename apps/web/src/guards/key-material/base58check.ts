/**
 * base58 and base58check decoding for the WIF and extended-key detectors, on a slice of the
 * scanned string and into reused scratch limbs: no substring, no allocation but the result.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { B58_ALPHABET } from "./char-classes";

const B58_DIGIT = new Int8Array(128).fill(-1);
B58_ALPHABET.split("").forEach((ch, i) => (B58_DIGIT[ch.charCodeAt(0)] = i));

const LIMB = 16777216; // 2^24
const INV_LIMB = 1 / LIMB; // exact (power of two)
const LIMBS = new Float64Array(32); // scratch: 24-bit limbs, little-endian

/** Decodes s[start, end) as base58 into exactly `size` (≤ 90) bytes, or null if it doesn't fit. */
export function base58Decode(s: string, start: number, end: number, size: number): Uint8Array | null {
  // Four base58 digits at a time (58^4 < 2^24): limb · 58^4 + carry < 2^48, exact in a double.
  const maxLimbs = Math.ceil(size / 3) + 1;
  const limbs = LIMBS;
  limbs.fill(0, 0, maxLimbs);
  let used = 1;
  for (let i = start; i < end;) {
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

/** The last 4 bytes are the first 4 of sha256(sha256(the rest)). */
export function checksumOk(data: Uint8Array): boolean {
  const n = data.length - 4;
  const h = sha256(sha256(data.subarray(0, n)));
  return h[0] === data[n] && h[1] === data[n + 1] && h[2] === data[n + 2] && h[3] === data[n + 3];
}
