import { describe, expect, it } from "vitest";
import { type HostResolver, nonPublicRange, vetWebhookUrl, WebhookUrlRefusedError, type WebhookUrlRefusalReason } from "./ssrf";

async function refusal(url: string, options: Parameters<typeof vetWebhookUrl>[1] = {}): Promise<WebhookUrlRefusedError> {
  try {
    await vetWebhookUrl(url, options);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookUrlRefusedError);
    return error as WebhookUrlRefusedError;
  }
  throw new Error(`${url} was accepted`);
}

const resolvesTo =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("vetWebhookUrl refuses", () => {
  it.each([
    ["https://127.0.0.1/hook", "loopback", "127.0.0.1"],
    ["https://10.0.0.1/hook", "private", "10.0.0.1"],
    ["https://172.16.5.4/hook", "private", "172.16.5.4"],
    ["https://192.168.1.1/hook", "private", "192.168.1.1"],
    ["https://169.254.169.254/latest/meta-data", "linkLocal", "169.254.169.254"],
    ["https://100.64.0.1/hook", "carrierGradeNat", "100.64.0.1"],
    ["https://0.0.0.0/hook", "unspecified", "0.0.0.0"],
    ["https://255.255.255.255/hook", "broadcast", "255.255.255.255"],
    ["https://224.0.0.1/hook", "multicast", "224.0.0.1"],
    ["https://192.0.2.10/hook", "reserved", "192.0.2.10"],
    ["https://240.0.0.1/hook", "reserved", "240.0.0.1"],
    ["https://0x7f.1/hook", "loopback", "127.0.0.1"],
    ["https://2130706433/hook", "loopback", "127.0.0.1"],
    ["https://[::1]/hook", "loopback", "::1"],
    ["https://[::]/hook", "unspecified", "::"],
    ["https://[fd00::1]/hook", "uniqueLocal", "fd00::1"],
    ["https://[fe80::1]/hook", "linkLocal", "fe80::1"],
    ["https://[ff02::1]/hook", "multicast", "ff02::1"],
    ["https://[::ffff:127.0.0.1]/hook", "loopback", "::ffff:7f00:1"],
    ["https://[::ffff:10.1.2.3]/hook", "private", "::ffff:a01:203"],
    ["https://[64:ff9b::a00:1]/hook", "private", "64:ff9b::a00:1"],
    ["https://[64:ff9b::7f00:1]/hook", "loopback", "64:ff9b::7f00:1"],
    ["https://[64:ff9b:1::808:808]/hook", "rfc6052", "64:ff9b:1::808:808"],
    ["https://[2002:a00:1::1]/hook", "private", "2002:a00:1::1"],
    ["https://[2002:a9fe:a9fe::1]/hook", "linkLocal", "2002:a9fe:a9fe::1"],
    ["https://[::ffff:0:7f00:1]/hook", "rfc6145", "::ffff:0:7f00:1"],
    ["https://[::7f00:1]/hook", "reserved", "::7f00:1"],
    ["https://[2001::1]/hook", "teredo", "2001::1"],
    ["https://[2001:db8::1]/hook", "reserved", "2001:db8::1"],
  ])("%s (%s)", async (url, range, address) => {
    const error = await refusal(url);
    expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(error.refused).toEqual({ address, range });
    expect(error.message).toMatch(/only public addresses are allowed$/);
  });

  it("a host name resolving to a private address, naming the address", async () => {
    const error = await refusal("https://hooks.example.com/x", { resolveHost: resolvesTo("10.20.30.40") });
    expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(error.message).toBe(
      'webhook URL host "hooks.example.com" resolves to 10.20.30.40, which is a private (RFC 1918) address; only public addresses are allowed',
    );
  });

  it("localhost, through the system resolver", async () => {
    const error = await refusal("https://localhost:8443/hook");
    expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(error.refused?.range).toBe("loopback");
  });

  it("a host name with one public and one private answer", async () => {
    const error = await refusal("https://mixed.example.com/", { resolveHost: resolvesTo("8.8.8.8", "fd12::1") });
    expect(error.refused).toEqual({ address: "fd12::1", range: "uniqueLocal" });
  });

  it.each<[string, WebhookUrlRefusalReason, RegExp]>([
    ["http://8.8.8.8/hook", "SCHEME_NOT_ALLOWED", /must use https, not http$/],
    ["http://hooks.example.com/hook", "SCHEME_NOT_ALLOWED", /must use https/],
    ["ftp://8.8.8.8/hook", "SCHEME_NOT_ALLOWED", /must use https/],
    ["https://user:s3cr3t@8.8.8.8/hook", "CREDENTIALS_IN_URL", /user name or password/],
    ["https://s3cr3t@8.8.8.8/hook", "CREDENTIALS_IN_URL", /user name or password/],
    ["not a url", "INVALID_URL", /not a valid absolute URL/],
  ])("%s", async (url, reason, message) => {
    const error = await refusal(url);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("s3cr3t");
  });

  it("a URL longer than 2048 characters", async () => {
    const error = await refusal(`https://8.8.8.8/${"a".repeat(2048)}`);
    expect(error.reason).toBe("INVALID_URL");
    expect(error.message).toMatch(/longer than 2048/);
  });

  it("a host that does not resolve", async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const error = await refusal("https://nowhere.example.com/", { resolveHost: failing });
    expect(error.reason).toBe("HOST_NOT_RESOLVED");
    expect(error.message).toBe('webhook URL host "nowhere.example.com" does not resolve (ENOTFOUND)');
    expect((await refusal("https://empty.example.com/", { resolveHost: resolvesTo() })).reason).toBe("HOST_NOT_RESOLVED");
  });
});

