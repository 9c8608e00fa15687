import type { MemberRole } from "@qc/domain";
import type { AppError } from "../errors";
import type { Scope } from "./scopes";

/** Who a request is on behalf of, once authenticated. */
export interface Principal {
  kind: "api_key" | "session";
  tenantId: string;
  /** Empty means full access (CONTRACT §3). Sessions have every scope; their member's role limits them. */
  scopes: Scope[];
  /**
   * The current role of the member the request acts for (CONTRACT §14): the session's user, or the
   * API key's creator. Null when there is none (a key seeded by a tool, a member no longer in the
   * tenant): no action is allowed then.
   */
  role: MemberRole | null;
  keyId?: string;
  /** The session's user, or the member who created the API key. */
  userId?: string;
  sessionId?: string;
}

export interface CredentialRequest {
  authorization?: string;
  cookie?: string;
  ip: string;
  requestId: string;
  userAgent?: string;
}

/**
 * A refused credential: the contract's error, the reason the audit row records, whether it counts
 * towards the source's lockout (guessing does; an expired or revoked credential does not), and
 * whom it names.
 */
export interface CredentialFailure {
  reason: string;
  counts: boolean;
  error: AppError;
  keyId?: string;
  tenantId?: string;
  userId?: string;
}

/** What a verifier answers: the caller, or why it was refused. */
export type Verification = { principal: Principal } | { failure: CredentialFailure };
