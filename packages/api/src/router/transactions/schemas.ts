import { amountSchema, transactionRecordSchema, transactionStatusSchema, transactionSubStatusSchema } from "@qc/core";
import { z } from "zod";
import { multilineText, networkCode, text, timestamp } from "../../schemas/common";

export const transactionIdParam = z.uuid().meta({ description: "the transaction's id" });

/** CONTRACT §6: the transaction record (the same schema the events carry). */
export const transactionRecord = transactionRecordSchema;

/** A transfer's intent as the client states it: POST /v1/transactions and POST /v1/policies/evaluate. */
export const transferIntent = z.object({
  networkCode,
  sourceWalletId: z.uuid().meta({ description: "an ACTIVE wallet of the tenant placed on `networkCode`; never WATCH_ONLY" }),
  destinationAddress: z.string().max(200).meta({
    description: "40 hex digits with optional 0x, any case; mixed case must pass EIP-55 (400 INVALID_ADDRESS otherwise)",
    example: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
  }),
  assetId: z.uuid().meta({ description: "an asset of `networkCode` the tenant sees (GET /v1/assets)" }),
  amount: amountSchema
    .refine((value) => value !== "0", "amount must be greater than zero")
    .meta({ description: "raw units (Qwei or token base units) as a decimal string above zero; a JSON number is refused" }),
});

export const createTransferInput = transferIntent.extend({
  externalId: text()
    .trim()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: "your reference, unique per tenant (409 DUPLICATE_EXTERNAL_ID)" }),
  note: multilineText().max(1000).optional(),
});

export const transactionStatusEvent = z.object({
  id: z.uuid(),
  at: timestamp,
  from: transactionStatusSchema.nullable().meta({ description: "null for the creation" }),
  to: transactionStatusSchema,
  subStatus: transactionSubStatusSchema.nullable(),
  reason: z.string().nullable(),
  actor: z.object({
    type: z.string().meta({ description: "api_key, user, system (a pipeline job) or provider" }),
    id: z.string().nullable().meta({ description: "the API key id, user id or job name" }),
  }),
});
