import { NETWORK_CODES, type NetworkCode } from "@qc/chain";
import {
  APPROVAL_DECISIONS,
  INITIATOR_TYPES,
  POLICY_ACTIONS,
  SCREENING_DECISIONS,
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_STATUSES,
  TRANSACTION_TYPES,
  TRANSACTION_DIRECTIONS,
  VAULT_STATUSES,
  WALLET_STATUSES,
  WALLET_TYPES,
} from "@qc/domain";
import { z } from "zod";

/** CONTRACT §20: a simulation's outcome. */
export const SIMULATION_STATUSES = ["SUCCESS", "REVERT", "UNSUPPORTED"] as const;

/**
 * The records the service hands out (REST bodies, tRPC results, event data), declared once in
 * zod: routers use them as `.output()`, the event catalog as event data, the webhook docs are
 * generated from them.
 */
export const networkCodeSchema = z
  .enum(NETWORK_CODES as [NetworkCode, ...NetworkCode[]])
  .meta({ description: "QUANTUM_MAINNET (20803) or QUANTUM_SANDBOX (20804)" });
export const timestampSchema = z
  .string()
  .meta({ description: "RFC 3339 timestamp, UTC, milliseconds", example: "2026-11-21T10:00:00.000Z" });
/** CONTRACT §1: decimal integer strings, uint256. */
export const amountSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, "a decimal integer string")
  .meta({ description: "decimal integer string in the smallest unit (Qwei or raw token units)", example: "1000000000000000000" });
