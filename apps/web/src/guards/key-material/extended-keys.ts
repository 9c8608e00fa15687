/**
 * EXTENDED PRIVATE KEYS, in each maximal base58 run of 100–120 chars: (a) starts with
 *   xprv/tprv/yprv/zprv/uprv/vprv/Yprv/Zprv/Uprv/Vprv → rejected without any checksum
 *   (fail closed on look-alikes); (b) else, if 107–115 chars and not starting with a known
 *   PUBLIC prefix (xpub, tpub, … are never decoded: the common legitimate case), decoded:
 *   a 78-byte payload with a valid double-sha256 checksum and key-data byte 45 = 0x00 is a
 *   private key whatever its version (Ltpv, dgpv…). Random text passes (b) with p = 2^-32.
 */
import { base58Decode, checksumOk } from "./base58check";

const XPRV_PREFIXES = ["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv"];
const XPUB_PREFIXES = ["xpub", "tpub", "ypub", "zpub", "upub", "vpub", "Ypub", "Zpub", "Upub", "Vpub"];

function hasPrefixAt(s: string, start: number, prefixes: readonly string[]): boolean {
  for (const p of prefixes) if (s.startsWith(p, start)) return true;
  return false;
}

/** Whether the maximal base58 run s[start, end) of 100–120 chars is an extended private key. */
export function isExtendedPrivateKeyRun(s: string, start: number, end: number): boolean {
  const n = end - start;
  if (hasPrefixAt(s, start, XPRV_PREFIXES)) return true;
  if (n < 107 || n > 115 || hasPrefixAt(s, start, XPUB_PREFIXES)) return false;
  const data = base58Decode(s, start, end, 82);
  if (data === null || data[45] !== 0x00) return false;
  return checksumOk(data);
}
