import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import ipaddr from "ipaddr.js";

function normalise(address: string): string {
  try {
    const parsed = ipaddr.process(address); // IPv4-mapped IPv6 → IPv4
    return parsed.toString();
  } catch {
    return address;
  }
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

/**
 * The socket's address; with TRUST_PROXY_HOPS = n, the n-th address from the right of
 * X-Forwarded-For (each trusted proxy appends the address it saw).
 */
export function clientAddress(req: IncomingMessage, trustProxyHops: number): string {
  const socketAddress = socketAddressOf(req.socket);
  if (trustProxyHops <= 0) return socketAddress;
  const header = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const candidate = chain[chain.length - trustProxyHops];
  return candidate && ipaddr.isValid(candidate) ? normalise(candidate) : socketAddress;
}

/** The protocol the client used, honouring X-Forwarded-Proto only behind trusted proxies. */
export function clientProtocol(req: IncomingMessage, trustProxyHops: number, socketIsTls: boolean): "http" | "https" {
  if (trustProxyHops > 0) {
    const header = req.headers["x-forwarded-proto"];
    const value = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim().toLowerCase();
    if (value === "http" || value === "https") return value;
  }
  return socketIsTls ? "https" : "http";
}
