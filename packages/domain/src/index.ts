/**
 * The service's vocabulary, each word defined once (STYLE habit 10; docs/decisions/foundation.md,
 * "One vocabulary"). Pure TypeScript with no dependency, so that every layer can import it: the
 * PostgreSQL enums (@qc/db), the zod schemas (@qc/core, @qc/api) and the dashboard's pages.
 * Network codes and contract template kinds belong to @qc/chain, beside the chains and the
 * templates they name.
 */

// ------------------------------------------------------------------------------ transactions

/** The transaction lifecycle of CONTRACT §6; also the order of the `transaction_status` enum. */
export const TRANSACTION_STATUSES = [
  "SUBMITTED",
  "AWAITING_APPROVAL",
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

/** Terminal failures and the subStatus each may carry (CONTRACT §6). */
export const SUB_STATUSES = {
  BLOCKED: ["BLOCKED_BY_POLICY", "REJECTED_AML_SCREENING", "QUOTA_EXCEEDED"],
  REJECTED: ["REJECTED_BY_SIGNER", "REJECTED_BY_APPROVER"],
  CANCELLED: ["CANCELLED_BY_USER", "CANCELLED_ON_CHAIN"],
  EXPIRED: ["SIGNING_TIMEOUT", "APPROVAL_TIMEOUT"],
  FAILED: ["SIGNATURE_MISMATCH", "INSUFFICIENT_FUNDS", "DROPPED_BY_CHAIN", "REVERTED_ON_CHAIN", "INTERNAL_ERROR", "REPLACED"],
} as const satisfies Partial<Record<TransactionStatus, readonly string[]>>;
export type TransactionSubStatus = (typeof SUB_STATUSES)[keyof typeof SUB_STATUSES][number];

/** Every subStatus, in the order above; also the order of the `transaction_sub_status` enum. */
export const TRANSACTION_SUB_STATUSES = Object.values(SUB_STATUSES).flat() as readonly TransactionSubStatus[] as readonly [
  TransactionSubStatus,
  ...TransactionSubStatus[],
];

/**
 * What a transaction does: move value out, deploy one of the audited contract templates, or — seen
 * by the chain follower, never created through the API — bring value in (CONTRACT §21). The
 * service's own nonce records (CONTRACT §17): `NONCE_FILL` (zero value from the source to itself,
 * filling a nonce that would otherwise be left unused), `REPLACEMENT` (a speed-up: the same
 * transaction at the same nonce with higher fee caps) and `CANCELLATION` (zero value to itself at
 * the nonce of a broadcast transaction, with higher fee caps).
 */
export const TRANSACTION_TYPES = ["TRANSFER", "CONTRACT_DEPLOY", "DEPOSIT", "NONCE_FILL", "REPLACEMENT", "CANCELLATION"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The types a customer creates (`POST /v1/transactions`, `POST /v1/contracts/deployments`). */
export const CREATED_TRANSACTION_TYPES = ["TRANSFER", "CONTRACT_DEPLOY"] as const satisfies readonly TransactionType[];

/**
 * The types whose transaction is zero value from the source to itself (CONTRACT §17): what the
 * signer checks for them, and what the service rebuilds them as.
 */
export const SELF_SEND_TRANSACTION_TYPES = ["NONCE_FILL", "CANCELLATION"] as const satisfies readonly TransactionType[];
export const isSelfSendType = (type: TransactionType): boolean => (SELF_SEND_TRANSACTION_TYPES as readonly string[]).includes(type);

/** The types that take the nonce of another transaction of the source (`replacesTransactionId`). */
export const SAME_NONCE_TRANSACTION_TYPES = ["REPLACEMENT", "CANCELLATION"] as const satisfies readonly TransactionType[];

/** Which way value moves (CONTRACT §21): a DEPOSIT is INBOUND, everything the service sends OUTBOUND. */
export const TRANSACTION_DIRECTIONS = ["INBOUND", "OUTBOUND"] as const;
export type TransactionDirection = (typeof TRANSACTION_DIRECTIONS)[number];
export const directionOfType = (type: TransactionType): TransactionDirection => (type === "DEPOSIT" ? "INBOUND" : "OUTBOUND");

// Subsets of the lifecycle. Each names a rule of the pipeline; a new status joins the ones whose
// rule covers it (see docs/decisions/foundation.md, "One vocabulary").

/** Statuses a transaction never leaves. */
export const TERMINAL_STATUSES = [
  "COMPLETED",
  "BLOCKED",
  "REJECTED",
  "CANCELLED",
  "EXPIRED",
  "FAILED",
] as const satisfies readonly TransactionStatus[];

/**
 * `POST /v1/transactions/{id}/cancel` cancels from these at once (CONTRACT §6, §15): nothing is
 * signed yet. From `BROADCASTING` it creates a CANCELLATION instead (CONTRACT §17).
 */
export const CANCELLABLE_STATUSES = [
  "SUBMITTED",
  "AWAITING_APPROVAL",
  "QUEUED",
  "PENDING_SIGNATURE",
] as const satisfies readonly TransactionStatus[];

/**
 * Cleared by its checks and waiting for its approvers (CONTRACT §15): holds no nonce, reserves no
 * balance (the release asks the chain again) and does not hold up the source's younger transfers.
 */
export const AWAITING_APPROVAL_STATUSES = ["AWAITING_APPROVAL"] as const satisfies readonly TransactionStatus[];

/**
 * Between release and mining (CONTRACT §17): a transaction in one of these holds its nonce and,
 * unless it takes another's nonce (a REPLACEMENT or CANCELLATION), one of its source's
 * NONCE_WINDOW slots. A transaction that leaves one of these for an end frees a slot, and may
 * leave its nonce unused (release-next then gives it to a queued transfer or fills it).
 */
export const NONCE_HOLDING_STATUSES = ["PENDING_SIGNATURE", "SIGNED", "BROADCASTING"] as const satisfies readonly TransactionStatus[];

/**
 * The statuses (and ends) of a transaction whose nonce is taken for good: held (above), mined
 * (CONFIRMING, COMPLETED, FAILED/REVERTED_ON_CHAIN) or used by a same-nonce sibling that was
 * mined (FAILED/REPLACED, CANCELLED/CANCELLED_ON_CHAIN). A nonce no row of the source takes this
 * way, below one that is taken, is a gap: release gives it to a queued transfer or fills it
 * (docs/transfers.md).
 */
export const NONCE_TAKING_STATUSES = [...NONCE_HOLDING_STATUSES, "CONFIRMING", "COMPLETED"] as const satisfies readonly TransactionStatus[];
export const NONCE_TAKING_ENDS = [
  ["FAILED", "REVERTED_ON_CHAIN"],
  ["FAILED", "REPLACED"],
  ["CANCELLED", "CANCELLED_ON_CHAIN"],
] as const satisfies readonly (readonly [TransactionStatus, TransactionSubStatus])[];

/** Cleared and not yet mined: what the source's balance must still cover beside a new transfer. */
export const RESERVING_STATUSES = ["QUEUED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING"] as const satisfies readonly TransactionStatus[];

/** Ended without moving value (terminal, not COMPLETED): left out of velocity windows and daily quotas. */
export const ENDED_WITHOUT_TRANSFER = [
  "BLOCKED",
  "REJECTED",
  "CANCELLED",
  "EXPIRED",
  "FAILED",
] as const satisfies readonly TransactionStatus[];

/**
 * `POST /v1/transactions/{id}/speed-up` and the cancel on chain start from these (CONTRACT §17):
 * sent, not yet mined.
 */
export const REPLACEABLE_STATUSES = ["BROADCASTING"] as const satisfies readonly TransactionStatus[];

export const isTerminalStatus = (status: TransactionStatus): boolean => (TERMINAL_STATUSES as readonly string[]).includes(status);
export const isCancellableStatus = (status: TransactionStatus): boolean => (CANCELLABLE_STATUSES as readonly string[]).includes(status);
export const isNonceHoldingStatus = (status: TransactionStatus): boolean => (NONCE_HOLDING_STATUSES as readonly string[]).includes(status);
export const isEndedWithoutTransfer = (status: TransactionStatus): boolean =>
  (ENDED_WITHOUT_TRANSFER as readonly string[]).includes(status);

/**
 * What a policy rule (or the default) does to a transfer, and so the policy step's decision
 * (CONTRACT §6 `policy.decision`; `REQUIRE_APPROVAL` is §15's, for rules only: it names its groups).
 */
export const POLICY_ACTIONS = ["ALLOW", "BLOCK", "REQUIRE_APPROVAL"] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** What a policy's `defaultAction` may be: a default names no approver groups. */
export const DEFAULT_POLICY_ACTIONS = ["ALLOW", "BLOCK"] as const satisfies readonly PolicyAction[];
export type DefaultPolicyAction = (typeof DEFAULT_POLICY_ACTIONS)[number];

/** An approver's decision on a transfer awaiting approval (CONTRACT §15); also the `approval_decision` enum. */
export const APPROVAL_DECISIONS = ["APPROVED", "REJECTED"] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** Who created a transaction (CONTRACT §15 `initiatedBy.type`): a member in the dashboard, or one of a member's API keys. */
export const INITIATOR_TYPES = ["USER", "API_KEY"] as const;
export type InitiatorType = (typeof INITIATOR_TYPES)[number];

/** The screening provider's verdict (CONTRACT §6 `screening.decision`); nothing else is a verdict. */
export const SCREENING_DECISIONS = ["CLEAR", "BLOCKED"] as const;
export type ScreeningDecision = (typeof SCREENING_DECISIONS)[number];

/**
 * What a policy rule's `destination` matches (CONTRACT §16): a destination in the tenant's address
 * book (an ACTIVE entry for the transfer's network whose `assetIds`, when given, include its
 * asset), or one that is not.
 */
export const POLICY_DESTINATION_MATCHES = ["ADDRESS_BOOK", "NOT_ADDRESS_BOOK"] as const;
export type PolicyDestinationMatch = (typeof POLICY_DESTINATION_MATCHES)[number];

// ------------------------------------------------------------------------------ address book

/**
 * What the `address_book_entry_status` column stores: an entry is PENDING from its creation (or,
 * when the tenant requires approval for additions, from its approver group's quorum: AWAITING_APPROVAL
 * until then) until removed. ACTIVE is never stored — it is derived from `activatesAt` and the clock
 * (below), so an entry counts as in the book at its instant exactly, with no job to flip it.
 */
export const STORED_ADDRESS_BOOK_ENTRY_STATUSES = ["PENDING", "REMOVED", "AWAITING_APPROVAL"] as const;
export type StoredAddressBookEntryStatus = (typeof STORED_ADDRESS_BOOK_ENTRY_STATUSES)[number];

/**
 * An address-book entry's status as the API shows it (CONTRACT §16): AWAITING_APPROVAL while an
 * addition that needs approval waits for its quorum, PENDING until `activatesAt` (creation, or the
 * quorum, + ADDRESS_BOOK_ACTIVATION_SECONDS), ACTIVE from then, REMOVED at once when deleted (or
 * rejected, or timed out waiting for approval).
 */
export const ADDRESS_BOOK_ENTRY_STATUSES = ["AWAITING_APPROVAL", "PENDING", "ACTIVE", "REMOVED"] as const;
export type AddressBookEntryStatus = (typeof ADDRESS_BOOK_ENTRY_STATUSES)[number];

/** The API's status of an entry from what is stored and the instant asked about. */
export const addressBookEntryStatus = (
  entry: { status: StoredAddressBookEntryStatus; activatesAt: Date | null },
  now: Date,
): AddressBookEntryStatus =>
  entry.status === "PENDING" && entry.activatesAt !== null && now.getTime() >= entry.activatesAt.getTime() ? "ACTIVE" : entry.status;

// ------------------------------------------------------------------------------ vaults and wallets

/** A vault is ACTIVE until archived (CONTRACT §4); an archived vault takes no new wallets. */
export const VAULT_STATUSES = ["ACTIVE", "ARCHIVED"] as const;
export type VaultStatus = (typeof VAULT_STATUSES)[number];

/** A wallet is ACTIVE until archived (CONTRACT §4); an archived wallet is no transaction source. */
export const WALLET_STATUSES = ["ACTIVE", "ARCHIVED"] as const;
export type WalletStatus = (typeof WALLET_STATUSES)[number];

/**
 * How a wallet's key is held (CONTRACT §4): a key from the tenant's signer pool, a key the
 * tenant registered with an ownership proof, or no key at all (balances only, never a source).
 */
export const WALLET_TYPES = ["SIGNER_MANAGED", "REGISTERED", "WATCH_ONLY"] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

// ------------------------------------------------------------------------------ assets

/**
 * What an asset is (CONTRACT §4): a network's native currency (global, seeded per network) or a
 * token contract a tenant added; also the order of the `asset_kind` enum.
 */
export const ASSET_KINDS = ["NATIVE", "TOKEN"] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

// ------------------------------------------------------------------------------ tenants, users and KYC

/** A tenant's onboarding state (CONTRACT §3): PENDING_VERIFICATION → VERIFIED, or REJECTED (may resubmit). */
export const TENANT_STATUSES = ["PENDING_VERIFICATION", "VERIFIED", "REJECTED"] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** Who the tenant is (CONTRACT §3): a business or a person; the KYC provider is told which. */
export const ACCOUNT_TYPES = ["BUSINESS", "INDIVIDUAL"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/**
 * A user until the emailed link is followed, and after (CONTRACT §3); REMOVED once taken out of
 * the tenant (CONTRACT §14): the row stays for the audit trail and the address stays taken.
 */
export const USER_STATUSES = ["PENDING_EMAIL_VERIFICATION", "EMAIL_VERIFIED", "REMOVED"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A KYC case (CONTRACT §3): open until the provider's decision. */
export const KYC_STATUSES = ["PENDING", "APPROVED", "REJECTED"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** What the provider decides: a KYC case's status once it is closed. */
export const KYC_DECISIONS = ["APPROVED", "REJECTED"] as const satisfies readonly KycStatus[];
export type KycDecision = (typeof KYC_DECISIONS)[number];

/** What the onboarding status tells the tenant to do next, in the order the steps come. */
export const ONBOARDING_STEPS = ["VERIFY_EMAIL", "START_KYC", "AWAIT_KYC_DECISION", "RESUBMIT_KYC", "NONE"] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

// ------------------------------------------------------------------------------ API keys

/** Every scope an API key can carry (CONTRACT §3, plus `signer`: docs/decisions/access-control.md); what each grants is core's (auth/scopes.ts). */
export const SCOPES = ["read", "write", "admin", "signer"] as const;
export type Scope = (typeof SCOPES)[number];

/** What the `api_key_status` column stores: a key is ACTIVE until revoked. */
export const STORED_API_KEY_STATUSES = ["ACTIVE", "REVOKED"] as const;
export type StoredApiKeyStatus = (typeof STORED_API_KEY_STATUSES)[number];

/**
 * A key's status as the API shows it (CONTRACT §3), read from the stored one and the key's
 * instants: ROTATING (rotated, inside its grace period), ROTATED (grace ended), EXPIRED.
 */
export const API_KEY_STATUSES = ["ACTIVE", "ROTATING", "ROTATED", "EXPIRED", "REVOKED"] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

// ------------------------------------------------------------------------------ webhooks

/** A webhook endpoint receives deliveries while ENABLED (CONTRACT §7). */
export const WEBHOOK_ENDPOINT_STATUSES = ["ENABLED", "DISABLED"] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * How deliveries are signed (CONTRACT §18): `v1` HMAC-SHA256 with the endpoint's `whsec_` secret,
 * `v1a` Ed25519 with its key pair (public key `whpk_…`). An endpoint lists one or both.
 */
export const WEBHOOK_SIGNATURE_SCHEMES = ["v1", "v1a"] as const;
export type WebhookSignatureScheme = (typeof WEBHOOK_SIGNATURE_SCHEMES)[number];

/**
 * PENDING: attempts remain (`next_attempt_at` says when). DELIVERED: a 2xx came back. FAILED:
 * the schedule ran out or the answer was not retryable. DISABLED: the endpoint was disabled (410,
 * five days of failures, or its owner) before this delivery succeeded; a manual retry makes it
 * PENDING again.
 */
export const WEBHOOK_DELIVERY_STATUSES = ["PENDING", "DELIVERED", "FAILED", "DISABLED"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

// ------------------------------------------------------------------------------ operators

/** A daemon instance by its heartbeat: RUNNING (beat lately), SILENT (no beat since: crashed or cut off), STOPPED (said goodbye). */
export const DAEMON_INSTANCE_STATUSES = ["RUNNING", "SILENT", "STOPPED"] as const;
export type DaemonInstanceStatus = (typeof DAEMON_INSTANCE_STATUSES)[number];

/**
 * A failed job as an operator sees it: DEAD_LETTERED (failed for good, kept in its dead-letter
 * queue), RETRYING (failed an attempt, tried again later), FAILED (failed for good in a queue
 * without a dead-letter queue).
 */
export const FAILED_JOB_STATUSES = ["DEAD_LETTERED", "RETRYING", "FAILED"] as const;
export type FailedJobStatus = (typeof FAILED_JOB_STATUSES)[number];

// ------------------------------------------------------------------------------ members and roles

/** A member's one role in their tenant (CONTRACT §14); also the order of the `member_role` enum. */
export const MEMBER_ROLES = ["OWNER", "ADMIN", "INITIATOR", "APPROVER", "VIEWER"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * What a role may do: the rows of CONTRACT §14's table, each named once. Every authenticated
 * route declares one of these (its meta's `action`), and so does every rule a service applies to
 * another member (revoking someone else's key, changing a role).
 * - `read`: read everything of the tenant;
 * - `transact`: create and cancel transfers and deployments, speed-up, vaults, wallets, the signer routes;
 * - `approve`: decide approvals (§15) when in a required group;
 * - `own_keys`: create, rotate and revoke one's own API keys;
 * - `administer`: webhooks, policies, settings, address book, approver groups, others' keys;
 * - `manage_members`: invite, change and remove members who are not owners;
 * - `manage_owners`: make or remove an `OWNER`.
 */
export const MEMBER_ACTIONS = ["read", "transact", "approve", "own_keys", "administer", "manage_members", "manage_owners"] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

/** CONTRACT §14's permission table, role by role: the one place it is written down. */
export const ROLE_PERMISSIONS: Readonly<Record<MemberRole, readonly MemberAction[]>> = {
  OWNER: ["read", "transact", "approve", "own_keys", "administer", "manage_members", "manage_owners"],
  ADMIN: ["read", "transact", "approve", "own_keys", "administer", "manage_members"],
  INITIATOR: ["read", "transact", "approve", "own_keys"],
  APPROVER: ["read", "approve", "own_keys"],
  VIEWER: ["read", "own_keys"],
};

/** What the `invitation_status` column stores: an invitation is PENDING until accepted or revoked. */
export const STORED_INVITATION_STATUSES = ["PENDING", "ACCEPTED", "REVOKED"] as const;
export type StoredInvitationStatus = (typeof STORED_INVITATION_STATUSES)[number];

/** An invitation's status as the API shows it (CONTRACT §14): a PENDING one past its expiry is EXPIRED. */
export const INVITATION_STATUSES = ["PENDING", "ACCEPTED", "REVOKED", "EXPIRED"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Whether a member with `role` may take `action` (CONTRACT §14). */
export const roleAllows = (role: MemberRole, action: MemberAction): boolean => ROLE_PERMISSIONS[role].includes(action);

/** The roles that may take `action`, in MEMBER_ROLES's order (e.g. whom the tenant's security notices go to). */
export const rolesAllowing = (action: MemberAction): MemberRole[] => MEMBER_ROLES.filter((role) => roleAllows(role, action));
