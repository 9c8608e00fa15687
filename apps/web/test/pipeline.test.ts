import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter, createRouter, mergeRouters, publicProcedure } from "@qc/api";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { call, json, startTestServer, type TestServer } from "./harness";

// A router with the shapes the pipeline must handle, merged into the real one: the guards and
// adapters under test are the production ones.
const probeRouter = createRouter({
  probe: createRouter({
    echo: publicProcedure
      .meta({ openapi: { method: "POST", path: "/v1/probe/echo", summary: "Echo the label length" } })
      .input(z.object({ label: z.string().min(1) }))
      .output(z.object({ length: z.number() }))
      .mutation(({ input }) => ({ length: input.label.length })),
    item: publicProcedure
      .meta({ openapi: { method: "GET", path: "/v1/probe/items/{id}" } })
      .input(z.object({ id: z.uuid() }))
      .output(z.object({ id: z.string() }))
      .query(({ input }) => ({ id: input.id })),
    boom: publicProcedure
      .meta({ openapi: { method: "POST", path: "/v1/probe/boom" } })
      .input(z.object({}).optional())
      .output(z.object({}))
      .mutation(() => {
        throw new Error("secret internal detail: postgres://user:pw@db");
      }),
  }),
});
const router = mergeRouters(appRouter, probeRouter);

const ERROR_KEYS = ["code", "error", "message", "requestId"];

function expectErrorBody(body: Record<string, unknown>, error: string, code: number) {
  expect(
    Object.keys(body)
      .filter((k) => k !== "details")
      .sort(),
  ).toEqual(ERROR_KEYS);
  expect(body).toMatchObject({ error, code });
  expect(typeof body.message).toBe("string");
  expect(typeof body.requestId).toBe("string");
  expect(JSON.stringify(body)).not.toMatch(/stack|at Object\.|node_modules/);
}

