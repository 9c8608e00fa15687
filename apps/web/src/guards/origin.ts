import type { IncomingMessage } from "node:http";
import { AppError } from "@qc/core";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Cross-site request forgery guard for cookie-authenticated state changes (REST and tRPC alike).
 *
 * A browser attaches the session cookie to any request to this origin, including one another
 * site makes it send; SameSite=Strict stops cross-site ones but not same-site ones (a sibling
 * subdomain), and body-less POSTs (cancel, archive, rotate) never meet the JSON content-type
 * gate. So a request that changes state and carries a Cookie but no Authorization header must
 * show it was made by our own pages: `Sec-Fetch-Site`, when the browser sends it, must be
 * `same-origin`, and `Origin`, when sent, must be this site's origin. Every browser this
 * dashboard supports sends `Origin` on every non-GET request, cross-site ones included, so a
 * request with neither header did not come from a browser another site steered: it is a
 * command-line client holding the cookie itself (the quickstart's curl), which is no forgery
 * and is let through. API clients send `Authorization` and are not affected either: a header
 * another site cannot make a browser attach is not forgeable.
 *
 * `expectedOrigin` is PUBLIC_URL's origin; without PUBLIC_URL, the origin the client addressed
 * (`https://` + Host), which still refuses every other site.
 */
export function rejectCrossSiteRequest(req: IncomingMessage, method: string, expectedOrigin: string | undefined): void {
  if (SAFE_METHODS.has(method)) return;
  if (req.headers.authorization !== undefined || req.headers.cookie === undefined) return;
  const site = single(req.headers["sec-fetch-site"]);
  const origin = single(req.headers.origin);
  const allowed = expectedOrigin ?? (req.headers.host ? `https://${req.headers.host}` : undefined);
  const siteOk = site === undefined || site === "same-origin";
  const originOk = origin === undefined || (allowed !== undefined && origin.toLowerCase() === allowed.toLowerCase());
  if (siteOk && originOk) return;
  throw new AppError(
    "CROSS_SITE_REQUEST",
    "cookie-authenticated state changes must come from this site's own pages (Origin / Sec-Fetch-Site)",
  );
}
