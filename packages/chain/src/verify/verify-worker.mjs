// The body of one verify-pool thread (plain JavaScript so that a worker thread needs no
// TypeScript loader, whether the parent runs under tsx, vitest or compiled code). The parent
// decodes and length-checks the input and chose the implementation (workerData); this only
// verifies.
import { workerData } from "node:worker_threads";

/** @typedef {{ publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, context: Uint8Array }} VerifyBytes */

/** @returns {Promise<(task: VerifyBytes) => boolean>} */
async function loadVerify({ implementation, addonPath }) {
  if (implementation === "native") {
    const { loadNativeMlDsa87 } = await import("@qc/mldsa-native");
    const native = loadNativeMlDsa87(addonPath);
    // The parent loaded this very file before starting the thread; failing here is loud (the
    // pool rejects the request) rather than a quiet switch to another implementation.
    if (!native.ok) throw new Error(`native ML-DSA-87 add-on unavailable in the verify thread: ${native.reason}`);
    return ({ publicKey, message, signature, context }) => native.verify(signature, message, publicKey, context);
  }
  if (implementation !== "noble") throw new Error(`unknown verify implementation ${implementation}`);
  const { ml_dsa87 } = await import("@noble/post-quantum/ml-dsa.js");
  return ({ publicKey, message, signature, context }) => {
    try {
      return ml_dsa87.verify(signature, message, publicKey, { context });
    } catch {
      // noble throws on some malformed encodings; for a verifier that is a signature that does not verify.
      return false;
    }
  };
}

const verify = await loadVerify(workerData);

/**
 * @param {VerifyBytes} task
 * @returns {boolean}
 */
export default function verifyMlDsa87(task) {
  return verify(task);
}
