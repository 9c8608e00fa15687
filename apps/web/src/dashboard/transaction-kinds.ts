import { TRANSACTION_TYPES, type TransactionDirection, type TransactionType } from "@qc/domain";

// What a transaction does and which way its value moves (CONTRACT §6, §21), in the dashboard's
// words. The lists are @qc/domain's (dependency-free, so a page may import it); a new type or
// direction fails to compile here until it has its words.
export { TRANSACTION_TYPES };

/** A type's name in filters and headings. */
export const TRANSACTION_TYPE_NAMES: Record<TransactionType, string> = {
  TRANSFER: "Transfer",
  CONTRACT_DEPLOY: "Contract deployment",
  DEPOSIT: "Deposit",
  NONCE_FILL: "Nonce fill",
  REPLACEMENT: "Speed-up",
  CANCELLATION: "Cancellation",
};

/** The direction marker of lists: In for a deposit to one of the tenant's wallets, Out for what the service sends. */
export const DIRECTION_MARKERS: Record<TransactionDirection, { label: string; hint: string }> = {
  INBOUND: { label: "In", hint: "incoming: a deposit to one of your wallets, seen on chain" },
  OUTBOUND: { label: "Out", hint: "outgoing: sent by the service from one of your wallets" },
};
