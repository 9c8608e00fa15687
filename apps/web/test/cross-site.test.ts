import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "@qc/core";
import { createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";

// A state change authenticated by the session cookie must come from the dashboard itself
// (Origin / Sec-Fetch-Site), on tRPC and REST alike, body or no body; API keys are unaffected.

const PUBLIC_URL = "https://custody.example:8443";

function expectCrossSiteRefusal(res: TestResponse): void {
  expect(res.status, res.text).toBe(403);
  expect(res.json()).toMatchObject({ error: "CROSS_SITE_REQUEST", code: 1025, requestId: res.headers["x-request-id"] });
}

describe("cookie-authenticated state changes need this site's Origin", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer({ database: t, publicUrl: PUBLIC_URL });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    cookie = `${SESSION_COOKIE}=${(await createSessionFixture({ db: t.db }, tenant)).token}`;
  });
  afterAll(() => server?.close());

  const createVault = async () => {
    const res = await call(server, "/v1/vault/accounts", {
      method: "POST",
      headers: { authorization: tenant.authorization, "content-type": "application/json" },
      body: JSON.stringify({ name: "CSRF target", networkCode: "QUANTUM_SANDBOX" }),
    });
    expect(res.status, res.text).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const vaultStatus = async (id: string) =>
    (await call(server, `/v1/vault/accounts/${id}`, { headers: { authorization: tenant.authorization } })).json<{
      archived?: boolean;
      status?: string;
    }>();
  const trpcCreateKey = (headers: Record<string, string>) =>
    call(server, "/api/trpc/credentials.create", {
      method: "POST",
      headers: { cookie, "content-type": "application/json", ...headers },
      body: JSON.stringify({ json: { label: "csrf", scopes: ["read"] } }),
    });

  it("refuses a body-less REST POST (archive) from another site, and archives nothing", async () => {
    const id = await createVault();
    const before = await vaultStatus(id);
    const attempts: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "https://sub.custody.example:8443" },
      { "sec-fetch-site": "same-site", origin: PUBLIC_URL },
      { "sec-fetch-site": "cross-site" },
      { origin: "null" },
    ];
    for (const headers of attempts) {
      expectCrossSiteRefusal(await call(server, `/v1/vault/accounts/${id}/archive`, { method: "POST", headers: { cookie, ...headers } }));
    }
    expect(await vaultStatus(id)).toEqual(before);
    // A command-line client holding the cookie (neither header: no browser sent it) is no forgery.
    const other = await createVault();
    const cli = await call(server, `/v1/vault/accounts/${other}/archive`, { method: "POST", headers: { cookie } });
    expect(cli.status, cli.text).toBe(200);
    // From the dashboard's own origin it goes through.
    const ok = await call(server, `/v1/vault/accounts/${id}/archive`, {
      method: "POST",
      headers: { cookie, origin: PUBLIC_URL, "sec-fetch-site": "same-origin" },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it("refuses a tRPC mutation from another site; the dashboard's own request passes", async () => {
    expectCrossSiteRefusal(await trpcCreateKey({ origin: "https://evil.example" }));
    expectCrossSiteRefusal(await trpcCreateKey({ origin: "https://evil.example", "sec-fetch-site": "cross-site" }));
    expectCrossSiteRefusal(await trpcCreateKey({ "sec-fetch-site": "same-site" }));
    expect((await trpcCreateKey({ origin: PUBLIC_URL })).status).toBe(200);
    // A browser that leaves Origin out of a same-origin request still says so in Sec-Fetch-Site.
    expect((await trpcCreateKey({ "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  it("lets reads through and leaves API keys alone", async () => {
    const read = await call(server, "/v1/vault/accounts", {
      headers: { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(read.status).toBe(200);
    const id = await createVault();
    const viaKey = await call(server, `/v1/vault/accounts/${id}/archive`, {
      method: "POST",
      headers: { authorization: tenant.authorization, cookie: "theme=dark" },
    });
    expect(viaKey.status, viaKey.text).toBe(200);
  });

  it("without PUBLIC_URL, takes the origin the client addressed", async () => {
    const bare = await startTestServer({ database: t });
    try {
      const host = `localhost:${bare.httpsPort}`;
      const create = (origin: string) =>
        call(bare, "/api/trpc/credentials.create", {
          method: "POST",
          headers: { host, origin, cookie, "content-type": "application/json" },
          body: JSON.stringify({ json: { label: "bare" } }),
        });
      expectCrossSiteRefusal(await create("https://evil.example"));
      expect((await create(`https://${host}`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
