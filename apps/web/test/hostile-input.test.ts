import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { uniqueEmail } from "./identity-helpers";

// Property-based probes of the three classes of hostile input that once reached a 500: strings
// PostgreSQL cannot store (NUL, unpaired surrogates) in stored fields and query filters, and
// deeply nested JSON. Runs are bounded so that the file stays well under 30 s.

const ERROR_KEYS = ["code", "error", "message", "requestId"];

/** Never a 5xx; a refusal is the contract's flat body carrying the response's request id. */
function expectContractAnswer(res: TestResponse): void {
  expect(res.status, res.text).toBeLessThan(500);
  if (res.status < 400) return;
  const body = res.json<Record<string, unknown>>();
  expect(
    Object.keys(body)
      .filter((k) => k !== "details")
      .sort(),
  ).toEqual(ERROR_KEYS);
  expect(body.requestId).toBe(res.headers["x-request-id"]);
}

/**
 * The tRPC transport wraps the flat body in its envelope; a refusal by the guards in front of it
 * (size, depth, key material) is the flat body itself.
 */
function trpcError(res: TestResponse): Record<string, unknown> {
  const body = res.json<{ error: Record<string, unknown> & { json?: Record<string, unknown> } }>();
  return typeof body.error === "object" ? body.error.json! : body;
}

function expectTrpcContractAnswer(res: TestResponse): void {
  expect(res.status, res.text).toBeLessThan(500);
  if (res.status < 400) return;
  const body = trpcError(res);
  expect(body).toMatchObject({ requestId: res.headers["x-request-id"], code: expect.any(Number) });
  expect(typeof body.error).toBe("string");
}

function refusedFields(res: TestResponse): string[] {
  expect(res.json(), res.text).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
  return (res.json<{ details?: { fields?: { path: string }[] } }>().details?.fields ?? []).map((f) => f.path);
}

// Reference model of the rule, written independently of the schemas under test: a string is
// storable when it survives a UTF-8 round trip (no unpaired surrogate) and holds no NUL or
// other control character (tab and line breaks allowed in multi-line fields).
const wellFormed = (s: string) => Buffer.from(s, "utf8").toString("utf8") === s;
const codes = (s: string) => Array.from(s, (ch) => ch.codePointAt(0)!);
const storableLine = (s: string) => wellFormed(s) && !codes(s).some((c) => c < 0x20 || c === 0x7f);
const storableText = (s: string) =>
  wellFormed(s) && !codes(s).some((c) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f);

const hostileChar = fc.constantFrom(
  "\u0000",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\u0001",
  "\u001b",
  "\u007f",
  "\n",
  "\t",
  "\r",
  "\u2028",
  "é",
  "😀",
);
/** Mostly ordinary text with a hostile character somewhere, sometimes arbitrary code units. */
const hostileString = (maxLength = 30) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength }), hostileChar, fc.string({ maxLength })).map(([a, c, b]) => a + c + b) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength }) },
  );

