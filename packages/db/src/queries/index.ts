/**
 * The queries layer: every SQL statement of the service lives under packages/db/src/queries,
 * one file per area, each function taking the executor (database or open transaction) first and
 * the tenant id in every where-clause of tenant data. Core services call these; nothing above
 * core writes SQL.
 */
export * from "./assets";
export * from "./balances";
export * from "./audit";
export * from "./audit-chain";
export * from "./events";
export * from "./heartbeats";
export * from "./leases";
export * from "./idempotency";
export * from "./kyc";
export * from "./policies";
export * from "./screening";
export * from "./settings";
export * from "./signer-keys";
export * from "./status";
export * from "./tenants";
export * from "./transactions";
export * from "./transaction-signing";
export * from "./transaction-evidence";
export * from "./transfer-sources";
export * from "./same-nonce";
export * from "./stuck";
export * from "./watched-transactions";
export { insertTransactionWithTrail } from "../hot-path/transaction-with-trail";
export {
  moveMinedWithTrail,
  moveSignedWithTrail,
  moveTransactionWithTrail,
  type BroadcastMove,
  type MinedMove,
  type TransactionMove,
} from "../hot-path/transaction-move";
export * from "./vaults";
export * from "./wallets";
export * from "./webhooks";
export * from "./operator-passkeys";
export * from "./operators";
export * from "./identity";
export * from "./members";
export * from "./email";
export * from "./credentials";
export * from "./auth";
export * from "./within-transaction";
export * from "./passkeys";
export * from "./approval-keys";
export * from "./approver-groups";
export * from "./transaction-approvals";
export * from "./address-book";
export * from "./usage";
export * from "./deposits";
export * from "./audit-keys";
