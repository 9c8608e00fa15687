import { EXAMPLE } from "../../openapi-examples";

/** One transfer, told consistently across the transaction routes' examples. */
export const EXAMPLE_TRANSACTION = {
  id: "0194f2c5-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
  tenantId: EXAMPLE.tenantId,
  externalId: "payout-2026-11-21-0001",
  type: "TRANSFER",
  direction: "OUTBOUND",
  networkCode: "QUANTUM_SANDBOX",
  chainId: 20804,
  sourceWalletId: EXAMPLE.walletId,
  sourceAddress: EXAMPLE.address,
  destinationWalletId: null,
  destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
  assetId: EXAMPLE.sandboxNativeAssetId,
  tokenAddress: null,
  logIndex: null,
  amount: "1500000000000000000",
  status: "SUBMITTED",
  subStatus: null,
  statusReason: null,
  nonce: null,
  fee: null,
  signingHash: null,
  chainTxHash: null,
  blockNumber: null,
  confirmations: 0,
  requiredConfirmations: 2,
  screening: null,
  policy: null,
  contractAddress: null,
  note: "November payout",
  destinationLabel: null,
  initiatedBy: { type: "API_KEY", userId: EXAMPLE.userId, keyId: EXAMPLE.keyId },
  approvals: null,
  replacesTransactionId: null,
  replacedByTransactionId: null,
  stuck: false,
  batchId: null,
  simulation: null,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
  signedAt: null,
  broadcastAt: null,
  completedAt: null,
} as const;

/** The same transfer once the checks cleared it and it was released for signing. */
export const EXAMPLE_PENDING_TRANSACTION = {
  ...EXAMPLE_TRANSACTION,
  status: "PENDING_SIGNATURE",
  nonce: 7,
  fee: { gasLimit: "25200", maxFeePerGas: "2000000000", maxPriorityFeePerGas: "1000000000" },
  signingHash: "0x3f1c9a7e5b2d8c4a6e0f9b3d7a1c5e8f2b6d0a4c8e2f6b0d4a8c2e6f0b4d8a2c",
  screening: { provider: "denylist", decision: "CLEAR", riskScore: null, reasons: [] },
  policy: { decision: "ALLOW", ruleId: null },
  updatedAt: EXAMPLE.updatedAt,
} as const;

/**
 * A token deposit to the same wallet (CONTRACT §21), as the chain follower records it: INBOUND, no
 * source wallet (the sender is `sourceAddress`), the receiving wallet, the Transfer log's contract
 * and index, the sender screened, COMPLETED at the network's confirmations.
 */
export const EXAMPLE_DEPOSIT = {
  ...EXAMPLE_TRANSACTION,
  id: "0194f2c7-3d4e-7f50-9a61-b2c3d4e5f607",
  externalId: null,
  type: "DEPOSIT",
  direction: "INBOUND",
  sourceWalletId: null,
  sourceAddress: "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2",
  destinationWalletId: EXAMPLE.walletId,
  destinationAddress: EXAMPLE.address,
  assetId: EXAMPLE.tokenAssetId,
  tokenAddress: EXAMPLE.tokenAddress,
  logIndex: 4,
  amount: "250000000",
  status: "COMPLETED",
  chainTxHash: "0x8d2f6b0a4c8e2f6b0d4a8c2e6f0b4d8a2c3f1c9a7e5b2d8c4a6e0f9b3d7a1c5e",
  blockNumber: 48213,
  confirmations: 2,
  screening: { provider: "denylist", decision: "CLEAR", riskScore: null, reasons: [] },
  note: null,
  initiatedBy: null,
  createdAt: "2026-11-21T10:07:00.000Z",
  updatedAt: "2026-11-21T10:07:02.000Z",
  completedAt: "2026-11-21T10:07:02.000Z",
} as const;

export const EXAMPLE_CREATE_TRANSFER = {
  networkCode: EXAMPLE_TRANSACTION.networkCode,
  sourceWalletId: EXAMPLE_TRANSACTION.sourceWalletId,
  destinationAddress: EXAMPLE_TRANSACTION.destinationAddress,
  assetId: EXAMPLE_TRANSACTION.assetId,
  amount: EXAMPLE_TRANSACTION.amount,
  externalId: EXAMPLE_TRANSACTION.externalId,
  note: EXAMPLE_TRANSACTION.note,
} as const;

/** The same transfer signed and sent, not yet mined (waiting in the pool during a fee spike). */
export const EXAMPLE_BROADCASTING_TRANSACTION = {
  ...EXAMPLE_PENDING_TRANSACTION,
  status: "BROADCASTING",
  chainTxHash: "0x6a1d3c5e7f9b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f",
  stuck: true,
  signedAt: EXAMPLE.updatedAt,
  broadcastAt: EXAMPLE.updatedAt,
} as const;

/** Its speed-up (CONTRACT §17): the same transfer at the same nonce with higher fee caps, for the signer to sign. */
export const EXAMPLE_REPLACEMENT = {
  ...EXAMPLE_PENDING_TRANSACTION,
  id: "0194f2c9-5e6f-7a81-9b2c-d3e4f5a6b7c8",
  externalId: null,
  type: "REPLACEMENT",
  replacesTransactionId: EXAMPLE_BROADCASTING_TRANSACTION.id,
  fee: { gasLimit: "25200", maxFeePerGas: "60000000000", maxPriorityFeePerGas: "1125000000" },
  signingHash: "0x7b2e4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f6a1d3c5e7f9b2d4f6a8c",
  createdAt: EXAMPLE.updatedAt,
} as const;

/** Its cancellation on chain: zero value from the source to itself at the same nonce, higher fee caps. */
export const EXAMPLE_CANCELLATION = {
  ...EXAMPLE_REPLACEMENT,
  id: "0194f2ca-6f70-7b92-8c3d-e4f5a6b7c8d9",
  type: "CANCELLATION",
  destinationAddress: EXAMPLE.address,
  assetId: null,
  amount: "0",
  note: "November payout",
  fee: { gasLimit: "21000", maxFeePerGas: "60000000000", maxPriorityFeePerGas: "1125000000" },
  signingHash: "0x1c3e5a7b9d2f4a6c8e0b2d4f6a8c0e2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d",
} as const;

/** A batch of two payouts (CONTRACT §18): the second's destination is not an address, refused at its index. */
export const EXAMPLE_CREATE_BATCH = {
  items: [EXAMPLE_CREATE_TRANSFER, { ...EXAMPLE_CREATE_TRANSFER, externalId: "payout-2026-11-21-0002", destinationAddress: "0x5b38da6a" }],
};

/** Its answer: the first item created in the batch, the second refused as `POST /v1/transactions` refuses that body. */
export const EXAMPLE_BATCH = {
  batchId: "0194f2c5-1a2a-7b3c-8d4e-5f6a7b8c9d0e",
  items: [
    { index: 0, transaction: { ...EXAMPLE_TRANSACTION, batchId: "0194f2c5-1a2a-7b3c-8d4e-5f6a7b8c9d0e" } },
    {
      index: 1,
      error: {
        error: "INVALID_ADDRESS",
        code: 1204,
        message: "destinationAddress is not a valid address: 40 hex digits with optional 0x; mixed case must pass EIP-55",
        requestId: "0b9f1c5e-2d4a-4e7b-8c3f-5a6d7e8f9a0b",
        details: { field: "destinationAddress" },
      },
    },
  ],
};
