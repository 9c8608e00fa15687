/**
 * The transaction lifecycle of CONTRACT §6, mirrored by the PostgreSQL enums
 * `transaction_status` and `transaction_sub_status` (packages/db/src/schema/transfers.ts).
 */
export const TRANSACTION_STATUSES = [
  "SUBMITTED",
  "QUEUED",
  "PENDING_SIGNATURE",
  "SIGNED",
  "BROADCASTING",
  "CONFIRMING",
  "COMPLETED",
  "BLOCKED",
  "REJECTED",
  "CANCELLED",
  "EXPIRED",
  "FAILED",
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Terminal failures and the subStatus each may carry. */
export const SUB_STATUSES = {
  BLOCKED: ["BLOCKED_BY_POLICY", "REJECTED_AML_SCREENING", "QUOTA_EXCEEDED"],
  REJECTED: ["REJECTED_BY_SIGNER"],
  CANCELLED: ["CANCELLED_BY_USER"],
  EXPIRED: ["SIGNING_TIMEOUT"],
  FAILED: ["SIGNATURE_MISMATCH", "INSUFFICIENT_FUNDS", "DROPPED_BY_CHAIN", "REVERTED_ON_CHAIN", "INTERNAL_ERROR"],
} as const satisfies Partial<Record<TransactionStatus, readonly string[]>>;

export type TransactionSubStatus = (typeof SUB_STATUSES)[keyof typeof SUB_STATUSES][number];
export const TRANSACTION_SUB_STATUSES = Object.values(SUB_STATUSES).flat() as TransactionSubStatus[];

export const TERMINAL_STATUSES = ["COMPLETED", "BLOCKED", "REJECTED", "CANCELLED", "EXPIRED", "FAILED"] as const satisfies readonly TransactionStatus[];

/** `POST /v1/transactions/{id}/cancel` is allowed from these (CONTRACT §6). */
export const CANCELLABLE_STATUSES = ["SUBMITTED", "QUEUED", "PENDING_SIGNATURE"] as const satisfies readonly TransactionStatus[];

export const isTerminalStatus = (status: TransactionStatus): boolean => (TERMINAL_STATUSES as readonly string[]).includes(status);
