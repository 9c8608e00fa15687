import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
// The subpath, not @qc/core: dashboard pages import env.ts and Next must not bundle @qc/db.
import { parseCidr } from "@qc/core/ip-allowlist";
import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** CONTRACT §3: without TRUSTED_PROXIES, only a proxy on this host is trusted. */
export const DEFAULT_TRUSTED_PROXIES = ["127.0.0.0/8", "::1/128"] as const;

/**
 * Whom X-Forwarded-For and X-Forwarded-Proto are believed from: `hops` proxies in front
 * (TRUST_PROXY_HOPS), each of which must connect from one of `proxies` (TRUSTED_PROXIES).
 */
export interface ProxyTrust {
  hops: number;
  proxies: readonly Range[];
}

/** Compiles the trust once; every CIDR must parse (env.ts refuses a bad one at boot). */
export function proxyTrust(hops: number, cidrs: readonly string[] = DEFAULT_TRUSTED_PROXIES): ProxyTrust {
  const proxies = cidrs.map((cidr) => {
    const range = parseCidr(cidr);
    if (!range) throw new Error(`TRUSTED_PROXIES: ${cidr} is not a CIDR or address`);
    return range;
  });
  return { hops, proxies };
}

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    return ipaddr.process(address); // IPv4-mapped IPv6 → IPv4
  } catch {
    return undefined;
  }
}

function isTrustedProxy(address: string, trust: ProxyTrust): boolean {
  const parsed = parse(address);
  return parsed !== undefined && trust.proxies.some((range) => range[0].kind() === parsed.kind() && parsed.match(range as never));
}

function normalise(address: string): string {
  return parse(address)?.toString() ?? address;
}

// A keep-alive connection carries many requests from one address: normalised once per socket.
const socketAddresses = new WeakMap<Socket, string>();
function socketAddressOf(socket: Socket): string {
  let address = socketAddresses.get(socket);
  if (address === undefined) {
    address = normalise(socket.remoteAddress ?? "0.0.0.0");
    socketAddresses.set(socket, address);
  }
  return address;
}

/** X-Forwarded-* count only with proxies configured, and only when a trusted proxy connected. */
function forwardedHeadersTrusted(req: IncomingMessage, trust: ProxyTrust): boolean {
  return trust.hops > 0 && isTrustedProxy(socketAddressOf(req.socket), trust);
}

/**
 * The client's address: the socket's, unless the socket is a trusted proxy (TRUST_PROXY_HOPS > 0
 * and the peer in TRUSTED_PROXIES). Then X-Forwarded-For is walked from the right, each address
 * a proxy appended: trusted proxies are skipped, for at most TRUST_PROXY_HOPS - 1 more hops, and
 * the first address that is not one is the client. Anything left of it was written by the client
 * and is never read. A forged header from an untrusted peer is ignored: the allowlist and the
 * lockout see the socket's address.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  const socketAddress = socketAddressOf(req.socket);
  if (!forwardedHeadersTrusted(req, trust)) return socketAddress;
  const header = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // The peer was the first hop; each further trusted hop lets one more entry be believed.
  let hopsLeft = trust.hops;
  for (let i = chain.length - 1; i >= 0; i--) {
    const candidate = chain[i]!;
    if (!ipaddr.isValid(candidate)) return socketAddress;
    hopsLeft--;
    if (hopsLeft > 0 && isTrustedProxy(candidate, trust) && i > 0) continue;
    return normalise(candidate);
  }
  return socketAddress;
}

/** The protocol the client used, honouring X-Forwarded-Proto only from a trusted proxy. */
export function clientProtocol(req: IncomingMessage, trust: ProxyTrust, socketIsTls: boolean): "http" | "https" {
  if (forwardedHeadersTrusted(req, trust)) {
    const header = req.headers["x-forwarded-proto"];
    const value = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim().toLowerCase();
    if (value === "http" || value === "https") return value;
  }
  return socketIsTls ? "https" : "http";
}
