import type { TransactionStatus } from "../transfers/transaction-status";

/**
 * Every action name an audit row may carry, declared once: `GET /v1/audit-events?action=` filters
 * on these, so a name is part of the interface and never made up at a call site. `sync` rows are
 * written in the transaction of the state change they record; `buffered` rows record a refusal
 * that changes no state and go through the AuditBuffer (docs/decisions/access-control.md, "Audit").
 */
export const AUDIT_ACTIONS = {
  // Accounts (packages/core/src/identity)
  "tenant.signed_up": { write: "sync", doc: "a tenant and its first member, an OWNER, were created (actor: the new user)" },
  "user.email_verified": { write: "sync", doc: "a verification link was followed" },
  "user.verification_resent": { write: "sync", doc: "a new verification link was issued; the earlier ones ended" },
  "user.password_reset_requested": { write: "sync", doc: "a password-reset link was issued (written by the daemon's job)" },
  "user.password_reset": { write: "sync", doc: "a reset link set a new password and ended every session" },
  "auth.logged_in": {
    write: "sync",
    doc: "a dashboard session was created; `details.passkeyId` names the passkey when the tenant required one",
  },
  "auth.logged_out": { write: "sync", doc: "a dashboard session was ended by its user" },

  // Members (packages/core/src/members)
  "member.added": { write: "sync", doc: "a member joined the tenant with a role (CONTRACT §14)" },
  "member.role_changed": { write: "sync", doc: "a member's role changed; `details` has `from` and `to`" },

  // Passkeys (packages/core/src/passkeys)
  "passkey.added": { write: "sync", doc: "a member registered a passkey; `details` has `userId` and `name`" },
  "passkey.removed": {
    write: "sync",
    doc: "a passkey was removed; `details.byOwner` when an OWNER removed another member's (recovery)",
  },
  "settings.require_passkey_changed": {
    write: "sync",
    doc: "dashboard logins' passkey requirement changed; `details` has `before` and `after`",
  },
  "member.removed": {
    write: "sync",
    doc: "a member was removed: their sessions ended and their API keys revoked; `details` has `role`, `sessionsEnded`, `keysRevoked`, `approverGroupsLeft`",
  },
  "invitation.sent": { write: "sync", doc: "an invitation to join with a role was emailed; `details` has `email`, `role`" },
  "invitation.accepted": { write: "sync", doc: "an invitation was accepted (actor: the new member)" },
  "invitation.revoked": { write: "sync", doc: "a pending invitation was revoked, or replaced by a newer one to the same address" },

  // Approver groups and approval keys (packages/core/src/approvals/groups, approvals/keys; CONTRACT §15)
  "approver_group.created": { write: "sync", doc: "an approver group was created; `details` has `name` and `memberIds`" },
  "approver_group.updated": {
    write: "sync",
    doc: "an approver group was renamed or its members changed; `details` has `before` and `after` (`name`, `memberIds`)",
  },
  "approver_group.deleted": { write: "sync", doc: "an approver group was deleted; `details` has `name` and `memberIds`" },
  "approval_key.enrolled": {
    write: "sync",
    doc: "a member enrolled an approval key with its proof; `details.publicKeySha256` identifies the key",
  },
  "approval_key.revoked": { write: "sync", doc: "a member revoked one of their approval keys" },
  "address_book.entry_added": {
    write: "sync",
    doc:
      "an address-book entry was added (CONTRACT §16); `details` has `networkCode`, `address`, `label`, `assetIds`, " +
      "`activatesAt`, `status` and `approvals` (the quorum required, or null)",
  },
  "address_book.entry_removed": {
    write: "sync",
    doc:
      "an address-book entry was removed, effective at once; `details` has `networkCode`, `address` and `label`, and `reason` " +
      "for a rejection or an approval timeout (actor `system`)",
  },
  "address_book.entry_approval_recorded": {
    write: "sync",
    doc:
      "a member approved or rejected an address-book entry awaiting approval; `details` has `decision`, `keyId`, `reason`, " +
      "and the entry's `status` and `activatesAt` after it (PENDING once the quorum is met)",
  },

  // Refused authentication and authorisation: no state change
  "auth.failed": {
    write: "buffered",
    doc:
      "credentials, a session, a password or a provider signature were refused; `details.reason` says which; " +
      "`details.aggregated.count` when the row counts several (refusals naming no tenant, per source and minute)",
  },
  "auth.ip_not_allowed": { write: "buffered", doc: "a valid key was used from an address outside the tenant's allowlist" },
  "auth.insufficient_scope": { write: "buffered", doc: "a valid key or session lacked the route's scope" },
  "auth.insufficient_role": {
    write: "buffered",
    doc: "the member a valid key or session acts for has a role that does not allow the route's action (CONTRACT §14)",
  },
  "request.key_material_rejected": {
    write: "buffered",
    doc: "a body held private key material and was refused before any handler (CONTRACT §9)",
  },

  // API keys (packages/core/src/credentials)
  "credential.created": { write: "sync", doc: "an API key was issued" },
  "credential.rotated": { write: "sync", doc: "a successor key was issued; the old one works until its grace period ends" },
  "credential.revoked": { write: "sync", doc: "an API key was revoked at once" },
  "credential.exposed": { write: "sync", doc: "a key arrived over plain HTTP and was marked exposed (CONTRACT §10)" },

  // Settings, policies, onboarding
  "settings.ip_allowlist_replaced": { write: "sync", doc: "the tenant's IP allowlist was replaced" },
  "settings.address_book_replaced": {
    write: "sync",
    doc: "the tenant's address-book setting was replaced; `details` has `before` and `after` (`additionsRequireApproval` or null)",
  },
  "settings.screening_denylist_replaced": { write: "sync", doc: "the tenant's screening denylist was replaced" },
  "policy.replaced": { write: "sync", doc: "the tenant's transfer policy was replaced" },
  "kyc.started": { write: "sync", doc: "a KYC case was opened" },
  "kyc.decided": { write: "sync", doc: "the provider's decision moved the case and the tenant" },

  // Custody resources
  "vault.created": { write: "sync", doc: "a vault was created" },
  "vault.updated": { write: "sync", doc: "a vault's name or metadata changed" },
  "vault.archived": { write: "sync", doc: "a vault was archived" },
  "wallet.generated": { write: "sync", doc: "a signer-managed wallet was created on an enrolled key" },
  "wallet.registered": { write: "sync", doc: "a wallet was registered with an ownership proof" },
  "wallet.watch_only_added": { write: "sync", doc: "a watch-only wallet was added" },
  "wallet.network_linked": { write: "sync", doc: "a wallet was linked to another network" },
  "wallet.archived": { write: "sync", doc: "a wallet was archived" },
  "asset.created": { write: "sync", doc: "a token asset was added" },
  "signer_key.enrolled": { write: "sync", doc: "a signer public key was enrolled" },

  // Webhooks
  "webhook.created": { write: "sync", doc: "an endpoint was created" },
  "webhook.updated": { write: "sync", doc: "an endpoint's URL, events or state changed" },
  "webhook.deleted": { write: "sync", doc: "an endpoint was deleted" },
  "webhook.secret_rotated": { write: "sync", doc: "an endpoint's signing secret was replaced" },
  "webhook.tested": { write: "sync", doc: "a test event was queued for an endpoint" },
  "webhook.delivery_retried": { write: "sync", doc: "a failed delivery was queued again" },
  "webhook.deliveries_resent": { write: "sync", doc: "an endpoint's deliveries of a window of events were queued again" },
  "webhook.simulated": { write: "sync", doc: "a simulated event of a catalog type was queued for an endpoint" },
  "webhook.disabled": { write: "sync", doc: "an endpoint that kept failing was disabled by the daemon" },

  // Transactions: creation, every status change (`transaction.<status>`, see below), refusals
  "transaction.created": { write: "sync", doc: "a transfer or contract deployment was accepted" },
  // Written at once although nothing moved: the caller passed authentication, its tenant's rate
  // limit and the value-moving rule, so it cannot flood anonymously, and each refused signature
  // on a transfer matters on its own.
  "transaction.signature_rejected": {
    write: "sync",
    doc: "a submitted signature was malformed or did not verify; the transaction did not move",
  },
  "transaction.approval_recorded": {
    write: "sync",
    doc: "an approver approved (signed with an approval key) or rejected a transaction awaiting approval; `details` has `decision`, `groupIds`, `keyId`, `reason` (CONTRACT §15)",
  },

  // Operators' console (no tenant)
  "operator.created": { write: "sync", doc: "an operator account was created from the command line" },
  "operator.password_reset": {
    write: "sync",
    doc: "an operator's password was set from the command line; every console session of theirs ended",
  },
  "operator.logged_in": { write: "sync", doc: "an operator session was created" },
  "operator.logged_out": { write: "sync", doc: "an operator session was ended" },
  // Written at once: the operators' console is internal and every failed operator login matters.
  "operator.login_failed": { write: "sync", doc: "an operator login was refused" },
  "operator.job_retried": { write: "sync", doc: "an operator retried a failed job" },
  "operator.job_cancelled": { write: "sync", doc: "an operator cancelled a job" },
} as const satisfies Record<string, { write: "sync" | "buffered"; doc: string }>;

/**
 * A transaction's move to a status, written by `transitionTransaction` in the move's database
 * transaction (`transaction.queued`, `transaction.completed`, …).
 */
export type TransactionStatusAction = `transaction.${Lowercase<TransactionStatus>}`;

export type AuditAction = keyof typeof AUDIT_ACTIONS | TransactionStatusAction;

/** The names a refused request (no state change) is recorded under: these go through the AuditBuffer. */
export type BufferedAuditAction = {
  [A in keyof typeof AUDIT_ACTIONS]: (typeof AUDIT_ACTIONS)[A]["write"] extends "buffered" ? A : never;
}[keyof typeof AUDIT_ACTIONS];
