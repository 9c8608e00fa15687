import { request } from "node:https";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, type TestServer } from "./harness";

describe("/docs, the API reference", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    // API only (no dashboard pages): the reference is served without Next.
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  it("is a page that loads every script from this origin, under a policy that allows no other", async () => {
    const page = await call(server, "/docs");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    const policy = String(page.headers["content-security-policy"]);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/https?:|\*/);
    const scripts = [...page.text.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(["/docs/api-reference.js", "/docs/start.js"]);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.text).not.toMatch(/<script>[^<]/); // no inline script: the policy would block it
    for (const script of scripts) {
      const res = await call(server, script);
      expect(res.status, script).toBe(200);
      expect(res.headers["content-type"], script).toBe("text/javascript; charset=utf-8");
    }
  });

  it("renders /v1/openapi.json with the bundled Scalar renderer, configured to call nowhere else", async () => {
    const renderer = await call(server, "/docs/api-reference.js");
    expect(renderer.text.length).toBeGreaterThan(1_000_000);
    expect(renderer.text).toContain("createApiReference");
    const start = await call(server, "/docs/start.js");
    expect(start.text).toMatch(/^Scalar\.createApiReference\("#api-reference", /);
    const config = JSON.parse(start.text.slice(start.text.indexOf("{"), start.text.lastIndexOf("}") + 1));
    expect(config).toMatchObject({
      url: "/v1/openapi.json",
      telemetry: false,
      withDefaultFonts: false,
      hideClientButton: true,
      agent: { disabled: true },
    });
    expect(config).not.toHaveProperty("proxyUrl");
  });

  it("serves the renderer compressed when asked, and revalidates by ETag", async () => {
    const plain = await call(server, "/docs/api-reference.js");
    const compressed = await call(server, "/docs/api-reference.js", { headers: { "accept-encoding": "gzip, br" } });
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(Number(compressed.headers["content-length"])).toBeLessThan(Number(plain.headers["content-length"]) / 2);
    const again = await call(server, "/docs/api-reference.js", { headers: { "if-none-match": String(plain.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(compressed.headers.etag).not.toBe(plain.headers.etag);
    const head = await call(server, "/docs/api-reference.js", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(plain.headers["content-length"]);
    expect(head.text).toBe("");
    // The harness decodes bodies as text; the compressed bytes are read raw.
    expect(gunzipSync(await rawBody(server, "/docs/api-reference.js", { "accept-encoding": "gzip" })).toString("utf8")).toBe(plain.text);
  });

  it("answers other paths and methods with the flat error body", async () => {
    const missing = await call(server, "/docs/nothing-here.js");
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: "NOT_FOUND", code: 1030 });
    const posted = await call(server, "/docs", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe("GET, HEAD");
    expect(posted.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED", requestId: posted.headers["x-request-id"] });
  });
});

function rawBody(server: TestServer, path: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.httpsPort, path, headers, ca: server.tls.cert, servername: "localhost" },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks)));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
