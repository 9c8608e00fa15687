import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { readWebEnv } from "../env";
import { clientAddress, clientProtocol, proxyTrust } from "./client-address";

/** A request as node hands it over: what the socket says and what the headers claim. */
function request(peer: string, headers: Record<string, string> = {}): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe("client address behind proxies", () => {
  const oneHop = proxyTrust(1, ["10.0.0.0/8", "::1/128", "127.0.0.1"]);

  it("ignores X-Forwarded-For and -Proto from a peer that is not a trusted proxy", () => {
    const forged = request("198.51.100.9", { "x-forwarded-for": "203.0.113.5", "x-forwarded-proto": "http" });
    expect(clientAddress(forged, oneHop)).toBe("198.51.100.9");
    expect(clientProtocol(forged, oneHop, true)).toBe("https");
    // Without TRUST_PROXY_HOPS, not even a trusted peer's header counts.
    expect(clientAddress(request("10.1.2.3", { "x-forwarded-for": "203.0.113.5" }), proxyTrust(0, ["10.0.0.0/8"]))).toBe("10.1.2.3");
  });

  it("believes a trusted proxy's entry, never what the client wrote left of it", () => {
    const via = request("10.1.2.3", { "x-forwarded-for": "192.0.2.1, 203.0.113.5", "x-forwarded-proto": "http" });
    expect(clientAddress(via, oneHop)).toBe("203.0.113.5");
    expect(clientProtocol(via, oneHop, true)).toBe("http");
    expect(clientAddress(request("::ffff:127.0.0.1", { "x-forwarded-for": "2001:db8::7" }), oneHop)).toBe("2001:db8::7");
    // An entry that is not an address: the socket's address, never a guess.
    expect(clientAddress(request("10.1.2.3", { "x-forwarded-for": "not-an-ip" }), oneHop)).toBe("10.1.2.3");
  });

  it("walks the chain from the right over trusted hops only", () => {
    const twoHops = proxyTrust(2, ["10.0.0.0/8"]);
    // client → 10.9.9.9 (trusted) → 10.1.2.3 (peer): the client is the entry left of the trusted hop.
    expect(clientAddress(request("10.1.2.3", { "x-forwarded-for": "192.0.2.66, 203.0.113.5, 10.9.9.9" }), twoHops)).toBe("203.0.113.5");
    // Straight to the last proxy, skipping the first: its entry is the client, whatever is left of it.
    expect(clientAddress(request("10.1.2.3", { "x-forwarded-for": "10.9.9.9, 203.0.113.5" }), twoHops)).toBe("203.0.113.5");
    // No more than TRUST_PROXY_HOPS hops are believed, even if every entry looks trusted.
    expect(clientAddress(request("10.1.2.3", { "x-forwarded-for": "10.7.7.7, 10.8.8.8, 10.9.9.9" }), twoHops)).toBe("10.8.8.8");
  });

  it("defaults TRUSTED_PROXIES to the loopback addresses and refuses a bad entry at boot", () => {
    expect(readWebEnv({ NODE_ENV: "test", QC_DEV_MODE: "true" } as NodeJS.ProcessEnv).TRUSTED_PROXIES).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(
      readWebEnv({ NODE_ENV: "test", QC_DEV_MODE: "true", TRUSTED_PROXIES: " 10.0.0.0/8, fd00::/8 ,192.0.2.1" } as NodeJS.ProcessEnv)
        .TRUSTED_PROXIES,
    ).toEqual(["10.0.0.0/8", "fd00::/8", "192.0.2.1"]);
    expect(() =>
      readWebEnv({ NODE_ENV: "test", QC_DEV_MODE: "true", TRUSTED_PROXIES: "10.0.0.0/8,10.0.0.0/33" } as NodeJS.ProcessEnv),
    ).toThrow(/TRUSTED_PROXIES: 10.0.0.0\/33 is not a CIDR/);
  });
});
