import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * SSRF protection for webhook URLs (CONTRACT §7): `https` only, no credentials, and every
 * address the host resolves to must be public. Vetting happens when an endpoint is saved and
 * again before every delivery, and the delivery connects to the address vetted here, so a DNS
 * answer that changes between the check and the connection (rebinding) is never followed.
 *
 * Deny by default: an address passes only when ipaddr.js calls it plain `unicast` (and, for
 * IPv6, it lies in global unicast 2000::/3). IPv6 forms that carry an IPv4 address (mapped
 * ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name; injectable so tests decide what a name resolves to. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemHostResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

export type WebhookUrlRefusalReason =
  "INVALID_URL" | "SCHEME_NOT_ALLOWED" | "CREDENTIALS_IN_URL" | "HOST_NOT_RESOLVED" | "ADDRESS_NOT_PUBLIC";

export class WebhookUrlRefusedError extends Error {
  override name = "WebhookUrlRefusedError";
  constructor(
    readonly reason: WebhookUrlRefusalReason,
    message: string,
    /** The refused address and its range, for ADDRESS_NOT_PUBLIC. */
    readonly refused?: { address: string; range: string },
  ) {
    super(message);
  }
}

export interface VettedWebhookUrl {
  url: URL;
  /** The URL's host name without IPv6 brackets: the TLS server name and `Host` header. */
  hostname: string;
  /** The address to connect to; a host name is never resolved again for this attempt. */
  address: string;
  family: 4 | 6;
}

export interface VetWebhookUrlOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_URLS=true`: development and tests only; allows `http` and non-public addresses. */
  allowPrivate?: boolean;
  resolveHost?: HostResolver;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const RANGE_NAMES: Record<string, string> = {
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
  linkLocal: "a link-local",
  loopback: "a loopback",
  carrierGradeNat: "a carrier-grade NAT (100.64.0.0/10)",
  private: "a private (RFC 1918)",
  reserved: "a reserved",
  uniqueLocal: "a unique local (fc00::/7)",
  deprecatedSiteLocal: "a site-local",
  teredo: "a Teredo",
  rfc6145: "an IPv4-translated",
  rfc6052: "a local-use NAT64",
};

function describeRange(range: string): string {
  return `${RANGE_NAMES[range] ?? `a special-purpose (${range})`} address`;
}

/** Null when the address is public; otherwise the range that makes it refused. */
export function nonPublicRange(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return "invalid";
  }
  if (ip.kind() === "ipv4") {
    const range = ip.range();
    return range === "unicast" ? null : range;
  }
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const embedded = (v4: ipaddr.IPv4) => {
    const inner = v4.range();
    return inner === "unicast" ? null : inner;
  };
  const v4FromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case "ipv4Mapped":
      return embedded(v6.toIPv4Address());
    case "rfc6052":
      // Only the well-known /96 prefix carries a routable IPv4 address; 64:ff9b:1::/48 is local use.
      return v6.match(NAT64_WELL_KNOWN) ? embedded(v4FromWords(v6.parts[6]!, v6.parts[7]!)) : range;
    case "6to4":
      return embedded(v4FromWords(v6.parts[1]!, v6.parts[2]!));
    case "unicast":
      return v6.match(GLOBAL_UNICAST_V6) ? null : "reserved";
    default:
      return range;
  }
}

function parseUrl(input: string): URL {
  if (input.length > MAX_WEBHOOK_URL_LENGTH)
    throw new WebhookUrlRefusedError("INVALID_URL", `webhook URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  try {
    return new URL(input);
  } catch {
    throw new WebhookUrlRefusedError("INVALID_URL", "webhook URL is not a valid absolute URL");
  }
}

/**
 * Checks a webhook URL and returns the one address to connect to. Never connects anywhere;
 * a literal address is judged without DNS. Throws `WebhookUrlRefusedError` with a message
 * fit for the API caller (it names the address and the range, never the URL's query).
 */
export async function vetWebhookUrl(input: string, options: VetWebhookUrlOptions = {}): Promise<VettedWebhookUrl> {
  const url = parseUrl(input);
  const allowedSchemes = options.allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!allowedSchemes.includes(url.protocol)) {
    throw new WebhookUrlRefusedError("SCHEME_NOT_ALLOWED", `webhook URL must use https, not ${url.protocol.replace(/:$/, "")}`);
  }
  if (url.username || url.password)
    throw new WebhookUrlRefusedError("CREDENTIALS_IN_URL", "webhook URL must not contain a user name or password");
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!hostname) throw new WebhookUrlRefusedError("INVALID_URL", "webhook URL has no host");

  let candidates: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) {
    candidates = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      candidates = await (options.resolveHost ?? systemHostResolver)(hostname);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new WebhookUrlRefusedError("HOST_NOT_RESOLVED", `webhook URL host "${hostname}" does not resolve${code ? ` (${code})` : ""}`);
    }
    if (candidates.length === 0) throw new WebhookUrlRefusedError("HOST_NOT_RESOLVED", `webhook URL host "${hostname}" does not resolve`);
  }

  if (!options.allowPrivate) {
    // Every answer is checked, not only the one we would pick: a name mixing a public and a
    // private address is refused outright.
    for (const candidate of candidates) {
      const range = nonPublicRange(candidate.address);
      if (range === null) continue;
      const subject = literal
        ? `webhook URL address ${candidate.address}`
        : `webhook URL host "${hostname}" resolves to ${candidate.address}, which`;
      throw new WebhookUrlRefusedError("ADDRESS_NOT_PUBLIC", `${subject} is ${describeRange(range)}; only public addresses are allowed`, {
        address: candidate.address,
        range,
      });
    }
  }

  const chosen = candidates[0]!;
  const parsed = ipaddr.parse(chosen.address);
  // Connect to an IPv4-mapped address as plain IPv4: the same host, and no dual-stack socket needed.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return { url, hostname, address: (parsed as ipaddr.IPv6).toIPv4Address().toString(), family: 4 };
  }
  return { url, hostname, address: parsed.toString(), family: parsed.kind() === "ipv6" ? 6 : 4 };
}
