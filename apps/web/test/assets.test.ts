import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, deployTestToken, expectError, NATIVE, type Client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

const NATIVE_SHAPE = { kind: "NATIVE", symbol: "Q", name: "Quantum", decimals: 18, contractAddress: null };

describe("assets over real HTTPS against a devnet", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 50 });
  let server: TestServer;
  let a: TenantFixture;
  let b: TenantFixture;
  let apiA: Client;
  let apiB: Client;

  beforeAll(async () => {
    server = await startTestServer({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    a = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    b = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    apiA = client(() => server, a.authorization);
    apiB = client(() => server, b.authorization);
  });
  afterAll(() => server?.close());

  it("lists the native asset of each network with its UUIDv5 id", async () => {
    const all = await apiA.get("/v1/assets");
    expect(all.status).toBe(200);
    expect(all.json().assets).toEqual(
      expect.arrayContaining([
        { id: NATIVE.QUANTUM_MAINNET, networkCode: "QUANTUM_MAINNET", ...NATIVE_SHAPE },
        { id: NATIVE.QUANTUM_SANDBOX, networkCode: "QUANTUM_SANDBOX", ...NATIVE_SHAPE },
      ]),
    );
    const sandbox = (await apiA.get("/v1/assets?networkCode=QUANTUM_SANDBOX")).json();
    expect(sandbox).toEqual({
      assets: [{ id: NATIVE.QUANTUM_SANDBOX, networkCode: "QUANTUM_SANDBOX", ...NATIVE_SHAPE }],
      page: { nextCursor: null, hasMore: false },
    });
    expectError(await apiA.get("/v1/assets?networkCode=ETHEREUM"), 400, "VALIDATION_FAILED", 1001);
  });

  it("adds an ERC-20 (admin) with symbol, name and decimals read from the contract; again is 200 with the same asset", async () => {
    const { token } = await deployTestToken(devnet(), { name: "Quantum Euro", symbol: "QEUR", decimals: 2 });
    const res = await apiA.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token.toUpperCase().replace("0X", "0x") });
    expect(res.status).toBe(201);
    const asset = res.json();
    expect(asset).toEqual({
      id: expect.any(String),
      networkCode: "QUANTUM_SANDBOX",
      kind: "TOKEN",
      symbol: "QEUR",
      name: "Quantum Euro",
      decimals: 2,
      contractAddress: token,
    });
    const again = await apiA.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token });
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(asset);

    const listed = (await apiA.get("/v1/assets?networkCode=QUANTUM_SANDBOX")).json().assets;
    expect(listed.map((x: { id: string }) => x.id).sort()).toEqual([asset.id, NATIVE.QUANTUM_SANDBOX].sort());
    // Tokens are the tenant's own.
    expect((await apiB.get("/v1/assets")).json().assets.map((x: { id: string }) => x.id)).not.toContain(asset.id);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, asset.id), eq(schema.auditEvents.action, "asset.created")));
    expect(audit).toHaveLength(1);
  });

  it("refuses an address without contract code with 400 UNKNOWN_ASSET naming it", async () => {
    const contractAddress = "0x00000000000000000000000000000000000c0de0";
    const res = await apiA.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress });
    expectError(res, 400, "UNKNOWN_ASSET", 1107);
    expect(res.json().message).toContain(contractAddress);
    expect(res.json().details).toEqual({ networkCode: "QUANTUM_SANDBOX", contractAddress });
    expectError(
      await apiA.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: "0x1234" }),
      400,
      "VALIDATION_FAILED",
      1001,
    );
  });

  it("answers 503 UNAVAILABLE naming the network when it has no reachable RPC", async () => {
    const res = await apiA.post("/v1/assets", {
      networkCode: "QUANTUM_MAINNET",
      contractAddress: "0x00000000000000000000000000000000000c0de0",
    });
    expectError(res, 503, "UNAVAILABLE", 1070);
    expect(res.json().message).toContain("QUANTUM_MAINNET");
  });

  it("needs admin to add and read to list", async () => {
    const writer = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, a, ["write"]);
    const api = client(() => server, writer.authorization);
    expectError(
      await api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: "0x00000000000000000000000000000000000c0de0" }),
      403,
      "INSUFFICIENT_SCOPE",
      1020,
    );
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, a, ["read"]);
    expect((await client(() => server, reader.authorization).get("/v1/assets")).status).toBe(200);
  });
});
