import type { AppError } from "../errors";
import type { Scope } from "./scopes";

/** Who a request is on behalf of, once authenticated. */
export interface Principal {
  kind: "api_key" | "session";
  tenantId: string;
  /** Empty means full access (CONTRACT §3). Sessions are the tenant's admins: full access. */
  scopes: Scope[];
  keyId?: string;
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
