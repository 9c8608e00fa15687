/**
 * Names of the two session cookies (HttpOnly: the pages never read their values). Kept here
 * because client code cannot import the service's packages; session-cookies.test.ts checks
 * them against the service's constants.
 */
export const TENANT_SESSION_COOKIE = "__Host-qc_session";
export const OPERATOR_SESSION_COOKIE = "__Host-qc_operator_session";