describe("request pipeline over real HTTPS", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t, router });
  });
  afterAll(() => server?.close());

  it("answers 400 VALIDATION_FAILED with field details", async () => {
    const res = await call(server, "/v1/probe/echo", { method: "POST", ...json({ label: 7 }) });
    expect(res.status).toBe(400);
    expectErrorBody(res.json(), "VALIDATION_FAILED", 1001);
    expect(res.json().details.fields[0].path).toBe("label");
  });

  it("answers 400 VALIDATION_FAILED for a bad path parameter", async () => {
    const res = await call(server, "/v1/probe/items/not-a-uuid");
    expect(res.status).toBe(400);
    expectErrorBody(res.json(), "VALIDATION_FAILED", 1001);
  });

  it("answers 400 for malformed JSON", async () => {
    const res = await call(server, "/v1/probe/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"label": "x",',
    });
    expect(res.status).toBe(400);
    expectErrorBody(res.json(), "VALIDATION_FAILED", 1001);
    expect(res.json().message).toBe("malformed JSON body");
  });

  it("answers 404 for an unknown path, under /v1 and elsewhere", async () => {
    for (const path of ["/v1/nope", "/v1", "/elsewhere"]) {
      const res = await call(server, path);
      expect(res.status).toBe(404);
      expectErrorBody(res.json(), "NOT_FOUND", 1030);
    }
  });

  it("answers 405 with Allow for a known path and the wrong method", async () => {
    const res = await call(server, "/v1/probe/echo", { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expectErrorBody(res.json(), "METHOD_NOT_ALLOWED", 1031);
    const health = await call(server, "/healthz", { method: "DELETE" });
    expect(health.status).toBe(405);
  });

  it("accepts a body of exactly 1,048,576 bytes and refuses 1,048,577 with 413", async () => {
    const frame = '{"label":""}'.length;
    const exact = JSON.stringify({ label: "a".repeat(1_048_576 - frame) });
    expect(Buffer.byteLength(exact)).toBe(1_048_576);
    const ok = await call(server, "/v1/probe/echo", { method: "POST", headers: { "content-type": "application/json" }, body: exact });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ length: 1_048_576 - frame });

    const over = JSON.stringify({ label: "a".repeat(1_048_577 - frame) });
    const res = await call(server, "/v1/probe/echo", { method: "POST", headers: { "content-type": "application/json" }, body: over });
    expect(res.status).toBe(413);
    expectErrorBody(res.json(), "PAYLOAD_TOO_LARGE", 1050);
  });

  it("refuses an over-limit body that declares no length, while streaming", async () => {
    const { request } = await import("node:https");
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.httpsPort,
          path: "/v1/probe/echo",
          method: "POST",
          ca: server.tls.cert,
          servername: "localhost",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        },
        (r) => {
          let body = "";
          r.on("data", (c) => (body += c));
          r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write('{"label":"');
      for (let i = 0; i < 40; i++) req.write("b".repeat(32_768));
      req.end('"}');
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toBe("PAYLOAD_TOO_LARGE");
  });

  it("accepts JSON nested 64 levels deep and refuses 65, in a body and in a tRPC ?input=", async () => {
    const nested = (levels: number) => `{"label":"x","extra":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    const ok = await call(server, "/v1/probe/echo", { method: "POST", headers: { "content-type": "application/json" }, body: nested(64) });
    expect(ok.status, ok.text).toBe(200);
    // Brackets inside strings are text, not nesting.
    const inString = await call(server, "/v1/probe/echo", { method: "POST", ...json({ label: "[".repeat(500) + '\\"{' }) });
    expect(inString.status, inString.text).toBe(200);
    const deep = await call(server, "/v1/probe/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: nested(65),
    });
    expect(deep.status).toBe(400);
    expectErrorBody(deep.json(), "VALIDATION_FAILED", 1001);
    expect(deep.json()).toMatchObject({ message: "JSON nested deeper than 64 levels", details: { fields: [{ path: "(body)" }] } });
    const query = await call(server, `/api/trpc/probe.item?input=${encodeURIComponent(`{"json":${"[".repeat(64)}${"]".repeat(64)}}`)}`);
    expect(query.status).toBe(400);
    expect(query.json()).toMatchObject({ error: "VALIDATION_FAILED", details: { fields: [{ path: "(input)" }] } });
  });

  it("answers 415 for a body that is not JSON", async () => {
    const res = await call(server, "/v1/probe/echo", { method: "POST", headers: { "content-type": "text/plain" }, body: "label=x" });
    expect(res.status).toBe(415);
    expectErrorBody(res.json(), "UNSUPPORTED_MEDIA_TYPE", 1051);
  });

  it("answers 500 INTERNAL without leaking the internal message", async () => {
    const res = await call(server, "/v1/probe/boom", { method: "POST", ...json({}) });
    expect(res.status).toBe(500);
    expectErrorBody(res.json(), "INTERNAL", 1000);
    expect(res.text).not.toContain("secret internal detail");
    expect(res.text).not.toContain("postgres://");
  });

  it("echoes a valid X-Request-ID and replaces an invalid one", async () => {
    const valid = await call(server, "/v1/nope", { headers: { "x-request-id": "client-req_01:abc.9" } });
    expect(valid.headers["x-request-id"]).toBe("client-req_01:abc.9");
    expect(valid.json().requestId).toBe("client-req_01:abc.9");
    const longest = "x".repeat(128);
    expect((await call(server, "/v1/nope", { headers: { "x-request-id": longest } })).headers["x-request-id"]).toBe(longest);
    // Each case sends its own invalid value (Node sends latin-1 header values as they are).
    const invalid = ["has space", "x".repeat(129), "semi;colon", "ünïcode", "bad/slash", ""];
    for (const bad of invalid) {
      const res = await call(server, "/v1/nope", { headers: { "x-request-id": bad } });
      expect(res.headers["x-request-id"], JSON.stringify(bad)).not.toBe(bad);
      expect(res.json().requestId).toBe(res.headers["x-request-id"]);
      expect(res.json().requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const generated = await call(server, "/v1/nope");
    expect(generated.json().requestId).toBe(generated.headers["x-request-id"]);
  });

  it("rejects key material before the handler, on REST and tRPC, and audits it without the value", async () => {
    const secretValue = "0x" + "ab".repeat(32);
    const rest = await call(server, "/v1/probe/echo", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "km-rest-1" },
      body: JSON.stringify({ label: "ok", nested: [{ deeper: { private_key: secretValue } }] }),
    });
    expect(rest.status).toBe(400);
    expectErrorBody(rest.json(), "KEY_MATERIAL_REJECTED", 1002);
    expect(rest.text).not.toContain(secretValue);

    const trpc = await call(server, "/api/trpc/probe.echo", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "km-trpc-1" },
      body: JSON.stringify({ json: { label: "ok", Mnemonic: "anything" } }),
    });
    expect(trpc.status).toBe(400);
    expect(trpc.json().error).toBe("KEY_MATERIAL_REJECTED");

    await server.deps.authenticator.flushAudit(); // refusals are audited through the buffer
    const rows = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "request.key_material_rejected"));
    // Anonymous refusals are counted per source, kind and minute: one row, both requests sampled.
    expect(rows.flatMap((r) => (r.details.aggregated as { requestIds: string[] }).requestIds).sort()).toEqual(["km-rest-1", "km-trpc-1"]);
    expect(JSON.stringify(rows)).not.toContain(secretValue);
    expect(rows.find((r) => r.requestId === "km-rest-1")?.details).toMatchObject({
      jsonPath: "/nested/0/deeper/private_key",
      kind: "KEY_NAME",
    });
  });

  it("serves tRPC with the flat contract error inside tRPC's envelope", async () => {
    const ok = await call(server, "/api/trpc/probe.echo", { method: "POST", ...json({ json: { label: "abc" } }) });
    expect(ok.status).toBe(200);
    expect(ok.json().result.data.json).toEqual({ length: 3 });
    const bad = await call(server, "/api/trpc/probe.echo", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "trpc-bad" },
      body: JSON.stringify({ json: { label: "" } }),
    });
    expect(bad.status).toBe(400);
    expect(bad.json().error.json).toMatchObject({
      error: "VALIDATION_FAILED",
      code: 1001,
      requestId: "trpc-bad",
      data: { httpStatus: 400 },
    });
    const missing = await call(server, "/api/trpc/probe.nothing");
    expect(missing.status).toBe(404);
    expect(missing.json().error.json).toMatchObject({ error: "NOT_FOUND", code: 1030 });
  });

  it("sends HSTS on HTTPS and redirects plain HTTP with 308, processing nothing", async () => {
    const health = await call(server, "/healthz");
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    expect(health.headers["strict-transport-security"]).toMatch(/max-age=\d+/);

    const redirected = await call(server, "/v1/probe/echo?x=1", {
      plain: true,
      method: "POST",
      ...json({ label: "never processed" }),
      headers: { "content-type": "application/json", host: "localhost:1234" },
    });
    expect(redirected.status).toBe(308);
    expect(redirected.headers.location).toBe(`https://localhost:${server.httpsPort}/v1/probe/echo?x=1`);
    expect(redirected.text).toBe("");
  });

  it("redirects when a trusted proxy reports plain HTTP", async () => {
    const proxied = await startTestServer({ database: t, router, trustProxyHops: 1 });
    try {
      const res = await call(proxied, "/v1/probe/items/0194f2c4-0000-7000-8000-000000000001", { headers: { "x-forwarded-proto": "http" } });
      expect(res.status).toBe(308);
      const direct = await call(server, "/v1/probe/items/0194f2c4-0000-7000-8000-000000000001", {
        headers: { "x-forwarded-proto": "http" },
      });
      expect(direct.status).toBe(200); // not behind a trusted proxy: the header means nothing
    } finally {
      await proxied.close();
    }
  });
});
