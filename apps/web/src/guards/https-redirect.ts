import type { IncomingMessage } from "node:http";

/** A Host header we are willing to echo into a Location: a DNS name, IPv4 or bracketed IPv6, optional port. */
export const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The path and query of a request target, or undefined when it is not one we can answer.
 * Origin-form (`/a?b`) is taken as it is; absolute-form (`http://x/a?b`, which Node's parser
 * accepts) keeps only its path and query, so the authority a client names never leaves here.
 */
function pathAndQuery(target: string): { pathname: string; search: string } | undefined {
  if (target.startsWith("/")) {
    const q = target.indexOf("?");
    return q === -1 ? { pathname: target, search: "" } : { pathname: target.slice(0, q), search: target.slice(q) };
  }
  if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return undefined;
  const url = new URL(target);
  return { pathname: url.pathname, search: url.search };
}

/**
 * Where a plain-HTTP request (or, behind a proxy, `X-Forwarded-Proto: http`) is sent: the same
 * path and query on the HTTPS origin. The origin is fixed first (PUBLIC_URL's, or the Host the
 * client asked for on the HTTPS port) and the request's path is only ever assigned as a path, so
 * `//evil.example/x` stays a path of this site instead of becoming an authority (an open
 * redirect). Undefined: the target or Host is malformed, and the caller answers 400.
 */
export function httpsRedirectTarget(req: IncomingMessage, options: { publicUrl?: string; httpsPort: number }): string | undefined {
  const parts = pathAndQuery(req.url ?? "/");
  if (!parts) return undefined;
  let target: URL;
  if (options.publicUrl) {
    target = new URL(new URL(options.publicUrl).origin);
  } else {
    const host = req.headers.host ?? "localhost";
    // The authority the client addressed; it already chose that host, so echoing a well-formed
    // one is not an open redirect, and anything else is refused.
    const origin = `https://${host.replace(/:\d+$/, "")}`;
    if (!HOST.test(host) || !URL.canParse(origin)) return undefined;
    target = new URL(origin);
    target.port = String(options.httpsPort);
  }
  target.pathname = parts.pathname;
  target.search = parts.search;
  return target.toString();
}
