import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { auditCheckpointDigest, checkpointAuditChain, rotateAuditKey, serviceConfig } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";

interface ListedEvent {
  id: string;
  action: string;
  sequence: number;
  prevHash: string;
  hash: string;
}

const bytes = (hex: string) => hexToBytes(hex.replace(/^0x/, ""));

describe("GET /v1/audit/public-key and the chain fields of GET /v1/audit-events (CONTRACT §19)", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  // The test server's configuration: its secret box opens the audit key (the process's test key).
  const deps = () => ({ db: t.db, config: serviceConfig(), now: () => new Date() });

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
  });
  afterAll(() => server?.close());

  const get = (path: string, authorization = tenant.authorization) => call(server, path, { headers: { authorization } });
  const createVault = async (name: string) => {
    const res = await call(server, "/v1/vault/accounts", {
      method: "POST",
      headers: { authorization: tenant.authorization, "content-type": "application/json", "x-idempotency-key": `vault-${name}` },
      body: JSON.stringify({ name, networkCode: "QUANTUM_SANDBOX" }),
    });
    expect(res.status, res.text).toBe(201);
  };

  it("lists every record chained: gapless sequences, each prevHash the hash before, across pages", async () => {
    for (const name of ["Treasury", "Payroll", "Reserve", "Ops"]) await createVault(name);
    const seen: ListedEvent[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/v1/audit-events?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      const body = res.json() as { events: ListedEvent[]; page: { nextCursor: string | null } };
      seen.push(...body.events);
      cursor = body.page.nextCursor;
    } while (cursor);
    expect(seen.filter((e) => e.action === "vault.created")).toHaveLength(4);
    const chain = [...seen].reverse(); // newest first → chain order
    expect(chain.map((e) => e.sequence)).toEqual(chain.map((_, i) => i + 1));
    expect(chain[0]!.prevHash).toBe("0".repeat(64));
    for (let i = 1; i < chain.length; i += 1) expect(chain[i]!.prevHash).toBe(chain[i - 1]!.hash);
    for (const e of chain) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("publishes the key to any authenticated principal; a checkpoint verifies with it, a forged one does not", async () => {
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]);
    const res = await get("/v1/audit/public-key", reader.authorization);
    expect(res.status, res.text).toBe(200);
    const key = res.json() as { publicKey: string; keyId: string };
    expect(Object.keys(key).sort()).toEqual(["keyId", "publicKey"]);
    expect(key.keyId).toMatch(/^qcak_[0-9a-f]{16}$/);
    expect(key.publicKey).toMatch(/^0x[0-9a-f]{5184}$/);
    expect((await get("/v1/audit/public-key", "Bearer qc_nope:nope")).status).toBe(401);

    await createVault("Signed");
    const checkpoint = (await checkpointAuditChain(deps(), tenant.tenantId))!;
    expect(checkpoint.keyId).toBe(key.keyId);
    const context = utf8ToBytes("QUANTUM-AUDIT-v1");
    expect(ml_dsa87.verify(bytes(checkpoint.signature), auditCheckpointDigest(checkpoint), bytes(key.publicKey), { context })).toBe(true);
    const forged = { ...checkpoint, hash: checkpoint.hash.replace(/^./, (c) => (c === "0" ? "1" : "0")) };
    expect(ml_dsa87.verify(bytes(checkpoint.signature), auditCheckpointDigest(forged), bytes(key.publicKey), { context })).toBe(false);
  });

  it("after a rotation serves the new key, the retired one by ?keyId= (its checkpoints still verify), 404 for an unknown id", async () => {
    const before = (await checkpointAuditChain(deps(), tenant.tenantId))!;
    const rotated = await rotateAuditKey(deps());
    expect(rotated.retiredKeyId).toBe(before.keyId);
    const active = (await get("/v1/audit/public-key")).json() as { publicKey: string; keyId: string };
    expect(active).toEqual({ publicKey: rotated.publicKey, keyId: rotated.keyId });

    const old = await get(`/v1/audit/public-key?keyId=${before.keyId}`);
    expect(old.status, old.text).toBe(200);
    const retired = old.json() as { publicKey: string; keyId: string };
    expect(retired.keyId).toBe(before.keyId);
    const context = utf8ToBytes("QUANTUM-AUDIT-v1");
    const digest = auditCheckpointDigest(before);
    expect(ml_dsa87.verify(bytes(before.signature), digest, bytes(retired.publicKey), { context })).toBe(true);
    expect(ml_dsa87.verify(bytes(before.signature), digest, bytes(active.publicKey), { context })).toBe(false);

    await createVault("After rotation");
    const after = (await checkpointAuditChain(deps(), tenant.tenantId))!;
    expect(after.keyId).toBe(rotated.keyId);

    const unknown = await get("/v1/audit/public-key?keyId=qcak_0000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "NOT_FOUND" });
    expect((await get("/v1/audit/public-key?keyId=not-a-key-id")).status).toBe(400);
  });
});
