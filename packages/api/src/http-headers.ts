import { OPERATOR_SESSION_COOKIE, OPERATOR_SESSION_TTL_MS, SESSION_COOKIE, type TenantRateLimit } from "@qc/core";

/**
 * Header values the routers and middleware send. Core hands over plain data (a session token
 * and its lifetime, the tenant's bucket as numbers); how HTTP spells them is decided here.
 */

// CONTRACT §3: the dashboard cookie is HttpOnly, Secure and SameSite=Strict.
const SESSION_COOKIE_ATTRIBUTES = "HttpOnly; Secure; SameSite=Strict; Path=/";

/** `Set-Cookie` carrying the session token for `maxAgeSeconds`. */
export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; ${SESSION_COOKIE_ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
}

/** `Set-Cookie` that makes the browser drop the session cookie. */
export function expiredSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${SESSION_COOKIE_ATTRIBUTES}; Max-Age=0`;
}

/** `Set-Cookie` carrying an operator's session token: another cookie than the tenant dashboard's. */
export function operatorSessionCookie(token: string, maxAgeSeconds = OPERATOR_SESSION_TTL_MS / 1000): string {
  return `${OPERATOR_SESSION_COOKIE}=${token}; ${SESSION_COOKIE_ATTRIBUTES}; Max-Age=${maxAgeSeconds}`;
}

/** `Set-Cookie` that makes the browser drop the operator's session cookie. */
export function expiredOperatorSessionCookie(): string {
  return `${OPERATOR_SESSION_COOKIE}=; ${SESSION_COOKIE_ATTRIBUTES}; Max-Age=0`;
}

/** The IETF RateLimit header fields, as the OpenAPI document declares them (integers). */
export function rateLimitHeaders(limit: TenantRateLimit): Record<"RateLimit-Limit" | "RateLimit-Remaining" | "RateLimit-Reset", string> {
  return {
    "RateLimit-Limit": String(limit.limit),
    "RateLimit-Remaining": String(limit.remaining),
    "RateLimit-Reset": String(limit.resetSeconds),
  };
}
