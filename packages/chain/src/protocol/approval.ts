import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { bytesToHex, hexToBytes, keccak256, stringToBytes, type Hex } from "viem";
import { InvalidTransactionFieldError } from "../errors/transaction";
import { parseAddress } from "./address";
import {
  ADDRESS_BOOK_APPROVAL_DOMAIN,
  APPROVAL_CONTEXT,
  APPROVAL_CONTEXT_BYTES,
  APPROVER_KEY_CONTEXT,
  APPROVER_KEY_CONTEXT_BYTES,
  MLDSA87_PUBLIC_KEY_LENGTH,
  MLDSA87_SIGNATURE_LENGTH,
} from "./constants";
import { bytesFromInput } from "./encoding";
import { secretKeyBytes } from "./keys";

/** What an approver approves (CONTRACT §15): the transfer's intent, as the record states it. */
export type ApprovalFields = {
  tenantId: string;
  transactionId: string;
  chainId: number;
  sourceAddress: string;
  /** `null` for a contract deployment, which has no destination. */
  destinationAddress: string | null;
  /** `null` for a contract deployment, which moves no asset. */
  assetId: string | null;
  /** Base units, a decimal integer string as the record stores it. */
  amount: string;
  /** The record's `type`: `TRANSFER` or `CONTRACT_DEPLOY`. */
  type: string;
};

const DECIMAL_INTEGER = /^(?:0|[1-9][0-9]*)$/;
const LINE_BREAK = /[\r\n]/;

/**
 * The lines `approvalHash` is computed over, in order: `QUANTUM-APPROVAL-v1`, tenantId,
 * transactionId, chainId (decimal), sourceAddress and destinationAddress (lower-case `0x`), assetId,
 * amount, type. A contract deployment has no destination and no asset: those lines are empty. Throws
 * `InvalidTransactionFieldError` on a field that cannot be written unambiguously (a line break,
 * an empty identifier, an amount that is not a decimal integer) and `InvalidAddressError` on an
 * address that is not one.
 */
export function approvalLines(fields: ApprovalFields): string[] {
  if (!Number.isSafeInteger(fields.chainId) || fields.chainId < 0) {
    throw new InvalidTransactionFieldError({ field: "chainId", reason: "must be a non-negative integer" });
  }
  if (typeof fields.amount !== "string" || !DECIMAL_INTEGER.test(fields.amount)) {
    throw new InvalidTransactionFieldError({ field: "amount", reason: "must be a decimal integer string" });
  }
  return [
    APPROVAL_CONTEXT,
    singleLine("tenantId", fields.tenantId),
    singleLine("transactionId", fields.transactionId),
    String(fields.chainId),
    parseAddress(fields.sourceAddress),
    fields.destinationAddress === null ? "" : parseAddress(fields.destinationAddress),
    fields.assetId === null ? "" : singleLine("assetId", fields.assetId),
    fields.amount,
    singleLine("type", fields.type),
  ];
}

function singleLine(field: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || LINE_BREAK.test(value)) {
    throw new InvalidTransactionFieldError({ field, reason: "must be a non-empty single line" });
  }
  return value;
}

/** keccak256 of the UTF-8 bytes of `approvalLines(fields)` joined by `\n` (CONTRACT §15). */
export function approvalHash(fields: ApprovalFields): Hex {
  return keccak256(stringToBytes(approvalLines(fields).join("\n")));
}

/** What an approver approves when an address-book addition needs a quorum (CONTRACT §16): the entry as added. */
export type AddressBookApprovalFields = {
  tenantId: string;
  entryId: string;
  networkCode: string;
  address: string;
  label: string;
  /** The assets the entry is limited to; `null`: every asset of its network. */
  assetIds: readonly string[] | null;
  /** ISO 8601 with milliseconds, as the record shows it. */
  createdAt: string;
};

/**
 * The lines an address-book entry's `approvalHash` is computed over, in order:
 * `QUANTUM-ADDRESS-BOOK-APPROVAL-v1` (so no entry's hash is ever a transfer's), tenantId, entryId,
 * networkCode, address (lower-case `0x`), label, the asset ids sorted and joined by `,` (empty for
 * every asset), createdAt. Throws like `approvalLines` on a field that cannot be written unambiguously.
 */
