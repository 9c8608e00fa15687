import { randomBytes } from "node:crypto";

/** The console's cookie: another name than the tenant dashboard's `qc_session`, never interchangeable. */
export const OPERATOR_SESSION_COOKIE = "qc_operator_session";
/** `qo_` + 64 hex: recognisable in a leak report, and never mistaken for a tenant's `qs_` token. */
export const OPERATOR_SESSION_TOKEN = /^qo_[0-9a-f]{64}$/;
/** Shorter than a tenant session (12 h): the console can retry and cancel any tenant's jobs. */
export const OPERATOR_SESSION_TTL_MS = 8 * 3600_000;

export function generateOperatorSessionToken(): string {
  return `qo_${randomBytes(32).toString("hex")}`;
}

/** The token of the operator cookie in a Cookie header; undefined when absent or malformed. */
export function operatorTokenFromCookie(cookie: string | undefined): string | undefined {
  const value = cookie
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${OPERATOR_SESSION_COOKIE}=`))
    ?.slice(OPERATOR_SESSION_COOKIE.length + 1);
  return value !== undefined && OPERATOR_SESSION_TOKEN.test(value) ? value : undefined;
}
