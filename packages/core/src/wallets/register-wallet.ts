import {
  addressFromPublicKey,
  MLDSA87_PUBLIC_KEY_LENGTH,
  MLDSA87_SIGNATURE_LENGTH,
  OWNERSHIP_PROOF_CONTEXT,
  ownershipProofMessage,
  parseAddress,
} from "@qc/chain";
import type { ServiceDeps, SignatureVerifier } from "../deps/service-deps";
import { AppError } from "../errors";
import { lockWritableVault } from "../vaults/vault-record";
import type { Actor } from "../audit/actor";
import { inWalletTransaction, insertWallet } from "./insert-wallet";
import type { WalletRecord } from "./wallet-record";

export interface RegisterWalletInput {
  tenantId: string;
  vaultId: string;
  address: string;
  publicKey: string;
  signature: string;
  assetIds?: string[];
  label?: string;
  actor: Actor;
}

export type OwnershipProofFailure = "ADDRESS_FORMAT" | "PUBLIC_KEY_FORMAT" | "SIGNATURE_FORMAT" | "ADDRESS_MISMATCH" | "PROOF_INVALID";

const MESSAGES: Record<OwnershipProofFailure, string> = {
  ADDRESS_FORMAT: "address must be exactly 40 hex digits with optional 0x (mixed case must pass EIP-55)",
  PUBLIC_KEY_FORMAT: `publicKey must be ${MLDSA87_PUBLIC_KEY_LENGTH} bytes of hex (ML-DSA-87)`,
  SIGNATURE_FORMAT: `signature must be ${MLDSA87_SIGNATURE_LENGTH} bytes of hex (ML-DSA-87)`,
  ADDRESS_MISMATCH: "address is not the address of publicKey",
  PROOF_INVALID: "signature is not an ownership proof of this address for this tenant",
};

const hexOfBytes = (value: string, bytes: number) => new RegExp(`^(0x)?[0-9a-fA-F]{${bytes * 2}}$`).test(value);

/**
 * Why an ownership proof (CONTRACT §5) fails, or null when it holds. Strict: exact lengths, no
 * padding or truncation anywhere, the address derived from the key, and the ML-DSA-87 signature
 * over this tenant's and this address's message with the ownership context (verified on the
 * verifier's threads: milliseconds of CPU that must not hold up the event loop).
 */
export async function ownershipProofFailure(
  verifier: SignatureVerifier,
  tenantId: string,
  address: string,
  publicKey: string,
  signature: string,
): Promise<OwnershipProofFailure | null> {
  let canonical: string;
  try {
    canonical = parseAddress(address);
  } catch {
    return "ADDRESS_FORMAT";
  }
  if (typeof publicKey !== "string" || !hexOfBytes(publicKey, MLDSA87_PUBLIC_KEY_LENGTH)) return "PUBLIC_KEY_FORMAT";
  if (typeof signature !== "string" || !hexOfBytes(signature, MLDSA87_SIGNATURE_LENGTH)) return "SIGNATURE_FORMAT";
  if (addressFromPublicKey(publicKey as `0x${string}`) !== canonical) return "ADDRESS_MISMATCH";
  if (typeof tenantId !== "string" || tenantId.length === 0) return "PROOF_INVALID";
  const proven = await verifier.verify({
    publicKey,
    signature,
    message: ownershipProofMessage(tenantId, canonical),
    context: OWNERSHIP_PROOF_CONTEXT,
  });
  return proven ? null : "PROOF_INVALID";
}

export function invalidOwnershipProof(reason: OwnershipProofFailure, details: Record<string, unknown> = {}): AppError {
  return new AppError("INVALID_OWNERSHIP_PROOF", MESSAGES[reason], { details: { reason, ...details } });
}

const canonicalHex = (value: string) => `0x${value.replace(/^0x/, "").toLowerCase()}`;

/** A REGISTERED wallet: an existing key whose holder proved ownership (every failure 400, 1105). */
export async function registerWallet(
  deps: Pick<ServiceDeps, "db" | "now" | "verifier">,
  input: RegisterWalletInput,
): Promise<WalletRecord> {
  return inWalletTransaction(deps.db, input.address, async (tx) => {
    const vault = await lockWritableVault(tx, input.tenantId, input.vaultId);
    const failure = await ownershipProofFailure(deps.verifier, input.tenantId, input.address, input.publicKey, input.signature);
    if (failure) throw invalidOwnershipProof(failure);
    return insertWallet(tx, {
      tenantId: input.tenantId,
      vault,
      type: "REGISTERED",
      address: parseAddress(input.address),
      publicKey: canonicalHex(input.publicKey),
      ownershipProof: canonicalHex(input.signature),
      label: input.label,
      assetIds: input.assetIds,
      actor: input.actor,
      auditAction: "wallet.registered",
      now: deps.now(),
    });
  });
}
