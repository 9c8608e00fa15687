import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter, createRouter, publicProcedure } from "@qc/api";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";

// A boolean in a query or a body is a boolean (issue 29 item 8): query and path strings are
// converted to the declared type by the REST dispatcher before the route's own schema validates
// them; a JSON body keeps its JSON types; and no shared schema is changed on the way, so the tRPC
// procedures stay as strict as they are declared.

const json = (authorization: string) => ({ authorization, "content-type": "application/json" });

function refusedFields(res: TestResponse): string[] {
  expect(res.status, res.text).toBe(400);
  expect(res.json(), res.text).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
  return (res.json<{ details?: { fields?: { path: string }[] } }>().details?.fields ?? []).map((f) => f.path);
}

/** A route with a boolean, a number and a bigint in its query, answering what it parsed. */
const probeRouter = createRouter({
  probe: publicProcedure
    .meta({ openapi: { method: "GET", path: "/v1/test/probe", tags: ["test"], summary: "Echo the parsed query" } })
    .input(
      z.object({
        flag: z.boolean(),
        count: z.number().int().optional(),
        big: z.bigint().optional(),
        flags: z.array(z.boolean()).optional(),
      }),
    )
    .output(
      z.object({
        flag: z.boolean(),
        flagType: z.string(),
        count: z.number().nullable(),
        big: z.string().nullable(),
        flags: z.array(z.boolean()).nullable(),
      }),
    )
    .query(({ input }) => ({
      flag: input.flag,
      flagType: typeof input.flag,
      count: input.count ?? null,
      big: input.big?.toString() ?? null,
      flags: input.flags ?? null,
    })),
});

