import {
  isTerminalStatus,
  SCOPES,
  TRANSACTION_STATUSES,
  type AddressBookEntryStatus,
  type ApprovalDecision,
  type PolicyDestinationMatch,
  type TransactionSubStatus,
  type VaultStatus,
  type WalletStatus,
} from "@qc/domain";
import type {
  ApiKey,
  DaemonInstance,
  FailedJob,
  NetworkCode,
  OnboardingStatus,
  PolicyDecision,
  Scope,
  TransactionStatus,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from "./router-types";

/**
 * The contract's names the dashboard offers in filters and forms. The transaction lifecycle comes
 * from @qc/domain, which has no dependency and so may be bundled into a page. Client code cannot
 * import the service's other packages (they are server-only), so the other lists are spelled out
 * here; the types below fail to compile if a list misses a name or adds one the routers do not
 * know, and vocabulary.test.ts compares them with the service's own lists.
 */
export const NETWORKS = ["QUANTUM_SANDBOX", "QUANTUM_MAINNET"] as const satisfies readonly NetworkCode[];
export const NETWORK_NAMES: Record<NetworkCode, string> = {
  QUANTUM_SANDBOX: "QUANTUM_SANDBOX (chain 20804)",
  QUANTUM_MAINNET: "QUANTUM_MAINNET (chain 20803)",
};

// The lifecycle is @qc/domain's (dependency-free, so a page may import it).
export {
  CANCELLABLE_STATUSES,
  isCancellableStatus as isCancellable,
  isTerminalStatus as isTerminal,
  TERMINAL_STATUSES,
  TRANSACTION_STATUSES,
} from "@qc/domain";

// The API-key scopes are @qc/domain's too, and so are members' roles (CONTRACT §14).
export { SCOPES };
export { MEMBER_ROLES } from "@qc/domain";

// The address book's statuses and the policy's destination words (CONTRACT §16), @qc/domain's too.
export { ADDRESS_BOOK_ENTRY_STATUSES, POLICY_DESTINATION_MATCHES } from "@qc/domain";

export const WEBHOOK_EVENT_TYPES = [
  "transaction.created",
  "transaction.status_changed",
  "transaction.approval_recorded",
  "transaction.stuck",
  "wallet.created",
  "vault.archived",
  "credential.rotated",
  "tenant.verification_changed",
  "address_book.entry_added",
  "address_book.entry_activated",
  "address_book.entry_approval_recorded",
  "address_book.entry_removed",
  "webhook.test",
] as const satisfies readonly WebhookEventType[];

// ------------------------------------------------------------------------------ status badges

/** How a status badge is coloured: done well, gone wrong, ended quietly, or on its way. */
export type Tone = "ok" | "bad" | "muted" | "info";

/** A transaction's tone follows the lifecycle: COMPLETED is ok, CANCELLED ended quietly, any other terminal status went wrong. */
const transactionTone = (status: TransactionStatus): Tone =>
  status === "COMPLETED" ? "ok" : status === "CANCELLED" ? "muted" : isTerminalStatus(status) ? "bad" : "info";

/**
 * The tone of every status a badge shows, one table per vocabulary. Each table is held to its
 * type (the domain's, or the router's output), so a status added there fails to compile here
 * until it has a tone; vocabulary.test.ts checks that tables sharing a name agree on its tone.
 */
export const STATUS_TONE_TABLES = {
  transaction: Object.fromEntries(TRANSACTION_STATUSES.map((status) => [status, transactionTone(status)])) as Record<
    TransactionStatus,
    Tone
  >,
  vaultOrWallet: { ACTIVE: "ok", ARCHIVED: "muted" } satisfies Record<VaultStatus | WalletStatus, Tone>,
  apiKey: { ACTIVE: "ok", ROTATING: "info", ROTATED: "muted", EXPIRED: "bad", REVOKED: "bad" } satisfies Record<ApiKey["status"], Tone>,
  webhookEndpoint: { ENABLED: "ok", DISABLED: "bad" } satisfies Record<WebhookEndpoint["status"], Tone>,
  webhookDelivery: { PENDING: "info", DELIVERED: "ok", FAILED: "bad", DISABLED: "bad" } satisfies Record<WebhookDelivery["status"], Tone>,
  tenant: { PENDING_VERIFICATION: "info", VERIFIED: "ok", REJECTED: "bad" } satisfies Record<OnboardingStatus["status"], Tone>,
  kyc: { PENDING: "info", APPROVED: "ok", REJECTED: "bad" } satisfies Record<NonNullable<OnboardingStatus["kyc"]>["status"], Tone>,
  policyDecision: { ALLOW: "ok", BLOCK: "bad", REQUIRE_APPROVAL: "info" } satisfies Record<PolicyDecision["decision"], Tone>,
  approvalDecision: { APPROVED: "ok", REJECTED: "bad" } satisfies Record<ApprovalDecision, Tone>,
  addressBookEntry: { AWAITING_APPROVAL: "info", PENDING: "info", ACTIVE: "ok", REMOVED: "muted" } satisfies Record<
    AddressBookEntryStatus,
    Tone
  >,
  daemon: { RUNNING: "ok", SILENT: "bad", STOPPED: "muted" } satisfies Record<DaemonInstance["status"], Tone>,
  failedJob: { DEAD_LETTERED: "bad", RETRYING: "info", FAILED: "bad" } satisfies Record<FailedJob["status"], Tone>,
};

type ToneTable = (typeof STATUS_TONE_TABLES)[keyof typeof STATUS_TONE_TABLES];
/** Every status a badge may show. */
export type BadgeStatus = ToneTable extends infer Table ? (Table extends unknown ? keyof Table : never) : never;
export const STATUS_TONES = Object.assign({}, ...Object.values(STATUS_TONE_TABLES)) as Record<BadgeStatus, Tone>;

// ------------------------------------------------------------------------------ plain words

/**
 * Every status in a few plain words, shown beside the contract's name (never instead of it: the
 * API, the webhooks and the signer speak the name). One table per vocabulary, each held to its
 * type like the tones above, so a new status fails to compile until it has words; names that two
 * vocabularies share (ACTIVE, PENDING, REJECTED…) have the same words in both (vocabulary.test.ts),
 * since a badge knows only the name.
 */
export const STATUS_PHRASE_TABLES = {
  transaction: {
    SUBMITTED: "Being checked",
    AWAITING_APPROVAL: "Waiting for approval",
    QUEUED: "Waiting its turn",
    PENDING_SIGNATURE: "Waiting for signature",
    SIGNED: "Signed, about to be sent",
    BROADCASTING: "Sent, waiting to be mined",
    CONFIRMING: "Mined, waiting for confirmations",
    COMPLETED: "Completed",
    BLOCKED: "Blocked",
    REJECTED: "Rejected",
    CANCELLED: "Cancelled",
    EXPIRED: "Expired",
    FAILED: "Failed",
  } satisfies Record<TransactionStatus, string>,
  vaultOrWallet: { ACTIVE: "Active", ARCHIVED: "Archived" } satisfies Record<VaultStatus | WalletStatus, string>,
  apiKey: {
    ACTIVE: "Active",
    ROTATING: "Replaced, old secret still accepted",
    ROTATED: "Replaced",
    EXPIRED: "Expired",
    REVOKED: "Revoked",
  } satisfies Record<ApiKey["status"], string>,
  webhookEndpoint: { ENABLED: "Receiving events", DISABLED: "Disabled" } satisfies Record<WebhookEndpoint["status"], string>,
  webhookDelivery: { PENDING: "Waiting", DELIVERED: "Delivered", FAILED: "Failed", DISABLED: "Disabled" } satisfies Record<
    WebhookDelivery["status"],
    string
  >,
  tenant: { PENDING_VERIFICATION: "Waiting for identity verification", VERIFIED: "Verified", REJECTED: "Rejected" } satisfies Record<
    OnboardingStatus["status"],
    string
  >,
  kyc: { PENDING: "Waiting", APPROVED: "Approved", REJECTED: "Rejected" } satisfies Record<
    NonNullable<OnboardingStatus["kyc"]>["status"],
    string
  >,
  policyDecision: { ALLOW: "Allowed", BLOCK: "Blocked", REQUIRE_APPROVAL: "Needs approval" } satisfies Record<
    PolicyDecision["decision"],
    string
  >,
  approvalDecision: { APPROVED: "Approved", REJECTED: "Rejected" } satisfies Record<ApprovalDecision, string>,
  addressBookEntry: {
    AWAITING_APPROVAL: "Waiting for approval",
    PENDING: "Waiting",
    ACTIVE: "Active",
    REMOVED: "Removed",
  } satisfies Record<AddressBookEntryStatus, string>,
  daemon: { RUNNING: "Running", SILENT: "Not heard from", STOPPED: "Stopped" } satisfies Record<DaemonInstance["status"], string>,
  failedJob: { DEAD_LETTERED: "Failed for good, kept", RETRYING: "Will be retried", FAILED: "Failed" } satisfies Record<
    FailedJob["status"],
    string
  >,
} satisfies Record<keyof typeof STATUS_TONE_TABLES, Record<string, string>>;

export const STATUS_PHRASES = Object.assign({}, ...Object.values(STATUS_PHRASE_TABLES)) as Record<BadgeStatus, string>;

/** A transaction's subStatus in a few plain words, beside its name (the longer SUB_STATUS_HINTS on hover). */
export const SUB_STATUS_PHRASES: Record<TransactionSubStatus, string> = {
  BLOCKED_BY_POLICY: "Blocked by a policy rule",
  REJECTED_AML_SCREENING: "Failed screening",
  QUOTA_EXCEEDED: "Over the daily quota",
  REJECTED_BY_SIGNER: "Refused by the signer",
  REJECTED_BY_APPROVER: "Rejected by an approver",
  CANCELLED_BY_USER: "Cancelled on request",
  CANCELLED_ON_CHAIN: "Cancelled on chain",
  SIGNING_TIMEOUT: "Not signed in time",
  APPROVAL_TIMEOUT: "Not approved in time",
  SIGNATURE_MISMATCH: "Signature did not match",
  INSUFFICIENT_FUNDS: "Not enough funds",
  DROPPED_BY_CHAIN: "Dropped by the network",
  REVERTED_ON_CHAIN: "Reverted on chain",
  INTERNAL_ERROR: "Service error",
  REPLACED: "Replaced by another transaction",
};

/**
 * The words to show beside a name, or nothing when they would only repeat it (`ACTIVE` needs no
 * "Active" beside it; `PENDING_SIGNATURE` gets "Waiting for signature").
 */
export function phraseBeside(name: string, phrase: string): string | undefined {
  return phrase.toLowerCase() === name.toLowerCase().replaceAll("_", " ") ? undefined : phrase;
}

// ------------------------------------------------------------------------------ human words

/**
 * What each status and subStatus means, in a line: shown beside (or over) the contract's name,
 * never instead of it. Held to @qc/domain's lists, so a new word fails to compile here until it
 * is explained.
 */
export const TRANSACTION_STATUS_HINTS: Record<TransactionStatus, string> = {
  SUBMITTED: "received; its checks (policy, screening) are running",
  AWAITING_APPROVAL: "cleared by its checks; waiting for the approver groups a policy rule requires",
  QUEUED: "cleared; waiting for its turn on the source wallet",
  PENDING_SIGNATURE: "waiting for your signer to sign it",
  SIGNED: "signed; about to be sent to the network",
  BROADCASTING: "being sent to the network",
  CONFIRMING: "mined; waiting for confirmations",
  COMPLETED: "confirmed on chain",
  BLOCKED: "stopped by a check before anything was signed",
  REJECTED: "refused by a signer or an approver",
  CANCELLED: "cancelled before it was signed, or on chain by a cancellation",
  EXPIRED: "not signed or approved in time",
  FAILED: "went wrong on the way to the chain or on it",
};

export const SUB_STATUS_HINTS: Record<TransactionSubStatus, string> = {
  BLOCKED_BY_POLICY: "a policy rule blocks it",
  REJECTED_AML_SCREENING: "the destination failed screening",
  QUOTA_EXCEEDED: "over the organization's daily quota",
  REJECTED_BY_SIGNER: "the signer refused to sign it",
  REJECTED_BY_APPROVER: "an approver rejected it",
  CANCELLED_BY_USER: "cancelled by a member or an API key",
  CANCELLED_ON_CHAIN: "its cancellation was mined at its nonce instead",
  SIGNING_TIMEOUT: "no signature came in time",
  APPROVAL_TIMEOUT: "the approver groups did not reach their quorum in time",
  SIGNATURE_MISMATCH: "the signature did not match the transfer",
  INSUFFICIENT_FUNDS: "the source could not pay the amount and fees",
  DROPPED_BY_CHAIN: "the network dropped it",
  REVERTED_ON_CHAIN: "mined, but reverted",
  INTERNAL_ERROR: "the service failed; see the timeline",
  REPLACED: "another transaction of the same nonce was mined instead",
};

/** An address-book entry's status in a line (CONTRACT §16): only an ACTIVE entry counts as in the book. */
export const ADDRESS_BOOK_STATUS_HINTS: Record<AddressBookEntryStatus, string> = {
  AWAITING_APPROVAL: "waiting for an approver group's quorum; its activation delay starts once it is met",
  PENDING: "waiting out the activation delay; not in the book for policy rules yet",
  ACTIVE: "in the book: policy rules on the address book count it, the new-transfer form offers it",
  REMOVED: "removed; it no longer counts as in the book",
};

/** What a policy rule's `destination` matches, in words beside the contract's name. */
export const POLICY_DESTINATION_NAMES: Record<PolicyDestinationMatch, string> = {
  ADDRESS_BOOK: "in the address book (an ACTIVE entry for the network and asset)",
  NOT_ADDRESS_BOOK: "not in the address book",
};

// Each list holds every name of its type (the `satisfies` above rules out unknown ones).
type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : ["missing", Exclude<All, Listed>];
const complete: [
  Missing<NetworkCode, (typeof NETWORKS)[number]>,
  Missing<TransactionStatus, (typeof TRANSACTION_STATUSES)[number]>,
  Missing<Scope, (typeof SCOPES)[number]>,
  Missing<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>,
] = [true, true, true, true];
void complete;
