import { randomBytes } from "node:crypto";

/**
 * The dashboard's Content-Security-Policy, with a fresh nonce per page.
 *
 * Next's pages need inline scripts (the RSC payload, `self.__next_f.push(…)`); a nonce lets
 * exactly those run, and 'strict-dynamic' lets the scripts they load run too, so no injected
 * markup can execute script. Next finds the nonce in the request's `Content-Security-Policy`
 * header and puts it on every script it renders; pages render per request (the root layout
 * awaits `connection()`), since a prerendered page could not carry a per-request nonce.
 * Inline `style` attributes stay allowed (`style-src-attr`): they cannot run script, and two
 * pages use them. Everything else is this origin only, never framed, no plugins, forms post only
 * here. Next's development server (hot reload) also needs `eval`.
 */
export function dashboardContentSecurityPolicy(options: { development: boolean }): string {
  const nonce = randomBytes(16).toString("base64");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
