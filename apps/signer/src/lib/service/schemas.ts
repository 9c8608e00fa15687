import { z } from "zod";

/** The shapes every list and record of the contract shares (CONTRACT §1). */
export const pageSchema = z.object({ nextCursor: z.string().nullable(), hasMore: z.boolean() });
export const uint256 = z.string().regex(/^(0|[1-9][0-9]{0,77})$/, "must be a decimal integer string");
export const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of 0x-prefixed hex");

/**
 * The transaction types of the record (CONTRACT §6, §21); signer-api.test.ts holds them equal to the
 * service's. A DEPOSIT is never offered for signing (the service lists outbound transactions only).
 */
export const TRANSACTION_TYPES = ["TRANSFER", "CONTRACT_DEPLOY", "DEPOSIT", "NONCE_FILL", "REPLACEMENT", "CANCELLATION"] as const;

/** The intent every transaction record states (CONTRACT §6), the part each list's record schema shares. */
export const recordIntentShape = {
  id: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  status: z.string(),
  networkCode: z.string(),
  chainId: z.number().int().positive(),
  sourceAddress: z.string(),
  destinationAddress: z.string().nullable(),
  assetId: z.string().nullable(),
  amount: uint256,
  note: z.string().nullable().optional(),
  externalId: z.string().nullable().optional(),
  /** The batch it was created in (CONTRACT §18, `review --batch`); null otherwise. */
  batchId: z.string().nullable().optional(),
  createdAt: z.string().optional(),
};
