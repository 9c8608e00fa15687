import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@qc/db/testing";
import { safeNext } from "../app/_components/safe-next";
import { call, startTestServer, type TestServer } from "./harness";

// No redirect of ours sends anyone to another origin: the plain-HTTP redirector (with and
// without PUBLIC_URL), the X-Forwarded-Proto redirect behind a proxy, and the login page's `next`.

const HOSTILE_PATHS = ["//evil.example/x", "///evil.example/x", "/\\evil.example/x", "/%09/evil.example", "/%2F%2Fevil.example"];

describe("HTTP → HTTPS redirects stay on this origin", () => {
  const t = useTestDatabase();
  let withPublicUrl: TestServer;
  let withoutPublicUrl: TestServer;
  let behindProxy: TestServer;
  const PUBLIC_URL = "https://custody.example:8443";

  beforeAll(async () => {
    [withPublicUrl, withoutPublicUrl, behindProxy] = await Promise.all([
      startTestServer({ database: t, publicUrl: PUBLIC_URL }),
      startTestServer({ database: t }),
      startTestServer({ database: t, trustProxyHops: 1, publicUrl: PUBLIC_URL }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withPublicUrl?.close(), withoutPublicUrl?.close(), behindProxy?.close()]);
  });

  it("keeps `//host/…` a path of PUBLIC_URL (it used to answer 308 to https://evil.example/x)", async () => {
    const res = await call(withPublicUrl, "//evil.example/x", { plain: true });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`${PUBLIC_URL}//evil.example/x`);
    for (const path of HOSTILE_PATHS) {
      const hostile = await call(withPublicUrl, `${path}?a=1`, { plain: true });
      expect(hostile.status, path).toBe(308);
      expect(new URL(hostile.headers.location as string).origin, path).toBe(PUBLIC_URL);
    }
  });

  it("drops the authority of an absolute-form target (it used to redirect to http://evil.example/x)", async () => {
    const res = await call(withPublicUrl, "http://evil.example/x?y=1", { plain: true });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/x?y=1`);
  });

  it("answers 400 with the contract body to a target it cannot redirect", async () => {
    for (const server of [withPublicUrl, withoutPublicUrl]) {
      const res = await call(server, "http://[", { plain: true });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ error: "VALIDATION_FAILED", code: 1001, requestId: res.headers["x-request-id"] });
    }
  });

  it("without PUBLIC_URL, sends the path to the HTTPS port of the host the client asked for, and refuses a malformed Host", async () => {
    for (const path of HOSTILE_PATHS) {
      const res = await call(withoutPublicUrl, path, { plain: true, headers: { host: `localhost:${withoutPublicUrl.httpPort}` } });
      expect(res.status, path).toBe(308);
      expect(new URL(res.headers.location as string).origin, path).toBe(`https://localhost:${withoutPublicUrl.httpsPort}`);
    }
    for (const host of ["evil.example/x", "evil.example?", "a@evil.example", "[::1"]) {
      const res = await call(withoutPublicUrl, "/x", { plain: true, headers: { host } });
      expect(res.status, host).toBe(400);
    }
  });

  it("behind a trusted proxy, X-Forwarded-Proto: http gets the same safe 308", async () => {
    for (const path of HOSTILE_PATHS) {
      const res = await call(behindProxy, path, { headers: { "x-forwarded-proto": "http" } });
      expect(res.status, path).toBe(308);
      expect(new URL(res.headers.location as string).origin, path).toBe(PUBLIC_URL);
    }
  });
});

describe("safeNext (the login page's ?next=)", () => {
  const origin = "https://custody.example";

  it("follows a path of this site", () => {
    expect(safeNext("/transactions?status=QUEUED#top", "/", origin)).toBe("/transactions?status=QUEUED#top");
    expect(safeNext("/vaults/../settings", "/", origin)).toBe("/settings");
  });

  it("refuses anything the browser would resolve to another origin", () => {
    // As URLSearchParams hands them over: `?next=%2F%09%2Fevil.example` arrives as "/\t/evil.example".
    for (const value of [
      "/\t/evil.example",
      "/\n/evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\/evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      " //evil.example",
      "/\t\\evil.example",
      "",
      null,
    ]) {
      expect(safeNext(value, "/", origin), JSON.stringify(value)).toBe("/");
    }
  });
});