export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-f]{40}$/)
  .meta({ description: "lower-case 0x + 40 hex", example: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4" });

export const vaultRecordSchema = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  networkCode: networkCodeSchema,
  name: z.string(),
  status: z.enum(VAULT_STATUSES),
  metadata: z.record(z.string(), z.string()),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const walletRecordSchema = z.object({
  id: z.uuid(),
  vaultId: z.uuid(),
  tenantId: z.uuid(),
  assetIds: z.array(z.uuid()),
  networkLinks: z.array(z.object({ networkCode: networkCodeSchema, vaultId: z.uuid() })),
  address: addressSchema,
  publicKey: z.string().nullable(),
  label: z.string().nullable(),
  status: z.enum(WALLET_STATUSES),
  type: z.enum(WALLET_TYPES),
  createdAt: timestampSchema,
});

export const transactionStatusSchema = z.enum(TRANSACTION_STATUSES);
export const transactionSubStatusSchema = z.enum(TRANSACTION_SUB_STATUSES);

/** CONTRACT §15: the approval groups a policy rule requires and the decisions taken, as the record shows them. */
export const approvalsSchema = z.object({
  required: z.array(z.object({ groupId: z.uuid(), quorum: z.number().int().min(1) })),
  decisions: z.array(
    z.object({
      userId: z.uuid(),
      decision: z.enum(APPROVAL_DECISIONS),
      groupIds: z.array(z.uuid()),
      keyId: z.uuid().nullable(),
      reason: z.string().nullable(),
      decidedAt: timestampSchema,
    }),
  ),
});

/** One balance a simulated transaction changes: the holder, the asset and the signed change in raw units. */
export const balanceChangeSchema = z.object({
  address: addressSchema,
  assetId: z.uuid().meta({ description: "the asset's id (GET /v1/assets): the network's native asset or the transfer's token" }),
  delta: z
    .string()
    .regex(/^-?(0|[1-9][0-9]*)$/)
    .meta({ description: "signed decimal integer string in raw units; negative for an outflow", example: "-1000021000000000000" }),
});

/** CONTRACT §20: what `eth_simulateV1` said a transaction would do, on top of the latest block. */
export const transactionSimulationSchema = z.object({
  status: z.enum(SIMULATION_STATUSES).meta({
    description:
      "SUCCESS or REVERT as the node executed it; UNSUPPORTED when no simulation could be made (the node lacks " +
      "eth_simulateV1, or did not answer: see `reason`)",
  }),
  revertReason: z
    .string()
    .nullable()
    .meta({ description: "a REVERT's reason: the Error(string) text, a Panic, a decoded ERC-6093 error, or the node's refusal" }),
  gasUsed: amountSchema.nullable(),
  balanceChanges: z.array(balanceChangeSchema).meta({
    description:
      "every balance the transaction changes; the source's native change includes the fee (gasUsed × effective gas price). " +
      "Native changes come from the node's traceTransfers logs, token changes from the token's Transfer logs",
  }),
  blockNumber: amountSchema.nullable().meta({ description: "the simulated block (the one after the latest)" }),
  simulatedAt: timestampSchema,
  reason: z.string().nullable().optional().meta({ description: "UNSUPPORTED only: why no simulation was made" }),
});

export type TransactionSimulation = z.infer<typeof transactionSimulationSchema>;

/** CONTRACT §6: the transaction record. */
export const transactionRecordSchema = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  externalId: z.string().nullable(),
  type: z.enum(TRANSACTION_TYPES),
  direction: z
    .enum(TRANSACTION_DIRECTIONS)
    .meta({ description: "INBOUND for a DEPOSIT (an incoming transfer the service saw on chain), OUTBOUND for what the service sends" }),
  networkCode: networkCodeSchema,
  chainId: z.number().int(),
  sourceWalletId: z.uuid().nullable().meta({ description: "the sending wallet; null for a deposit (its sender is sourceAddress)" }),
  sourceAddress: addressSchema,
  destinationWalletId: z.uuid().nullable().meta({ description: "the receiving wallet of a deposit; null otherwise" }),
  destinationAddress: addressSchema.nullable(),
  assetId: z.uuid().nullable().meta({ description: "null for a deployment, and for a deposit of a token the tenant has no asset for" }),
  tokenAddress: addressSchema
    .nullable()
    .meta({ description: "a token deposit's contract (set whether or not the tenant has an asset for it); null otherwise" }),
  logIndex: z.number().int().nullable().meta({ description: "a token deposit's Transfer log index in its block; null otherwise" }),
  amount: amountSchema,
  status: transactionStatusSchema,
  subStatus: transactionSubStatusSchema.nullable(),
  statusReason: z.string().nullable(),
  nonce: z.number().int().nullable(),
  fee: z.object({ gasLimit: amountSchema, maxFeePerGas: amountSchema, maxPriorityFeePerGas: amountSchema }).nullable(),
  signingHash: z.string().nullable(),
  chainTxHash: z.string().nullable(),
  blockNumber: z.number().int().nullable(),
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
  screening: z
    .object({ provider: z.string(), decision: z.enum(SCREENING_DECISIONS), riskScore: z.number().nullable(), reasons: z.array(z.string()) })
    .nullable(),
  policy: z.object({ decision: z.enum(POLICY_ACTIONS), ruleId: z.string().nullable() }).nullable(),
  contractAddress: addressSchema.nullable(),
  deployment: z
    .object({
      templateId: z.string().meta({ description: "the catalog template deployed (GET /v1/contracts/templates)" }),
      constructorArgs: z
        .record(z.string(), z.union([z.string(), z.boolean()]))
        .meta({ description: "the constructor arguments in canonical form: integers as decimal strings, addresses lower-case" }),
    })
    .optional()
    .meta({ description: "present on a CONTRACT_DEPLOY only: the template and constructor arguments deployed" }),
  note: z.string().nullable(),
  destinationLabel: z
    .string()
    .nullable()
    .meta({
      description:
        "the label of the destination's active address-book entry, as found when the policy was last decided with a rule " +
        "matching on `destination`; null otherwise",
    }),
  initiatedBy: z
    .object({ type: z.enum(INITIATOR_TYPES), userId: z.uuid().nullable(), keyId: z.string().nullable() })
    .nullable()
    .meta({
      description: "who created it: a member's session (USER) or a member's API key (API_KEY, with the key's member)",
    }),
  approvals: approvalsSchema
    .nullable()
    .meta({ description: "present once a policy rule required approval: the groups required and every decision taken" }),
  replacesTransactionId: z
    .uuid()
    .nullable()
    .meta({ description: "a REPLACEMENT's or CANCELLATION's original: the transaction whose nonce it takes" }),
  replacedByTransactionId: z
    .uuid()
    .nullable()
    .meta({ description: "ended FAILED/REPLACED or CANCELLED/CANCELLED_ON_CHAIN: the transaction of the same nonce that was mined" }),
  stuck: z.boolean().meta({ description: `BROADCASTING for longer than STUCK_AFTER_SECONDS (default 120) without being mined` }),
  batchId: z.uuid().nullable().meta({ description: "the batch it was created in (`POST /v1/transactions/batch`); null otherwise" }),
  simulation: transactionSimulationSchema.nullable().meta({
    description:
      "the pre-sign simulation made when it entered PENDING_SIGNATURE or AWAITING_APPROVAL (the latest such entry); null otherwise",
  }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  signedAt: timestampSchema.nullable(),
  broadcastAt: timestampSchema.nullable(),
  completedAt: timestampSchema.nullable(),
});

export type TransactionRecord = z.infer<typeof transactionRecordSchema>;