describe("REST input types", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
  });
  afterAll(() => server?.close());

  const allowlist = async () => {
    const res = await call(server, "/v1/settings/ip-allowlist", { headers: { authorization: tenant.authorization } });
    expect(res.status, res.text).toBe(200);
    return res.json<{ entries: { cidr: string }[] }>().entries.map((e) => e.cidr);
  };
  const putAllowlist = (body: string) =>
    call(server, "/v1/settings/ip-allowlist", { method: "PUT", headers: json(tenant.authorization), body });

  it('refuses a body\'s string "false" where a boolean is declared, and leaves the list as it was', async () => {
    const set = await putAllowlist(JSON.stringify({ entries: [{ cidr: "127.0.0.1/32", label: "the test client" }] }));
    expect(set.status, set.text).toBe(200);
    expect(await allowlist()).toEqual(["127.0.0.1/32"]);

    // The reported case: a list that shuts the caller out, with the flag as the string "false".
    // Coerced, `"false"` became `true` and the caller locked itself out with a 200.
    for (const flag of ['"false"', '"true"', "0", "1", "null", '""']) {
      const res = await putAllowlist(`{"entries":[{"cidr":"203.0.113.0/24"}],"allowSelfLockout":${flag}}`);
      expect(refusedFields(res), flag).toContain("allowSelfLockout");
    }
    expect(await allowlist()).toEqual(["127.0.0.1/32"]);

    // A JSON boolean is honoured both ways: false protects the caller, true is the explicit choice.
    const guarded = await putAllowlist(JSON.stringify({ entries: [{ cidr: "203.0.113.0/24" }], allowSelfLockout: false }));
    expect(guarded.status, guarded.text).toBe(409);
    expect(guarded.json()).toMatchObject({ error: "CONFLICT" });
    expect(await allowlist()).toEqual(["127.0.0.1/32"]);
    const cleared = await putAllowlist(JSON.stringify({ entries: [], allowSelfLockout: true }));
    expect(cleared.status, cleared.text).toBe(200);
    expect(await allowlist()).toEqual([]);
  });

  it("refuses a body's string where a number is declared (no coercion of JSON bodies)", async () => {
    const res = await call(server, "/v1/credentials/rotate", {
      method: "POST",
      headers: { ...json(tenant.authorization), "x-idempotency-key": `rotate-${Date.now()}` },
      body: JSON.stringify({ gracePeriodMinutes: "60" }),
    });
    expect(refusedFields(res)).toContain("gracePeriodMinutes");
  });

  it("converts a query's number and refuses what is not one", async () => {
    for (const name of ["Input types A", "Input types B"]) {
      const created = await call(server, "/v1/vault/accounts", {
        method: "POST",
        headers: json(tenant.authorization),
        body: JSON.stringify({ name, networkCode: "QUANTUM_SANDBOX" }),
      });
      expect(created.status, created.text).toBe(201);
    }
    const one = await call(server, "/v1/vault/accounts?limit=1", { headers: { authorization: tenant.authorization } });
    expect(one.status, one.text).toBe(200);
    expect(one.json().vaults).toHaveLength(1);
    expect(one.json().page.hasMore).toBe(true);
    for (const limit of ["abc", "", "0x2", "1,2", "true"]) {
      const res = await call(server, `/v1/vault/accounts?limit=${encodeURIComponent(limit)}`, {
        headers: { authorization: tenant.authorization },
      });
      expect(refusedFields(res), limit).toContain("limit");
    }
  });

  it("keeps the tRPC procedures strict after the REST table is built over the same router", async () => {
    // The REST handler over appRouter exists (startTestServer built it). Had it switched coercion
    // on in the shared schemas, these string inputs would pass.
    const trpc = (procedure: string, input: unknown, method: "GET" | "POST") =>
      method === "POST"
        ? call(server, `/api/trpc/${procedure}`, { method, headers: json(tenant.authorization), body: JSON.stringify({ json: input }) })
        : call(server, `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, {
            headers: { authorization: tenant.authorization },
          });
    const lockout = await trpc("settings.replaceIpAllowlist", { entries: [{ cidr: "203.0.113.0/24" }], allowSelfLockout: "false" }, "POST");
    expect(lockout.status, lockout.text).toBe(400);
    expect(lockout.json().error.json).toMatchObject({ error: "VALIDATION_FAILED" });
    expect(await allowlist()).toEqual([]);
    const list = await trpc("vaults.list", { limit: "1" }, "GET");
    expect(list.status, list.text).toBe(400);
    expect(list.json().error.json).toMatchObject({ error: "VALIDATION_FAILED" });

    // And the schema objects themselves: parsing a string still fails after the table was built.
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: z.ZodType[] } }>;
    expect(procedures["settings.replaceIpAllowlist"]!._def.inputs[0]!.safeParse({ entries: [], allowSelfLockout: "false" }).success).toBe(
      false,
    );
    expect(procedures["vaults.list"]!._def.inputs[0]!.safeParse({ limit: "1" }).success).toBe(false);
  });

  describe("a boolean in the query string", () => {
    let probe: TestServer;
    beforeAll(async () => {
      probe = await startTestServer({ database: t, router: probeRouter });
    });
    afterAll(() => probe?.close());

    it("is true for `true`, false for `false`, and refused otherwise", async () => {
      const get = (query: string) => call(probe, `/v1/test/probe?${query}`);
      expect((await get("flag=false")).json()).toMatchObject({ flag: false, flagType: "boolean" });
      expect((await get("flag=true")).json()).toMatchObject({ flag: true, flagType: "boolean" });
      expect((await get("flag=false&count=7&big=12345678901234567890")).json()).toEqual({
        flag: false,
        flagType: "boolean",
        count: 7,
        big: "12345678901234567890",
        flags: null,
      });
      expect((await get("flag=true&flags=false&flags=true")).json()).toMatchObject({ flags: [false, true] });
      expect((await get("flag=true&flags=false")).json()).toMatchObject({ flags: [false] });
      for (const flag of ["False", "TRUE", "0", "1", "yes", "", "on"]) {
        expect(refusedFields(await get(`flag=${flag}`)), flag).toContain("flag");
      }
      expect(refusedFields(await get(""))).toContain("flag");
      expect(refusedFields(await get("flag=true&count=1.5"))).toContain("count");
      expect(refusedFields(await get("flag=true&count=seven"))).toContain("count");
      expect(refusedFields(await get("flag=true&big=1.5"))).toContain("big");
      expect(refusedFields(await get("flag=true&flags=true&flags=no"))).toContain("flags.1");
    });
  });
});
