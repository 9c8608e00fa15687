import { addressFromPublicKey, MLDSA87_SIGNATURE_LENGTH, TRANSACTION_SIGNATURE_CONTEXT } from "@qc/chain";
import type { SigningAssetRow, SigningSourceRow, TransactionRow } from "@qc/db/queries";
import { isSelfSendType } from "@qc/domain";
import type { SignatureVerifier } from "../deps/service-deps";
import { rebuildUnsignedTransaction, type RebuiltTransaction } from "./unsigned-transaction";

/** A released transaction, the key it must be signed with and its asset, as read together. */
export interface SigningContext {
  transaction: TransactionRow;
  wallet: SigningSourceRow | null;
  asset: SigningAssetRow | null;
}

export type SigningRequestCheck =
  | { ok: true; rebuilt: RebuiltTransaction; publicKey: `0x${string}` }
  /** The stored row no longer agrees with itself: never sign it, never send it. */
  | { ok: false; reason: string };

/**
 * Rebuilds the unsigned transaction from the stored human-readable intent and checks that the
 * release stored exactly that (unsigned bytes and signing hash), and that the source wallet's
 * enrolled key is the key of the source address. Anything else means the row or the wallet was
 * changed after release: the caller fails the transaction closed (FAILED/SIGNATURE_MISMATCH).
 * Cheap (no signature verification): run before every signature check and every send.
 */
export function checkSigningRequest(context: SigningContext): SigningRequestCheck {
  const row = context.transaction;
  // A deployment (or its replacement) and a self-send (NONCE_FILL, CANCELLATION) carry no asset.
  const needsAsset = row.type !== "CONTRACT_DEPLOY" && !row.templateId && !isSelfSendType(row.type);
  if (!context.asset && needsAsset) return { ok: false, reason: "the transaction's asset is unknown" };
  if (!context.wallet?.publicKey) return { ok: false, reason: "the source wallet has no enrolled key" };
  let rebuilt: RebuiltTransaction;
  try {
    rebuilt = rebuildUnsignedTransaction(row, context.asset);
  } catch (error) {
    return { ok: false, reason: `the stored intent cannot be rebuilt: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (rebuilt.unsignedTransaction !== row.unsignedTransaction || rebuilt.signingHash !== row.signingHash) {
    return { ok: false, reason: "the stored intent no longer matches the transaction released for signing" };
  }
  let keyAddress: string;
  try {
    keyAddress = addressFromPublicKey(context.wallet.publicKey as `0x${string}`);
  } catch {
    return { ok: false, reason: "the source wallet's enrolled key is malformed" };
  }
  if (keyAddress !== row.sourceAddress || context.wallet.address !== row.sourceAddress) {
    return { ok: false, reason: "the source wallet's enrolled key is not the key of the source address" };
  }
  return { ok: true, rebuilt, publicKey: context.wallet.publicKey as `0x${string}` };
}

const SIGNATURE_HEX = new RegExp(`^(0x)?[0-9a-fA-F]{${MLDSA87_SIGNATURE_LENGTH * 2}}$`);

/** A submitted signature in canonical form (lower-case 0x hex of 4627 bytes), or undefined when malformed. */
export function canonicalSignature(input: string): `0x${string}` | undefined {
  if (!SIGNATURE_HEX.test(input)) return undefined;
  return `0x${(input.startsWith("0x") ? input.slice(2) : input).toLowerCase()}`;
}

/**
 * Whether `signature` is an ML-DSA-87 signature with context `QUANTUM-TX-v1` by `publicKey` over
 * `signingHash`. The one place a transaction signature is verified (submission and again before
 * broadcast): ML-DSA-87 verification costs milliseconds of CPU, so it runs on the verifier's
 * worker threads (`deps.verifier`), never on the event loop. Malformed input is `false`.
 */
export async function verifyTransactionSignature(
  verifier: SignatureVerifier,
  input: { signingHash: string; signature: string; publicKey: string },
): Promise<boolean> {
  return verifier.verify({
    signingHash: input.signingHash,
    signature: input.signature,
    publicKey: input.publicKey,
    context: TRANSACTION_SIGNATURE_CONTEXT,
  });
}