describe("vetWebhookUrl accepts", () => {
  it.each([
    ["https://8.8.8.8/hook", "8.8.8.8", 4],
    ["https://1.1.1.1:8443/hook?x=1", "1.1.1.1", 4],
    ["https://[2606:4700:4700::1111]/hook", "2606:4700:4700::1111", 6],
    ["https://[::ffff:8.8.8.8]/hook", "8.8.8.8", 4],
    ["https://[64:ff9b::808:808]/hook", "64:ff9b::808:808", 6],
    ["https://[2002:808:808::1]/hook", "2002:808:808::1", 6],
  ])("public literal %s without DNS or a connection", async (url, address, family) => {
    const resolveHost: HostResolver = async () => {
      throw new Error("a literal address must not be resolved");
    };
    await expect(vetWebhookUrl(url, { resolveHost })).resolves.toMatchObject({ address, family });
  });

  it("a host name with public answers, returning the first to pin the connection to", async () => {
    const vetted = await vetWebhookUrl("https://hooks.example.com/x", {
      resolveHost: resolvesTo("2606:4700::6810:84e5", "104.16.132.229"),
    });
    expect(vetted).toMatchObject({ hostname: "hooks.example.com", address: "2606:4700::6810:84e5", family: 6 });
    expect(vetted.url.pathname).toBe("/x");
  });

  it("http and loopback only with allowPrivate (development and tests)", async () => {
    await expect(vetWebhookUrl("http://127.0.0.1:9000/hook", { allowPrivate: true })).resolves.toMatchObject({
      address: "127.0.0.1",
      hostname: "127.0.0.1",
    });
    await expect(vetWebhookUrl("https://[::1]/hook", { allowPrivate: true })).resolves.toMatchObject({ address: "::1", family: 6 });
    expect((await refusal("https://user:pw@127.0.0.1/", { allowPrivate: true })).reason).toBe("CREDENTIALS_IN_URL");
    expect((await refusal("file:///etc/passwd", { allowPrivate: true })).reason).toBe("SCHEME_NOT_ALLOWED");
  });
});

describe("nonPublicRange", () => {
  it("passes global unicast only", () => {
    expect(nonPublicRange("93.184.216.34")).toBeNull();
    expect(nonPublicRange("2a00:1450:4001:81b::200e")).toBeNull();
    expect(nonPublicRange("100.63.255.255")).toBeNull();
    expect(nonPublicRange("100.128.0.0")).toBeNull();
    expect(nonPublicRange("100.127.255.255")).toBe("carrierGradeNat");
    expect(nonPublicRange("172.32.0.1")).toBeNull();
    expect(nonPublicRange("172.31.255.255")).toBe("private");
    expect(nonPublicRange("not an address")).toBe("invalid");
  });
});
