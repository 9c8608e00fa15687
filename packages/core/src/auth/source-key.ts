import ipaddr from "ipaddr.js";

/**
 * The unit a source is counted by (lockout, aggregated refusal audit): an IPv4 address as is, an
 * IPv6 address by its /64. One IPv6 subscriber usually holds a whole /64 (often far more), so
 * keying single IPv6 addresses would give each attacker 2^64 fresh counters; a /64 is what one
 * host can rotate through for free. IPv4-mapped IPv6 addresses count as their IPv4 address.
 * Anything that does not parse (never a socket address) is its own key.
 */
export function sourceKey(ip: string): string {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip);
  } catch {
    return ip;
  }
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
