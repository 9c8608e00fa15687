// The body of one verify-pool thread (plain JavaScript so that a worker thread needs no
// TypeScript loader, whether the parent runs under tsx, vitest or compiled code). The parent
// checks lengths and encodes the context; this only runs noble's FIPS 204 verify.
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";

/**
 * @param {{ publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, context: Uint8Array }} task
 * @returns {boolean}
 */
export default function verifyMlDsa87({ publicKey, message, signature, context }) {
  try {
    return ml_dsa87.verify(signature, message, publicKey, { context });
  } catch {
    // noble throws on some malformed encodings; for a verifier that is a signature that does not verify.
    return false;
  }
}
