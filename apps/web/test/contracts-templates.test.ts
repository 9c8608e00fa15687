import { CONTRACT_TEMPLATES } from "@qc/chain/contracts";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectError } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";

describe("GET /v1/contracts/templates", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    // Listing is not value-moving: a tenant still in verification may read the catalog.
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER }, { status: "PENDING_VERIFICATION" });
  });
  afterAll(() => server?.close());

  it("lists every audited template with its pinned bytecode hash and ABI constructor inputs, to a read-scoped key", async () => {
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]);
    const res = await client(() => server, reader.authorization).get("/v1/contracts/templates");
    expect(res.status, res.text).toBe(200);
    const body = res.json() as { templates: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(["templates"]);
    expect(body.templates.map((template) => template.id)).toEqual(["erc20-fixed-supply", "erc20-mint-burn", "timelock-vault"]);
    for (const listed of body.templates) {
      const template = CONTRACT_TEMPLATES.find((c) => c.id === listed.id)!;
      expect(listed).toEqual({
        id: template.id,
        name: template.name,
        version: template.version,
        description: template.description,
        kind: template.kind,
        bytecodeHash: template.bytecodeHash,
        constructorInputs: template.constructorInputs.map(({ name, type, description }) => ({ name, type, description })),
      });
    }
    expect(body.templates.map((template) => template.kind)).toEqual(["TOKEN", "TOKEN", "OTHER"]);
    expect((body.templates[0]!.constructorInputs as { name: string; type: string }[]).map((i) => `${i.type} ${i.name}`)).toEqual([
      "string tokenName",
      "string tokenSymbol",
      "uint8 tokenDecimals",
      "uint256 initialSupply",
      "address initialHolder",
    ]);
  });

  it("the same catalog over tRPC (contracts.listTemplates)", async () => {
    const res = await call(server, "/api/trpc/contracts.listTemplates", { headers: { authorization: tenant.authorization } });
    expect(res.status, res.text).toBe(200);
    const templates = (res.json() as { result: { data: { json: { templates: { id: string; bytecodeHash: string }[] } } } }).result.data.json
      .templates;
    expect(templates.map((template) => [template.id, template.bytecodeHash])).toEqual(
      CONTRACT_TEMPLATES.map((template) => [template.id, template.bytecodeHash]),
    );
  });

  it("needs credentials", async () => {
    expectError(await call(server, "/v1/contracts/templates"), 401, "UNAUTHENTICATED", 1010);
  });
});