let ipCounter = 0;
/** A fresh client address per request: signup's per-IP limit never interferes. */
const nextIp = () => {
  ipCounter += 1;
  return `198.18.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

const send = (server: TestServer, method: string, path: string, body: string | undefined, headers: Record<string, string> = {}) =>
  call(server, path, {
    method,
    headers: { "x-forwarded-for": nextIp(), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body,
  });

/** Percent-encodes raw bytes, so that the query may carry NUL, controls and invalid UTF-8. */
const percentEncode = (bytes: Uint8Array) => Array.from(bytes, (b) => `%${b.toString(16).padStart(2, "0")}`).join("");

describe("hostile input never reaches a 500", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  let vaultId: string;
  const authorized = () => ({ authorization: tenant.authorization });

  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      trustProxyHops: 1,
      rateLimits: {
        tenantPerSecond: 100_000,
        tenantBurstExtra: 100_000,
        signupPerHour: 100_000,
        signupLockSeconds: 1,
        resendPerHourPerIp: 100_000,
        resendPerHourPerEmail: 100_000,
      },
    });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const vault = await send(
      server,
      "POST",
      "/v1/vault/accounts",
      JSON.stringify({ name: "Hostile", networkCode: "QUANTUM_SANDBOX" }),
      authorized(),
    );
    expect(vault.status, vault.text).toBe(201);
    vaultId = vault.json().id;
  });
  afterAll(() => server?.close());

  it("reproduces the reported cases as 400 VALIDATION_FAILED", async () => {
    const signup = (overrides: Record<string, unknown>) =>
      send(
        server,
        "POST",
        "/v1/signup",
        JSON.stringify({ organizationName: "Acme", email: uniqueEmail(), password: "correct horse battery", ...overrides }),
      );
    const cases: [string, Promise<TestResponse>, string][] = [
      ["NUL in organizationName", signup({ organizationName: "Acme\u0000" }), "organizationName"],
      ["lone surrogate in organizationName", signup({ organizationName: "Acme\ud800" }), "organizationName"],
      [
        "NUL in vault name",
        send(server, "POST", "/v1/vault/accounts", JSON.stringify({ name: "v\u0000", networkCode: "QUANTUM_SANDBOX" }), authorized()),
        "name",
      ],
      [
        "lone surrogate in a metadata key",
        send(
          server,
          "POST",
          "/v1/vault/accounts",
          JSON.stringify({ name: "v", networkCode: "QUANTUM_SANDBOX", metadata: { "k\udc00": "v" } }),
          authorized(),
        ),
        "metadata.k\udc00",
      ],
      [
        "NUL in a metadata value",
        send(server, "PUT", `/v1/vault/accounts/${vaultId}`, JSON.stringify({ metadata: { desk: "a\u0000" } }), authorized()),
        "metadata.desk",
      ],
      [
        // zod's records skip such a key without checking it; it was answered 201 without the key.
        "a __proto__ metadata key",
        send(
          server,
          "POST",
          "/v1/vault/accounts",
          '{"name":"v","networkCode":"QUANTUM_SANDBOX","metadata":{"__proto__":"x"}}',
          authorized(),
        ),
        "metadata.__proto__",
      ],
      [
        "a __proto__ metadata key spelled with an escape",
        send(server, "PUT", `/v1/vault/accounts/${vaultId}`, '{"metadata":{"desk":"a","\\u005f_proto__":"x"}}', authorized()),
        "metadata.__proto__",
      ],
      [
        "NUL in a wallet label",
        send(
          server,
          "POST",
          `/v1/vault/accounts/${vaultId}/wallets/watch-only`,
          JSON.stringify({ address: `0x${"ab".repeat(20)}`, label: "\u0000" }),
          authorized(),
        ),
        "label",
      ],
      ["NUL in the mailbox filter", send(server, "GET", "/v1/dev/mailbox?to=%00", undefined), "to"],
      ["NUL in the audit filter", send(server, "GET", "/v1/audit-events?action=%00", undefined, authorized()), "action"],
    ];
    for (const [name, pending, field] of cases) {
      const res = await pending;
      expectContractAnswer(res);
      expect(res.status, name).toBe(400);
      expect(refusedFields(res), name).toContain(field);
    }
    let deep = "1";
    for (let i = 0; i < 4000; i++) deep = `{"a":${deep}}`;
    expect(deep.length).toBeGreaterThan(24_000);
    const res = await send(server, "POST", "/v1/signup", deep);
    expectContractAnswer(res);
    expect(res.json()).toMatchObject({ error: "VALIDATION_FAILED", message: "JSON nested deeper than 64 levels" });
    // Over tRPC the path is the key's in the body as sent, inside its `json` envelope.
    const viaTrpc = await send(
      server,
      "POST",
      "/api/trpc/vaults.create",
      '{"json":{"name":"v","networkCode":"QUANTUM_SANDBOX","metadata":{"__proto__":"x"}}}',
      authorized(),
    );
    expectTrpcContractAnswer(viaTrpc);
    expect(viaTrpc.status).toBe(400);
    expect(trpcError(viaTrpc)).toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "json.metadata.__proto__", message: "the key `__proto__` is not accepted in a JSON body" }] },
    });
  });

  it("signup: any string in any field is stored or refused with the field named", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString(),
        fc.option(hostileString(), { nil: undefined }),
        hostileString(12),
        async (organizationName, name, passwordTail) => {
          const password = `pw-${passwordTail}-0123456789`;
          const res = await send(
            server,
            "POST",
            "/v1/signup",
            JSON.stringify({ organizationName, name, email: uniqueEmail("fuzz"), password }),
          );
          expectContractAnswer(res);
          expect([201, 400]).toContain(res.status);
          if (res.status === 201) return;
          const fields = refusedFields(res);
          if (!storableLine(organizationName)) expect(fields).toContain("organizationName");
          if (name !== undefined && !storableLine(name)) expect(fields).toContain("name");
          if (!storableLine(password)) expect(fields).toContain("password");
          expect(fields.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("vaults: names and metadata keys and values, on create and update", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString(),
        fc.dictionary(hostileString(10), hostileString(), { maxKeys: 3 }),
        fc.boolean(),
        async (name, metadata, update) => {
          const body = JSON.stringify(update ? { name, metadata } : { name, networkCode: "QUANTUM_SANDBOX", metadata });
          const res = update
            ? await send(server, "PUT", `/v1/vault/accounts/${vaultId}`, body, authorized())
            : await send(server, "POST", "/v1/vault/accounts", body, authorized());
          expectContractAnswer(res);
          if (Object.hasOwn(metadata, "__proto__")) {
            // Refused before the input is validated, with that key alone named (guards/prototype-keys.ts).
            expect(res.status).toBe(400);
            expect(refusedFields(res)).toEqual(["metadata.__proto__"]);
            return;
          }
          const badKeys = Object.keys(metadata).filter((k) => !storableLine(k));
          const badValues = Object.entries(metadata).filter(([, v]) => !storableText(v));
          if (!storableLine(name) || badKeys.length > 0 || badValues.length > 0) {
            expect(res.status).toBe(400);
            const fields = refusedFields(res);
            if (!storableLine(name)) expect(fields).toContain("name");
            for (const [key] of badValues) expect(fields).toContain(`metadata.${key}`);
          } else {
            expect([200, 201, 400]).toContain(res.status);
            if (res.status !== 400) expect(res.json()).toMatchObject({ name: name.trim(), metadata });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("wallets: labels and addresses of watch-only wallets", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString(),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.option(hostileString(8), { nil: undefined }),
        async (label, bytes, addressNoise) => {
          const address = `0x${Buffer.from(bytes).toString("hex")}${addressNoise ?? ""}`;
          const res = await send(
            server,
            "POST",
            `/v1/vault/accounts/${vaultId}/wallets/watch-only`,
            JSON.stringify({ address, label }),
            authorized(),
          );
          expectContractAnswer(res);
          if (!storableLine(label)) expect(refusedFields(res)).toContain("label");
          if (addressNoise !== undefined && !storableLine(address)) expect(refusedFields(res)).toContain("address");
          if (res.status < 400) expect(res.status).toBe(201);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("password reset: any string as the address is 202; hostile tokens and passwords are 400", async () => {
    await fc.assert(
      fc.asyncProperty(hostileString(), hostileString(), hostileString(), async (email, token, passwordTail) => {
        const requested = await send(server, "POST", "/v1/auth/password-reset", JSON.stringify({ email }));
        expectContractAnswer(requested);
        expect(requested.status).toBe(202);
        const password = `pw-${passwordTail}-0123456789`;
        const confirmed = await send(server, "POST", "/v1/auth/password-reset/confirm", JSON.stringify({ token, password }));
        expectContractAnswer(confirmed);
        expect(confirmed.status).toBe(400);
        const fields = storableLine(token) && storableLine(password) ? [] : refusedFields(confirmed);
        if (!storableLine(token)) expect(fields).toContain("token");
        if (!storableLine(password)) expect(fields).toContain("password");
      }),
      { numRuns: 150 },
    );
  });

  it("query filters: raw bytes in mailbox, audit and cursor parameters", async () => {
    const routes = [
      { path: "/v1/dev/mailbox", parameter: "to", authorized: false },
      { path: "/v1/audit-events", parameter: "action", authorized: true },
      { path: "/v1/audit-events", parameter: "cursor", authorized: true },
      { path: "/v1/vault/accounts", parameter: "cursor", authorized: true },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.uint8Array({ minLength: 1, maxLength: 24 }), async (route, bytes) => {
        const res = await send(
          server,
          "GET",
          `${route.path}?${route.parameter}=${percentEncode(bytes)}`,
          undefined,
          route.authorized ? authorized() : {},
        );
        expectContractAnswer(res);
        // The query is decoded as UTF-8 (invalid bytes become U+FFFD); a control byte is refused.
        if (bytes.some((b) => b < 0x20 || b === 0x7f)) {
          expect(res.status).toBe(400);
          expect(refusedFields(res)).toContain(route.parameter);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("bodies: deep and odd JSON on every kind of route, over /v1 and /api/trpc", async () => {
    const targets = [
      { method: "POST", path: "/v1/signup", headers: () => ({}) },
      { method: "POST", path: "/v1/auth/login", headers: () => ({}) },
      { method: "POST", path: "/v1/auth/password-reset", headers: () => ({}) },
      { method: "POST", path: "/v1/auth/password-reset/confirm", headers: () => ({}) },
      { method: "POST", path: "/v1/signup/verify-email", headers: () => ({}) },
      { method: "POST", path: "/v1/onboarding/kyc/callback", headers: () => ({ "x-kyc-signature": `sha256=${"0".repeat(64)}` }) },
      { method: "POST", path: "/v1/vault/accounts", headers: authorized },
      { method: "PUT", path: "/v1/settings/ip-allowlist", headers: authorized },
      { method: "POST", path: "/api/trpc/vaults.create", headers: authorized, trpc: true },
      { method: "POST", path: "/api/trpc/signup.create", headers: () => ({}), trpc: true },
    ];
    const nested = fc
      .tuple(fc.integer({ min: 1, max: 6000 }), fc.constantFrom("[", '{"a":', '{"name":', "mixed"), fc.jsonValue({ maxDepth: 2 }))
      .map(([depth, opener, leaf]) => {
        let text = JSON.stringify(leaf);
        for (let i = 0; i < depth; i++) {
          const open = opener === "mixed" ? (i % 3 === 0 ? "[" : '{"k":') : opener;
          text = `${open}${text}${open === "[" ? "]" : "}"}`;
        }
        return { text, depth: depth + depthOf(leaf) };
      });
    const odd = fc
      .oneof(
        fc.jsonValue({ maxDepth: 6 }),
        fc.dictionary(
          fc.constantFrom("__proto__", "constructor", "name", "networkCode", "metadata", "email", "entries", "json"),
          fc.jsonValue({ maxDepth: 4 }),
        ),
      )
      .map((value) => ({ text: JSON.stringify(value), depth: depthOf(value) }));
    const rawOdd = fc.constantFrom(
      '{"name":1e400}',
      '{"name":"\\u0000"}',
      '{"\\u0000":"x"}',
      '{"name":"\\ud800"}',
      '{"a":1,"a":2}',
      "[]",
      '""',
      "null",
      "-0",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.oneof(
          nested,
          odd,
          rawOdd.map((text) => ({ text, depth: 1 })),
        ),
        fc.boolean(),
        async (target, body, wrapInField) => {
          const text = target.trpc
            ? `{"json":${body.text}}`
            : wrapInField
              ? `{"name":"x","networkCode":"QUANTUM_SANDBOX","metadata":${body.text}}`
              : body.text;
          const depth = target.trpc || wrapInField ? body.depth + 1 : body.depth;
          const res = await send(server, target.method, target.path, text, target.headers());
          if (target.trpc) expectTrpcContractAnswer(res);
          else expectContractAnswer(res);
          if (depth > 64) {
            expect(res.status).toBe(400);
            const error = target.trpc ? trpcError(res) : res.json();
            expect(error).toMatchObject({ error: "VALIDATION_FAILED", message: "JSON nested deeper than 64 levels" });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("tRPC query input: deep and hostile ?input=", async () => {
    await fc.assert(
      // Each level costs 6 bytes of URL; Node refuses request heads over 16 KB itself (431).
      fc.asyncProperty(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2000 })), hostileString(), async (depth, action) => {
        // JSON.stringify escapes unpaired surrogates, so the text itself is always encodable.
        let inner = JSON.stringify({ action });
        for (let i = 0; i < depth; i++) inner = `[${inner}]`;
        const res = await send(
          server,
          "GET",
          `/api/trpc/auditEvents.list?input=${encodeURIComponent(`{"json":${inner}}`)}`,
          undefined,
          authorized(),
        );
        expectTrpcContractAnswer(res);
        if (depth + 2 > 64)
          expect(trpcError(res)).toMatchObject({ error: "VALIDATION_FAILED", message: "JSON nested deeper than 64 levels" });
        if (depth === 0 && !storableLine(action)) expect(trpcError(res)).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
        if (depth === 0 && storableLine(action) && action.length <= 100) expect(res.status).toBe(200);
      }),
      { numRuns: 150 },
    );
  });
});

/** Nesting depth of a parsed JSON value (a scalar is 0). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}
