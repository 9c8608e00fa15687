import { bytesToHex, hexToBytes, type Hex } from "viem";

const HEX_BODY = /^[0-9a-fA-F]*$/;

/**
 * Bytes from a `0x` hex string (or bare hex) or a Uint8Array, or `undefined` when the input
 * is not well-formed. Used where a malformed value must yield `false`, never an exception.
 */
export function bytesFromInput(value: unknown, expectedLength?: number): Uint8Array | undefined {
  let bytes: Uint8Array;
  if (value instanceof Uint8Array) {
    bytes = value;
  } else if (typeof value === "string") {
    const body = value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
    if (body.length % 2 !== 0 || !HEX_BODY.test(body)) return undefined;
    if (expectedLength !== undefined && body.length !== expectedLength * 2) return undefined;
    bytes = hexToBytes(`0x${body}`);
  } else {
    return undefined;
  }
  if (expectedLength !== undefined && bytes.length !== expectedLength) return undefined;
  return bytes;
}

/** Lower-case `0x` hex of bytes or of a hex string (normalises case, adds the prefix). */
export function toLowerHex(value: Uint8Array | string): Hex {
  if (value instanceof Uint8Array) return bytesToHex(value);
  const body = value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
  return `0x${body.toLowerCase()}`;
}

/** Minimal big-endian encoding of an unsigned integer for RLP: zero is the empty string. */
export function encodeRlpUint(value: bigint | number): Hex {
  const big = BigInt(value);
  if (big < 0n) throw new RangeError("negative integer cannot be RLP encoded");
  if (big === 0n) return "0x";
  const hex = big.toString(16);
  return `0x${hex.length % 2 === 0 ? hex : `0${hex}`}`;
}
