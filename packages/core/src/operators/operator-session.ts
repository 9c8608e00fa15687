import { randomBytes } from "node:crypto";
import type { SessionLifetime } from "../auth/judge-session";
import { hostCookie } from "../auth/tokens";

/**
 * The console's cookie: another name than the tenant dashboard's, never interchangeable; `__Host-`
 * as that one (only this host can set it, see `hostCookie`).
 */
export const OPERATOR_SESSION_COOKIE = "__Host-qc_operator_session";
/** `qo_` + 64 hex: recognisable in a leak report, and never mistaken for a tenant's `qs_` token. */
export const OPERATOR_SESSION_TOKEN = /^qo_[0-9a-f]{64}$/;
/** Shorter than a tenant session (12 h): the console can retry and cancel any tenant's jobs. */
export const OPERATOR_SESSION_TTL_MS = 8 * 3600_000;
/** However much it is used, a console session ends this long after its login (a working day). */
export const OPERATOR_SESSION_ABSOLUTE_TTL_MS = 24 * 3600_000;
export const OPERATOR_SESSION_LIFETIME: SessionLifetime = { idleMs: OPERATOR_SESSION_TTL_MS, absoluteMs: OPERATOR_SESSION_ABSOLUTE_TTL_MS };

export function generateOperatorSessionToken(): string {
  return `qo_${randomBytes(32).toString("hex")}`;
}

/** The token of the operator cookie in a Cookie header; undefined when absent, duplicated or malformed. */
export function operatorTokenFromCookie(cookie: string | undefined): string | undefined {
  const found = hostCookie(cookie, OPERATOR_SESSION_COOKIE);
  return found.kind === "one" && OPERATOR_SESSION_TOKEN.test(found.value) ? found.value : undefined;
}
