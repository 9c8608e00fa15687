import type { Hex } from "viem";
import { MLDSA87_PUBLIC_KEY_LENGTH, MLDSA87_SIGNATURE_LENGTH } from "../protocol/constants";

/**
 * One ML-DSA-87 (FIPS 204) verification. The message is either raw bytes (a string is its
 * UTF-8 text, as for ownership proofs) or a 32-byte signing hash (hex or bytes, as for
 * `0x51` transactions). The context is the FIPS 204 context string, at most 255 bytes.
 */
export type VerifyRequest = {
  publicKey: Uint8Array | Hex | string;
  signature: Uint8Array | Hex | string;
  context: string | Uint8Array;
} & ({ message: Uint8Array | string; signingHash?: undefined } | { signingHash: Uint8Array | Hex | string; message?: undefined });

/** The bytes a verification needs, decoded and length-checked. */
export type VerifyBytes = { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array; context: Uint8Array };

const MAX_CONTEXT_BYTES = 255;
const SIGNING_HASH_BYTES = 32;
const utf8 = new TextEncoder();

/**
 * The request as bytes, or undefined when it cannot verify whatever the signature (wrong
 * lengths, bad hex, a context over 255 bytes). Both the pool and a caller verifying on its own
 * thread decode with this, so they refuse and accept the same inputs.
 */
export function decodeVerifyRequest(request: VerifyRequest): VerifyBytes | undefined {
  const publicKey = exactBytes(request.publicKey, MLDSA87_PUBLIC_KEY_LENGTH);
  const signature = exactBytes(request.signature, MLDSA87_SIGNATURE_LENGTH);
  const context = typeof request.context === "string" ? utf8.encode(request.context) : request.context;
  let message: Uint8Array | undefined;
  if (request.signingHash !== undefined) message = exactBytes(request.signingHash, SIGNING_HASH_BYTES);
  else if (typeof request.message === "string") message = utf8.encode(request.message);
  else if (request.message instanceof Uint8Array) message = request.message;
  if (!publicKey || !signature || !message || !(context instanceof Uint8Array) || context.length > MAX_CONTEXT_BYTES) return undefined;
  return { publicKey, signature, message, context };
}

/**
 * Exactly `length` bytes from a Uint8Array or from hex (`0x` optional, any case), else undefined.
 * Hex is decoded by Node's native decoder, which stops at the first character that is not hex:
 * fewer bytes than expected means malformed. A 4,627-byte signature decodes ~10× faster this
 * way than with a regular expression and viem's `hexToBytes`, and it is decoded on the calling
 * thread for every verification.
 */
function exactBytes(value: unknown, length: number): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value.length === length ? value : undefined;
  if (typeof value !== "string") return undefined;
  const start = value.startsWith("0x") || value.startsWith("0X") ? 2 : 0;
  if (value.length - start !== length * 2) return undefined;
  // Its own ArrayBuffer (not a slice of Buffer's shared pool), so that sending it to a thread
  // copies these bytes only.
  const bytes = new Uint8Array(length);
  const written = Buffer.from(bytes.buffer).write(start ? value.slice(start) : value, "hex");
  return written === length ? bytes : undefined;
}
