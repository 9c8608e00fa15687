import { SignerError } from "../lib/errors";
import { ServiceError } from "../lib/service/service-client";

/** What to do about the service's refusals of an approval (CONTRACT §15), by error name. */
export const DECISION_HINTS: Record<string, string> = {
  SELF_APPROVAL_FORBIDDEN: "you started this transaction (you, or an API key of yours): you may reject it but never approve it",
  NOT_AN_APPROVER: "you are not in an approver group this transaction requires; an OWNER or ADMIN manages the groups",
  INVALID_TRANSACTION_STATE:
    "it is no longer awaiting approval, or you have decided on it already (`signer approvals` lists what awaits you)",
  INVALID_SIGNATURE:
    "the service does not accept this approval key's signature: the key may have been revoked; enroll a new one with `signer enroll-approver`",
  INSUFFICIENT_ROLE: "your role does not decide approvals (a VIEWER does not)",
};

/** What to do about the service's refusals of a decision on an address-book entry (CONTRACT §16), by error name. */
export const ENTRY_DECISION_HINTS: Record<string, string> = {
  ...DECISION_HINTS,
  SELF_APPROVAL_FORBIDDEN: "you added this entry (you, or an API key of yours): you may reject it but never approve it",
  NOT_AN_APPROVER: "you are not in the approver group the address book's setting requires; an OWNER or ADMIN manages the groups",
  CONFLICT: "it is no longer awaiting approval, or you have decided on it already (GET /v1/address-book?status=AWAITING_APPROVAL)",
};

/** What to do about the service's refusals of an approval key's enrollment, by error name. */
export const ENROLL_APPROVER_HINTS: Record<string, string> = {
  INVALID_SIGNATURE: "the service does not accept the key's proof for your member and tenant; nothing was kept",
  NOT_FOUND: "the service does not tell which member this API key belongs to (GET /v1/members/me); it predates approval quorums",
  CONFLICT:
    "the service holds this key already, or as many approval keys of yours as it allows: revoke an old one " +
    "(DELETE /v1/members/me/approval-keys/{keyId}); nothing was kept",
};

/** `call`'s result, or its ServiceError with the hint for its error name appended. */
export async function withHints<T>(call: Promise<T>, hints: Record<string, string>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const hint = error instanceof ServiceError && error.error !== undefined ? hints[error.error] : undefined;
    if (hint) throw new SignerError(`${error instanceof Error ? error.message : String(error)}; ${hint}`, { cause: error });
    throw error;
  }
}
