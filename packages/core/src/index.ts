/**
 * The public API of @qc/core: what the other packages (api, web, daemon) and bench use.
 * Everything else is internal to the package; export a name here only when another package needs it.
 */

// Errors, logging, configuration and dependencies
export {
  AppError,
  AUTHENTICATION_ERRORS,
  ERROR_CODES,
  ERROR_NAMES,
  errorBody,
  type ErrorBody,
  type ErrorName,
  type FieldError,
  GUARD_ERRORS,
  MAX_REQUEST_BODY_BYTES,
  PAYLOAD_TOO_LARGE_MESSAGE,
  toAppError,
} from "./errors";
export { createLogger, type Logger } from "./logger";
export { developmentMode, parseEnv, productionRules, serviceConfigFromEnv, serviceEnvSchema } from "./env";
export { defaultTransferConfig, defaultWebhookConfig, serviceConfig, type ServiceConfig, type WebhookConfig } from "./deps/service-config";
export { type ChainClients, createChainClients, createServiceDeps, type ServiceDeps } from "./deps/service-deps";

// audit
export { type Actor, actorFromPrincipal, systemActor } from "./audit/actor";
export { listAuditEvents } from "./audit/list-audit-events";
export { auditChainFields, auditRowHash, type AuditChainActor, type AuditChainFields } from "./audit/audit-chain";
export { sealAuditChain } from "./audit/seal-audit-chain";
export {
  activeAuditSigningKey,
  auditKeyId,
  getAuditPublicKey,
  rotateAuditKey,
  type AuditKeyDeps,
  type AuditPublicKey,
} from "./audit/audit-keys";
export {
  AUDIT_CHECKPOINT_CONTEXT,
  auditCheckpointDigest,
  checkpointAuditChain,
  checkpointAuditChains,
  listAuditCheckpoints,
  verifyAuditCheckpoint,
  type AuditCheckpoint,
  type AuditCheckpointRecord,
  type CheckpointAuditChainDeps,
} from "./audit/checkpoint-audit-chain";
export {
  AUDIT_EXPORT_PAGE_SIZE,
  exportAuditLog,
  type AuditExportCheckpointLine,
  type AuditExportEventLine,
  type AuditExportLine,
  type ExportAuditLogInput,
} from "./audit/export-audit-log";

// events
export { EVENT_TYPES, EVENTS } from "./events/catalog";
export { emitEvent } from "./events/emit-event";

// records
export {
  amountSchema,
  transactionRecordSchema,
  transactionSimulationSchema,
  type TransactionSimulation,
  transactionStatusSchema,
  transactionSubStatusSchema,
  vaultRecordSchema,
} from "./records/record-schemas";

