import ipaddr from "ipaddr.js";

/** Parses "a.b.c.d", "a.b.c.d/n", "::1", "2001:db8::/32"; a bare address is a /32 or /128. */
export function parseCidr(input: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    if (input.includes("/")) return ipaddr.parseCIDR(input);
    const address = ipaddr.parse(input);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  } catch {
    return null;
  }
}

/** True when `ip` falls in one of the CIDRs; IPv4-mapped IPv6 addresses match IPv4 ranges. */
export function ipAllowed(ip: string, cidrs: readonly string[]): boolean {
  if (cidrs.length === 0) return true;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip);
  } catch {
    return false;
  }
  for (const cidr of cidrs) {
    const range = parseCidr(cidr);
    if (range && range[0].kind() === address.kind() && address.match(range as never)) return true;
  }
  return false;
}
