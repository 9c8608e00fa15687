import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { ERROR_CODES, type ErrorName } from "@qc/core";
import { useTestDatabase } from "@qc/db/testing";
import { call, json, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";

type Parameter = { name?: string; in?: string; example?: unknown };
type Response = { content?: { "application/json"?: { examples?: Record<string, { value: { error: ErrorName } }> } } };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { example?: Record<string, unknown> } } };
  responses: Record<string, Response>;
  "x-scope"?: string;
};

interface Route {
  key: string;
  method: string;
  path: string;
  op: Operation;
  pathExample: Record<string, string>;
  queryExample: Record<string, unknown>;
  bodyExample: Record<string, unknown> | undefined;
}

interface Observation {
  scenario: string;
  status: number;
  error?: string;
}

const UNKNOWN_ID = "0194f2c4-0000-7000-8000-00000000abcd";
const PRIVATE_KEY = "0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

/**
 * Route by route, the running server is driven through the situations an integrator meets
 * (no credentials, too small a scope, a dashboard session, the documented example with real
 * ids, unknown and malformed ids, bad bodies, archived resources), and every status it answers,
 * and every error name, must be declared for that route in the served document.
 */
describe("every status the server answers is declared for its route", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  let reader: { authorization: string };
  let routes: Route[];
  const observed = new Map<string, Observation[]>();
  /** Example ids of the document, replaced by ids of the test tenant's resources. */
  const realIds = new Map<string, string>();

  const send = (
    route: Route,
    scenario: string,
    options: {
      authorization?: string;
      path?: Record<string, string>;
      query?: Record<string, unknown>;
      body?: string;
      contentType?: string;
    },
  ) => {
    const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent((options.path ?? realPath(route))[name] ?? UNKNOWN_ID),
    );
    const query = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const headers: Record<string, string> = {};
    if (options.authorization) headers.authorization = options.authorization;
    if (options.body !== undefined) headers["content-type"] = options.contentType ?? "application/json";
    return record(
      route,
      scenario,
      call(server, query ? `${path}?${query}` : path, { method: route.method.toUpperCase(), headers, body: options.body }),
    );
  };

  async function record(route: Route, scenario: string, pending: Promise<TestResponse>): Promise<TestResponse> {
    const res = await pending;
    const error = res.status >= 400 ? (res.json() as { error?: string }).error : undefined;
    observed.set(route.key, [...(observed.get(route.key) ?? []), { scenario, status: res.status, error }]);
    return res;
  }

  const swapIds = (value: unknown): unknown => {
    if (typeof value === "string") return realIds.get(value) ?? value;
    if (Array.isArray(value)) return value.map(swapIds);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swapIds(v)]));
    return value;
  };
  const realPath = (route: Route) => swapIds(route.pathExample) as Record<string, string>;
  const realBody = (route: Route) => (route.bodyExample === undefined ? undefined : JSON.stringify(swapIds(route.bodyExample)));

  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      // The matrix sends a few hundred requests in a burst: rate limits are their own test.
      rateLimits: {
        tenantPerSecond: 100_000,
        tenantBurstExtra: 100_000,
        signupPerHour: 1000,
        signupLockSeconds: 600,
        resendPerHourPerIp: 1000,
        resendPerHourPerEmail: 1000,
      },
    });
    // Not verified yet, so that starting KYC opens a case.
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER }, { status: "PENDING_VERIFICATION" });
    reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]);
    const document = (await call(server, "/v1/openapi.json")).json<{ paths: Record<string, Record<string, Operation>> }>();
    routes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => {
        const parameters = op.parameters ?? [];
        const pick = (where: string) =>
          Object.fromEntries(parameters.filter((p) => p.in === where && p.example !== undefined).map((p) => [p.name!, p.example]));
        return {
          key: `${method.toUpperCase()} ${path}`,
          method,
          path,
          op,
          pathExample: pick("path") as Record<string, string>,
          queryExample: pick("query"),
          bodyExample: op.requestBody?.content["application/json"].example,
        };
      }),
    );

    // The resources the examples name, made for real (over REST, as an integrator would).
    const admin = tenant.authorization;
    const vault = (networkCode: string, name: string) =>
      call(server, "/v1/vault/accounts", {
        method: "POST",
        ...json({ name, networkCode }),
        headers: { authorization: admin, "content-type": "application/json" },
      }).then((r) => r.json<{ id: string }>().id);
    const example = (key: string) => routes.find((r) => r.key === key)!;
    const sandboxVault = await vault("QUANTUM_SANDBOX", "matrix sandbox");
    realIds.set(example("GET /v1/vault/accounts/{vaultAccountId}").pathExample.vaultAccountId!, sandboxVault);
    realIds.set(
      String(example("POST /v1/wallets/{walletId}/network-links").bodyExample!.vaultId),
      await vault("QUANTUM_MAINNET", "matrix mainnet"),
    );
    const wallet = await call(server, `/v1/vault/accounts/${sandboxVault}/wallets/watch-only`, {
      method: "POST",
      ...json({ address: "0x1111111111111111111111111111111111111111" }),
      headers: { authorization: admin, "content-type": "application/json" },
    });
    expect(wallet.status).toBe(201);
    realIds.set(example("GET /v1/wallets/{walletId}").pathExample.walletId!, wallet.json<{ id: string }>().id);
  });
  afterAll(() => server?.close());

  it("drives every route through credentials, examples, bad ids and bad bodies", async () => {
    expect(routes.length).toBeGreaterThan(30);
    // Archiving runs last: the other routes use the vault and wallet it archives.
    const ordered = [...routes.filter((r) => !r.path.endsWith("/archive")), ...routes.filter((r) => r.path.endsWith("/archive"))];
    for (const route of ordered) {
      const authenticated = route.op["x-scope"] !== undefined;
      const takesBody = route.method !== "get";
      const body = realBody(route);
      const example = { query: swapIds(route.queryExample) as Record<string, unknown>, body };
      await send(route, "no credentials", example);
      if (authenticated) {
        await send(route, "read-only key", { ...example, authorization: reader.authorization });
        // A session of its own per route: logout ends the one it is called with.
        const session = await createSessionFixture({ db: t.db }, tenant);
        await send(route, "dashboard session", { ...example, authorization: session.authorization });
      }
      const authorization = authenticated ? tenant.authorization : undefined;
      await send(route, "the example, with real ids", { ...example, authorization });
      await send(route, "the example again", { ...example, authorization });
      if (Object.keys(route.pathExample).length) {
        await send(route, "unknown ids", {
          ...example,
          authorization,
          path: Object.fromEntries(Object.keys(route.pathExample).map((k) => [k, UNKNOWN_ID])),
        });
        await send(route, "malformed ids", {
          ...example,
          authorization,
          path: Object.fromEntries(Object.keys(route.pathExample).map((k) => [k, "not-a-uuid"])),
        });
      }
      if (Object.keys(route.queryExample).length) {
        await send(route, "out-of-range query", { authorization, query: { ...route.queryExample, limit: 0, cursor: "!" } });
      }
      if (takesBody) {
        await send(route, "empty object", { authorization, body: "{}" });
        await send(route, "wrong types", {
          authorization,
          body: JSON.stringify(Object.fromEntries(Object.keys(route.bodyExample ?? { x: 1 }).map((k) => [k, { nested: [1] }]))),
        });
        await send(route, "malformed JSON", { authorization, body: '{"name": ' });
        await send(route, "not JSON", { authorization, body: "name=x", contentType: "application/x-www-form-urlencoded" });
        await send(route, "key material", {
          authorization,
          body: JSON.stringify({ ...(route.bodyExample ?? {}), privateKey: PRIVATE_KEY }),
        });
      }
    }
    // Writes into the archived vault and wallet now that both are archived.
    for (const route of routes.filter(
      (r) => r.method !== "get" && !r.path.endsWith("/archive") && (r.path.includes("{vaultAccountId}") || r.path.includes("{walletId}")),
    )) {
      await send(route, "archived vault or wallet", { authorization: tenant.authorization, body: realBody(route) });
    }
  });

  it("declares, for each route, every status and every error name observed", () => {
    const undeclared: string[] = [];
    for (const route of routes) {
      for (const { scenario, status, error } of observed.get(route.key) ?? []) {
        const response = route.op.responses[String(status)];
        if (!response) {
          undeclared.push(`${route.key}: ${status}${error ? ` ${error}` : ""} (${scenario}) is not declared`);
          continue;
        }
        if (status < 400) continue;
        const names = Object.values(response.content?.["application/json"]?.examples ?? {}).map((e) => e.value.error);
        if (!error || !names.includes(error as ErrorName))
          undeclared.push(`${route.key}: ${status} ${error} (${scenario}) is not among ${names.join(", ")}`);
        if (error && error in ERROR_CODES) expect(ERROR_CODES[error as ErrorName].status, `${route.key} ${error}`).toBe(status);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it("reached every route, and saw the statuses that matter", () => {
    const statusesOf = (key: string) => new Set((observed.get(key) ?? []).map((o) => o.status));
    for (const route of routes) {
      const statuses = statusesOf(route.key);
      // Past the credentials: every route answered something else than 401 at least once.
      expect([...statuses].filter((s) => s !== 401).length, route.key).toBeGreaterThan(0);
    }
    expect([...statusesOf("POST /v1/vault/accounts")]).toEqual(expect.arrayContaining([201, 400, 401, 403, 415]));
    expect([...statusesOf("POST /v1/signup")]).toEqual(expect.arrayContaining([201, 409]));
    expect([...statusesOf("POST /v1/signup/resend-verification")]).toContain(202);
    expect([...statusesOf("POST /v1/onboarding/kyc")]).toEqual(expect.arrayContaining([200, 201]));
    expect([...statusesOf("POST /v1/wallets/{walletId}/network-links")]).toEqual(expect.arrayContaining([200, 201, 404]));
    expect([...statusesOf("PUT /v1/vault/accounts/{vaultAccountId}")]).toEqual(expect.arrayContaining([200, 404, 409]));
    expect([...statusesOf("GET /v1/wallets/{walletId}/balance")]).toContain(503);
    const all = new Set(routes.flatMap((r) => [...statusesOf(r.key)]));
    expect([...all].sort()).toEqual(expect.arrayContaining([200, 201, 202, 400, 401, 403, 404, 409, 415, 503]));
  });
});