// transfers
export {
  CANCELLABLE_STATUSES,
  ENDED_WITHOUT_TRANSFER,
  TERMINAL_STATUSES,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from "./transfers/transaction-status";
export { transitionTransaction } from "./transfers/transition-transaction";
export { rebuildUnsignedTransaction } from "./transfers/unsigned-transaction";
export { listSigningRequests } from "./transfers/list-signing-requests";
export { submitSignature } from "./transfers/submit-signature";
export { rejectTransaction } from "./transfers/reject-transaction";
export { expireTransaction } from "./transfers/expire-transaction";
export { broadcastTransaction, broadcastTransactions } from "./transfers/broadcast-transaction";
export { watchTransaction } from "./transfers/watch-transaction";
export {
  createConfirmationWatcher,
  type ConfirmationWatcher,
  type ConfirmationWatcherOptions,
  type ConfirmationWatchStep,
} from "./transfers/watch-confirmations";
export { createTransfer } from "./transfers/create-transfer";
export { simulateTransfer, simulateTransactionRow, PIPELINE_SIMULATION_TIMEOUT_MS } from "./transfers/simulate-transfer";
export { createTransferBatch, MAX_BATCH_ITEMS, type TransferBatchItem, type TransferBatchOutcome } from "./transfers/create-transfer-batch";
export { releaseNextQueued } from "./transfers/release-next-queued";
export { runTransferChecks } from "./transfers/run-transfer-checks";
export { getTransaction } from "./transfers/get-transaction";
export { getTransactionEvidence, transactionEvidenceSchema, type TransactionEvidence } from "./transfers/transaction-evidence";
export { listTransactions } from "./transfers/list-transactions";
export { cancelTransaction } from "./transfers/cancel-transaction";
export { cancelTransactionOrOnChain } from "./transfers/cancel-on-chain";
export { speedUpTransaction } from "./transfers/speed-up-transaction";

// approval decisions (CONTRACT §15)
export { decideApproval } from "./approvals/decisions/decide-approval";
export {
  getTransactionApprovals,
  listPendingApprovals,
  pendingApprovalsSchema,
  transactionApprovalsSchema,
} from "./approvals/decisions/list-approvals";
export { listTransactionEvents } from "./transfers/list-transaction-events";
export { failUncheckedTransfer } from "./transfers/fail-unchecked-transfer";

// jobs
export { classifyJobError, FinalJobError } from "./jobs/job-errors";
export { deadLetterQueue, type JobName, JOBS, type ParsedJobPayload } from "./jobs/catalog";
export { type JobQueue, startBoss } from "./jobs/queue";

// kyc
export { assertTenantVerified } from "./kyc/assert-tenant-verified";
export { startKyc } from "./kyc/start-kyc";
export { applyKycDecision } from "./kyc/apply-kyc-decision";
export { KYC_SIGNATURE_HEADER, signKycCallback, verifyKycSignature } from "./kyc/kyc-signature";
export { getOnboardingStatus } from "./kyc/get-onboarding-status";

// auth
export { Authenticator, type LockoutPolicy, type Principal, SESSION_TTL_MS } from "./auth/authenticator";
export { ipAllowed } from "./auth/ip-allowlist";
export { DEFAULT_RATE_LIMITS, type RateLimitPolicy, RateLimits, type TenantRateLimit } from "./auth/rate-limits";
export { hasScope, type Scope, SCOPES } from "./auth/scopes";
export { SESSION_COOKIE } from "./auth/tokens";

// credentials
export { createApiKey } from "./credentials/create-api-key";
export { listApiKeys } from "./credentials/list-api-keys";
export { rotateApiKey } from "./credentials/rotate-api-key";
export { revokeApiKey } from "./credentials/revoke-api-key";
export { markExposedCredentials } from "./credentials/mark-exposed-credentials";

// settings
export { getIpAllowlist } from "./settings/get-ip-allowlist";
export { replaceIpAllowlist } from "./settings/replace-ip-allowlist";
export {
  addressBookSettingsSchema,
  getAddressBookSettings,
  replaceAddressBookSettings,
  type AddressBookSettings,
} from "./settings/address-book-settings";

// vaults
export { vaultMetadataErrors } from "./vaults/vault-metadata";
export { createVault } from "./vaults/create-vault";
export { listVaults } from "./vaults/list-vaults";
export { getVault } from "./vaults/get-vault";
export { updateVault } from "./vaults/update-vault";
export { archiveVault } from "./vaults/archive-vault";

// assets
export { nativeAssetId } from "./assets/native-assets";
export { listAssets } from "./assets/list-assets";
export { addTokenAsset } from "./assets/add-token-asset";

// signer-keys
export { countSignerKeys } from "./signer-keys/count-signer-keys";
export { enrollSignerKeys } from "./signer-keys/enroll-signer-keys";

// wallets
export { generateWallet } from "./wallets/generate-wallet";
export { registerWallet } from "./wallets/register-wallet";
export { createWatchOnlyWallet } from "./wallets/create-watch-only-wallet";
export { listVaultWallets } from "./wallets/list-vault-wallets";
export { getWallet } from "./wallets/get-wallet";
export { archiveWallet } from "./wallets/archive-wallet";
export { addNetworkLink } from "./wallets/add-network-link";

// balances
export { readWalletBalance } from "./balances/read-wallet-balance";
export { summarizeBalances, type BalanceSummary } from "./balances/summarize-balances";
export { summarizeDailyFlows, type DailyFlows } from "./balances/summarize-daily-flows";
export { readBalanceHistory, type BalanceHistory } from "./balances/read-balance-history";

// members
export { addMember } from "./members/add-member";
export { changeMemberRole } from "./members/change-member-role";
export { getCurrentMember, listMembers } from "./members/list-members";
export type { MemberRecord } from "./members/member-record";
export { inviteMember } from "./members/invite-member";
export { listInvitations } from "./members/list-invitations";
export { revokeInvitation } from "./members/revoke-invitation";
export { acceptInvitation } from "./members/accept-invitation";
export { removeMember } from "./members/remove-member";
export type { InvitationRecord } from "./members/invitation-record";
export { invitationLink, INVITATION_TTL_MS } from "./members/invitation-email";

// passkeys (CONTRACT §14)
export { finishPasskeyRegistration, startPasskeyRegistration, MAX_PASSKEYS_PER_MEMBER } from "./passkeys/register-passkey";
export { listPasskeys, removePasskey } from "./passkeys/remove-passkey";
export { logInWithPasskey, type PasskeyLoginChallenge } from "./passkeys/log-in-with-passkey";
export { getSecuritySettings, updateSecuritySettings, type SecuritySettings } from "./passkeys/security-settings";
export type { PasskeyRecord } from "./passkeys/passkey-record";
export type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

// identity
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./identity/passwords";
export { signUp } from "./identity/sign-up";
export { verifyEmail } from "./identity/verify-email";
export { resendVerification } from "./identity/resend-verification";
export { logIn } from "./identity/log-in";
export type { LogInResult } from "./identity/open-session";
export { logOut } from "./identity/log-out";
export { requestPasswordReset } from "./identity/request-password-reset";
export { resetPassword } from "./identity/reset-password";

// email
export { deliverEmail, type EmailTransport } from "./email/deliver-email";
export { listDevMailbox } from "./email/list-dev-mailbox";

// secrets
export { loadSecret } from "./secrets/load-secret";

// webhooks
export {
  webhookDeliveryRecordSchema,
  webhookEndpointRecordSchema,
  webhookEndpointWithSecretSchema,
  webhookEventTypeSchema,
} from "./webhooks/webhook-records";
export { createWebhookEndpoint } from "./webhooks/create-webhook-endpoint";
export { listWebhookEndpoints } from "./webhooks/list-webhook-endpoints";
export { getWebhookEndpoint } from "./webhooks/get-webhook-endpoint";
export { updateWebhookEndpoint } from "./webhooks/update-webhook-endpoint";
export { deleteWebhookEndpoint } from "./webhooks/delete-webhook-endpoint";
export { rotateWebhookSecret } from "./webhooks/rotate-webhook-secret";
export { sendTestWebhook } from "./webhooks/send-test-webhook";
export { listWebhookDeliveries } from "./webhooks/list-webhook-deliveries";
export { retryWebhookDelivery } from "./webhooks/retry-webhook-delivery";
export { MAX_RESEND_WINDOW_MS, resendWebhookDeliveries } from "./webhooks/resend-webhook-deliveries";
export { simulateWebhookEvent } from "./webhooks/simulate-webhook-event";
export { dispatchOutboxEvents } from "./webhooks/dispatch-outbox-events";
export { attemptWebhookDelivery } from "./webhooks/attempt-webhook-delivery";
export { rearmOverdueWebhookDeliveries } from "./webhooks/rearm-overdue-webhook-deliveries";
export { MAX_WEBHOOK_URL_LENGTH } from "./webhooks/vet-endpoint-url";

// idempotency
export { idempotencyKeyFromHeaders } from "./idempotency/idempotency-key";
export { replayedError, runIdempotently } from "./idempotency/run-idempotently";
export { purgeExpiredIdempotencyKeys } from "./idempotency/purge-expired-idempotency-keys";
export { purgeOldUsageBuckets, USAGE_RETENTION_DAYS } from "./quotas/purge-old-usage-buckets";

// approver groups and approval keys (CONTRACT §15)
export { createApproverGroup } from "./approvals/groups/create-approver-group";
export { getApproverGroup, listApproverGroups } from "./approvals/groups/list-approver-groups";
export { updateApproverGroup } from "./approvals/groups/update-approver-group";
export { deleteApproverGroup } from "./approvals/groups/delete-approver-group";
export type { ApproverGroupRecord } from "./approvals/groups/approver-group-record";
export { enrollApprovalKey, MAX_ACTIVE_APPROVAL_KEYS } from "./approvals/keys/enroll-approval-key";
export { listApprovalKeys } from "./approvals/keys/list-approval-keys";
export { revokeApprovalKey } from "./approvals/keys/revoke-approval-key";
export type { ApprovalKeyRecord } from "./approvals/keys/approval-key-record";

// address book (CONTRACT §16)
export { createAddressBookEntry } from "./address-book/create-address-book-entry";
export { getAddressBookEntry, listAddressBookEntries } from "./address-book/list-address-book-entries";
export { removeAddressBookEntry } from "./address-book/remove-address-book-entry";
export { announceEntryActivation } from "./address-book/announce-entry-activation";
export { decideAddressBookEntry } from "./address-book/decide-address-book-entry";
export { expireAddressBookEntry } from "./address-book/expire-address-book-entry";
export { addressBookEntryRecordSchema, type AddressBookEntryRecord } from "./address-book/address-book-entry-record";

// policies
export { policyDocumentSchema, policyRecordSchema } from "./policies/policy-document";
export { getPolicy } from "./policies/get-policy";
export { replacePolicy } from "./policies/replace-policy";
export { evaluatePolicy } from "./policies/evaluate-policy";

// screening
export { getScreeningDenylist } from "./screening/get-screening-denylist";
export { replaceScreeningDenylist } from "./screening/replace-screening-denylist";

// operators: the console's own accounts and sessions, and what it shows of the job queues and
// the daemons (the same figures as GET /metrics)
export { OPERATOR_SESSION_COOKIE, OPERATOR_SESSION_TTL_MS } from "./operators/operator-session";
export { logInOperator, type LogInOperatorResult } from "./operators/log-in-operator";
export {
  finishOperatorPasskeyRegistration,
  getOperatorSecuritySettings,
  listOwnOperatorPasskeys,
  logInOperatorWithPasskey,
  removeOwnOperatorPasskey,
  startOperatorPasskeyRegistration,
  updateOperatorSecuritySettings,
  type OperatorSecuritySettings,
} from "./operators/operator-passkeys";
export { authenticateOperator } from "./operators/authenticate-operator";
export { logOutOperator } from "./operators/log-out-operator";
export { readQueuesOverview } from "./operators/read-queue-overview";
export { listDaemonInstances } from "./operators/list-daemon-instances";
export { listFailedJobs } from "./operators/list-failed-jobs";
export { retryFailedJob } from "./operators/retry-failed-job";
export { cancelJob } from "./operators/cancel-job";

// contracts
export { listContractTemplates } from "./contracts/list-contract-templates";
export { createContractDeployment } from "./contracts/create-contract-deployment";

// session: who is signed in to the dashboard
export { getSignedInMember, type SignedInMember } from "./session/get-signed-in-member";

// deposits (CONTRACT §21): the chain follower, its wallet directory and the sender's screening
export { createChainFollower, type ChainFollower, type ChainFollowerOptions, type StepResult } from "./deposits/follow-chain";
export { screenDeposit } from "./deposits/screen-deposit";
export { createWalletDirectory, type WalletDirectory } from "./deposits/wallet-directory";
export { readDepositFollowers, type DepositFollowerStatus } from "./deposits/read-deposit-followers";
