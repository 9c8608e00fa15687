/**
 * WIF: a maximal base58 run of 51 chars starting 5/9 or 52 chars starting K/L/c that is a
 *   valid base58check (double sha256, always verified) of 0x80|0xef + 32 bytes (+ 0x01 for
 *   52 chars). Other coins' version bytes are not covered.
 */
import { base58Decode, checksumOk } from "./base58check";

/** Whether the maximal base58 run s[start, end) of 51 or 52 chars is a WIF private key. */
export function isWifRun(s: string, start: number, end: number): boolean {
  const n = end - start;
  const first = s.charCodeAt(start);
  // '5' / '9' (uncompressed mainnet / testnet), 'K' 'L' / 'c' (compressed).
  const plausible = n === 51 ? first === 53 || first === 57 : first === 75 || first === 76 || first === 99;
  if (!plausible) return false;
  const data = base58Decode(s, start, end, n === 51 ? 37 : 38);
  if (data === null || (data[0] !== 0x80 && data[0] !== 0xef)) return false;
  if (n === 52 && data[33] !== 0x01) return false;
  return checksumOk(data);
}
