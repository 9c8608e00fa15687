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

/** CONTRACT §20: the pre-sign simulation a record carries (`review` and `approve` show its balance changes). */
export const simulationSchema = z.looseObject({
  status: z.string(),
  revertReason: z.string().nullable().optional(),
  gasUsed: z.string().nullable().optional(),
  balanceChanges: z.array(z.looseObject({ address: z.string(), assetId: z.string(), delta: z.string().regex(/^-?(0|[1-9][0-9]*)$/) })),
  blockNumber: z.string().nullable().optional(),
  simulatedAt: z.string().optional(),
  reason: z.string().nullable().optional(),
});
export type Simulation = z.infer<typeof simulationSchema>;

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
  /** What the service's simulation said it would do (CONTRACT §20); null when none was made. */
  simulation: simulationSchema.nullable().optional(),
  createdAt: z.string().optional(),
};
