/**
 * The transaction lifecycle of CONTRACT §6 and its subsets are @qc/domain's (one vocabulary,
 * docs/decisions/foundation.md); the services read them from here as before.
 */
export {
  CANCELLABLE_STATUSES,
  ENDED_WITHOUT_TRANSFER,
  isEndedWithoutTransfer,
  isTerminalStatus,
  SUB_STATUSES,
  TERMINAL_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_STATUSES,
  type TransactionStatus,
  type TransactionSubStatus,
} from "@qc/domain";
