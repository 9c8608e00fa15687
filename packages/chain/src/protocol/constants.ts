import type { Hex } from "viem";

/** Typed-transaction byte of a QUANTUM transaction (EIP-2718 envelope). */
export const QUANTUM_TX_TYPE = 0x51;
export const QUANTUM_TX_TYPE_HEX = "0x51" as const;

/**
 * Key descriptor, 3 bytes: byte 0 is the signature scheme (1 = ML-DSA-87), bytes 1–2 are
 * reserved parameters and must be zero. It is hashed into the address and carried in every
 * transaction so a future scheme cannot be confused with this one.
 */
export const MLDSA87_DESCRIPTOR: Hex = "0x010000";
export const MLDSA87_DESCRIPTOR_BYTES = new Uint8Array([0x01, 0x00, 0x00]);

/** FIPS 204 ML-DSA-87 sizes in bytes. */
export const MLDSA87_PUBLIC_KEY_LENGTH = 2592;
export const MLDSA87_SECRET_KEY_LENGTH = 4896;
export const MLDSA87_SIGNATURE_LENGTH = 4627;
export const MLDSA87_SEED_LENGTH = 32;

/** ML-DSA context strings (FIPS 204 domain separation). */
export const TRANSACTION_SIGNATURE_CONTEXT = "QUANTUM-TX-v1";
export const OWNERSHIP_PROOF_CONTEXT = "QUANTUM-OWNERSHIP-v1";
/** An approver's signature over a transfer's `approvalHash` (CONTRACT §15); also the hash's first line. */
export const APPROVAL_CONTEXT = "QUANTUM-APPROVAL-v1";
/** An approver's proof that they hold the approval key they enroll (CONTRACT §15). */
export const APPROVER_KEY_CONTEXT = "QUANTUM-APPROVER-KEY-v1";
/**
 * The first line of an address-book entry's `approvalHash` (CONTRACT §16), which separates it from a
 * transfer's: the signature's context stays `QUANTUM-APPROVAL-v1`, the hashed lines differ from the first.
 */
export const ADDRESS_BOOK_APPROVAL_DOMAIN = "QUANTUM-ADDRESS-BOOK-APPROVAL-v1";

export const TRANSACTION_SIGNATURE_CONTEXT_BYTES = new TextEncoder().encode(TRANSACTION_SIGNATURE_CONTEXT);
export const OWNERSHIP_PROOF_CONTEXT_BYTES = new TextEncoder().encode(OWNERSHIP_PROOF_CONTEXT);
export const APPROVAL_CONTEXT_BYTES = new TextEncoder().encode(APPROVAL_CONTEXT);
export const APPROVER_KEY_CONTEXT_BYTES = new TextEncoder().encode(APPROVER_KEY_CONTEXT);

export const ADDRESS_LENGTH = 20;