export function addressBookApprovalLines(fields: AddressBookApprovalFields): string[] {
  const assetIds = fields.assetIds === null ? [] : fields.assetIds.map((id) => singleLine("assetIds", id));
  if (assetIds.some((id) => id.includes(",")))
    throw new InvalidTransactionFieldError({ field: "assetIds", reason: "must not hold a comma" });
  return [
    ADDRESS_BOOK_APPROVAL_DOMAIN,
    singleLine("tenantId", fields.tenantId),
    singleLine("entryId", fields.entryId),
    singleLine("networkCode", fields.networkCode),
    parseAddress(fields.address),
    singleLine("label", fields.label),
    [...assetIds].sort().join(","),
    singleLine("createdAt", fields.createdAt),
  ];
}

/** keccak256 of the UTF-8 bytes of `addressBookApprovalLines(fields)` joined by `\n`; signed like a transfer's (`signApproval`). */
export function addressBookApprovalHash(fields: AddressBookApprovalFields): Hex {
  return keccak256(stringToBytes(addressBookApprovalLines(fields).join("\n")));
}

/** ML-DSA-87 signature, context `QUANTUM-APPROVAL-v1`, over the 32 bytes of an `approvalHash`. */
export function signApproval(hash: Hex, secretKey: Uint8Array | Hex): Hex {
  return signHash(hash, secretKey, APPROVAL_CONTEXT_BYTES);
}

export type VerifyApprovalParameters = {
  approvalHash: Hex | Uint8Array | string;
  signature: Hex | Uint8Array | string;
  publicKey: Hex | Uint8Array | string;
};

/**
 * True only when `signature` (4627 bytes) verifies over the 32-byte `approvalHash` under
 * `publicKey` (2592 bytes) with the approval context. Never throws.
 */
export function verifyApproval({ approvalHash: hash, signature, publicKey }: VerifyApprovalParameters): boolean {
  return verifyHash(hash, signature, publicKey, APPROVAL_CONTEXT_BYTES);
}

/**
 * keccak256 of the UTF-8 of `QUANTUM-APPROVER-KEY-v1\n<tenantId>\n<userId>`: what an approval
 * key signs when it is enrolled, binding it to one member of one tenant.
 */
export function approverKeyProofHash(tenantId: string, userId: string): Hex {
  singleLine("tenantId", tenantId);
  singleLine("userId", userId);
  return keccak256(stringToBytes(`${APPROVER_KEY_CONTEXT}\n${tenantId}\n${userId}`));
}

export type SignApproverKeyProofParameters = { tenantId: string; userId: string; secretKey: Uint8Array | Hex };

/** ML-DSA-87 signature, context `QUANTUM-APPROVER-KEY-v1`, over `approverKeyProofHash(tenantId, userId)`. */
export function signApproverKeyProof({ tenantId, userId, secretKey }: SignApproverKeyProofParameters): Hex {
  return signHash(approverKeyProofHash(tenantId, userId), secretKey, APPROVER_KEY_CONTEXT_BYTES);
}

export type VerifyApproverKeyProofParameters = {
  tenantId: string;
  userId: string;
  publicKey: Hex | Uint8Array | string;
  proof: Hex | Uint8Array | string;
};

/** Whether `proof` shows the holder of `publicKey` enrolls it for this member of this tenant. Never throws. */
export function verifyApproverKeyProof({ tenantId, userId, publicKey, proof }: VerifyApproverKeyProofParameters): boolean {
  try {
    return verifyHash(approverKeyProofHash(tenantId, userId), proof, publicKey, APPROVER_KEY_CONTEXT_BYTES);
  } catch {
    return false;
  }
}

function signHash(hash: Hex, secretKey: Uint8Array | Hex, context: Uint8Array): Hex {
  const message = hexToBytes(hash);
  if (message.length !== 32) throw new RangeError("the hash signed must be 32 bytes");
  return bytesToHex(ml_dsa87.sign(message, secretKeyBytes(secretKey), { context }));
}

function verifyHash(hash: unknown, signature: unknown, publicKey: unknown, context: Uint8Array): boolean {
  const message = bytesFromInput(hash, 32);
  const sig = bytesFromInput(signature, MLDSA87_SIGNATURE_LENGTH);
  const key = bytesFromInput(publicKey, MLDSA87_PUBLIC_KEY_LENGTH);
  if (!message || !sig || !key) return false;
  try {
    return ml_dsa87.verify(sig, message, key, { context });
  } catch {
    return false;
  }
}
