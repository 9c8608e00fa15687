import { createKeyFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { checksumAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, enrollKeys, expectError, NATIVE, newSignerKey, Q } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { trpcMutation } from "./identity-helpers";
import { fundedSource, nativeTransfer, type FundedSource } from "./transfers-front-helpers";

/**
 * Policies (GET|PUT /v1/policies, POST /v1/policies/evaluate) and the tenant's screening
 * denylist, over real HTTPS. The dry run reads the stored transfers for velocity windows; no
 * daemon runs, so transfers created here stay SUBMITTED (which counts: it has not failed).
 */
describe("transfer policies and the screening denylist", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let source: FundedSource;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    source = await fundedSource(() => server, t.db, undefined, 0n);
  });
  afterAll(() => server?.close());

  const evaluate = async (body: unknown) => {
    const res = await source.api.post("/v1/policies/evaluate", body);
    expect(res.status, res.text).toBe(200);
    return res.json();
  };

  it("starts with no policy (version 0: everything allowed) and versions every replacement", async () => {
    const initial = await source.api.get("/v1/policies");
    expect(initial.status).toBe(200);
    expect(initial.json()).toEqual({ version: 0, defaultAction: "ALLOW", rules: [], updatedAt: null, updatedBy: null });
    expect(await evaluate(nativeTransfer(source, 10n * Q))).toEqual({
      decision: "ALLOW",
      ruleId: null,
      ruleName: null,
      policyVersion: null,
      reason: "no policy is set: transfers are allowed",
    });

    const destination = newSignerKey().address;
    const v1 = await source.api.put("/v1/policies", {
      defaultAction: "BLOCK",
      rules: [{ id: "known", name: "Known destination", action: "ALLOW", match: { destinationAddresses: [checksumAddress(destination)] } }],
    });
    expect(v1.status, v1.text).toBe(200);
    expect(v1.json()).toMatchObject({
      version: 1,
      defaultAction: "BLOCK",
      // Stored canonical, whatever case it was sent in.
      rules: [{ id: "known", name: "Known destination", action: "ALLOW", match: { destinationAddresses: [destination] } }],
      updatedBy: source.tenant.keyId,
    });
    expect((await source.api.get("/v1/policies")).json()).toEqual(v1.json());
    const v2 = await source.api.put("/v1/policies", { defaultAction: "ALLOW", rules: [] });
    expect(v2.json()).toMatchObject({ version: 2, defaultAction: "ALLOW", rules: [] });
    const versions = await t.db.select().from(schema.policies).where(eq(schema.policies.tenantId, source.tenant.tenantId));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, source.tenant.tenantId), eq(schema.auditEvents.action, "policy.replaced")));
    expect(audit.map((a) => a.details)).toEqual([
      { previousVersion: 0, version: 1, defaultAction: "BLOCK", rules: 1 },
      { previousVersion: 1, version: 2, defaultAction: "ALLOW", rules: 0 },
    ]);
  });

  it("refuses invalid policies with field errors, keeping the current version", async () => {
    const rule = { id: "r1", name: "Rule", action: "BLOCK", match: {} };
    const invalid: unknown[] = [
      { defaultAction: "MAYBE", rules: [] },
      { defaultAction: "ALLOW" },
      { defaultAction: "ALLOW", rules: [rule, { ...rule, name: "again" }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, match: { destinationAddresses: ["0x1234"] } }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, match: { amountAbove: 1000 } }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, match: { networkCodes: ["QUANTUM_TESTNET"] } }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, match: { walletIds: [source.wallet.id] } }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, velocity: { amount: "10", windowSeconds: 0, scope: "WALLET" } }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, velocity: { amount: "10", windowSeconds: 60, scope: "PLANET" } }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, id: "has space" }] },
      { defaultAction: "ALLOW", rules: [{ ...rule, name: "bad\u0000name" }] },
    ];
    for (const body of invalid) expectError(await source.api.put("/v1/policies", body), 400, "VALIDATION_FAILED", 1001);
    const duplicate = await source.api.put("/v1/policies", invalid[2]);
    expect(duplicate.json().details.fields).toContainEqual({ path: "rules.1.id", message: 'duplicate rule id "r1"' });
    expect((await source.api.get("/v1/policies")).json().version).toBe(2);
  });

  it("evaluates rules in order, first match wins, on every match field", async () => {
    const other = await fundedSource(() => server, t.db, undefined, 0n, { tenant: source.tenant });
    const blocked = newSignerKey().address;
    const res = await source.api.put("/v1/policies", {
      defaultAction: "ALLOW",
      rules: [
        { id: "vip", name: "VIP destination", action: "ALLOW", match: { destinationAddresses: [blocked], amountAbove: "100" } },
        { id: "deny-dest", name: "Denied destination", action: "BLOCK", match: { destinationAddresses: [blocked] } },
        {
          id: "big",
          name: "Big transfers",
          action: "BLOCK",
          match: { networkCodes: ["QUANTUM_SANDBOX"], assetIds: [NATIVE.QUANTUM_SANDBOX], amountAbove: (50n * Q).toString() },
        },
        { id: "other-wallet", name: "Other wallet", action: "BLOCK", match: { sourceWalletIds: [other.wallet.id] } },
        {
          id: "vault",
          name: "First vault",
          action: "BLOCK",
          match: { sourceVaultIds: [source.vault.id], amountAbove: (20n * Q).toString() },
        },
        { id: "mainnet", name: "Mainnet", action: "BLOCK", match: { networkCodes: ["QUANTUM_MAINNET"] } },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const version = res.json().version;
    // The first matching rule decides, even when a later one would block.
    expect(await evaluate(nativeTransfer(source, 101n, { destinationAddress: blocked }))).toMatchObject({
      decision: "ALLOW",
      ruleId: "vip",
      policyVersion: version,
    });
    expect(await evaluate(nativeTransfer(source, 100n, { destinationAddress: checksumAddress(blocked) }))).toMatchObject({
      decision: "BLOCK",
      ruleId: "deny-dest",
      ruleName: "Denied destination",
      reason: 'blocked by policy rule "Denied destination" (deny-dest)',
    });
    // amountAbove is strict.
    expect(await evaluate(nativeTransfer(source, 20n * Q))).toMatchObject({ decision: "ALLOW", ruleId: null });
    expect(await evaluate(nativeTransfer(source, 50n * Q + 1n))).toMatchObject({ decision: "BLOCK", ruleId: "big" });
    expect(await evaluate(nativeTransfer(other, 1n))).toMatchObject({ decision: "BLOCK", ruleId: "other-wallet" });
    expect(await evaluate(nativeTransfer(source, 20n * Q + 1n))).toMatchObject({ decision: "BLOCK", ruleId: "vault" });
    expect(await evaluate(nativeTransfer(other, 1n, { networkCode: "QUANTUM_SANDBOX" }))).toMatchObject({ ruleId: "other-wallet" });
    expect(await evaluate(nativeTransfer(source, 1n))).toEqual({
      decision: "ALLOW",
      ruleId: null,
      ruleName: null,
      policyVersion: version,
      reason: "allowed by the policy's default action (no rule matched)",
    });
    // The dry run validates the body as create does, and writes nothing.
    expectError(
      await source.api.post("/v1/policies/evaluate", nativeTransfer(source, 1n, { destinationAddress: "0x12" })),
      400,
      "INVALID_ADDRESS",
      1204,
    );
    expectError(
      await source.api.post(
        "/v1/policies/evaluate",
        nativeTransfer(source, 1n, { sourceWalletId: "0194f2c4-0000-7000-8000-00000000000b" }),
      ),
      404,
      "NOT_FOUND",
      1030,
    );
    expectError(
      await source.api.post("/v1/policies/evaluate", { ...nativeTransfer(source, 1n), amount: 1 }),
      400,
      "VALIDATION_FAILED",
      1001,
    );
    expect(await t.db.select().from(schema.transactions).where(eq(schema.transactions.tenantId, source.tenant.tenantId))).toEqual([]);
  });

  it("sums velocity windows in SQL over the scope's transfers that did not end without moving value", async () => {
    const a = await fundedSource(() => server, t.db, undefined, 0n);
    // A second wallet in a's vault (the VAULT scope sums both) and one in another vault of the tenant.
    await enrollKeys(a.api, a.tenant.tenantId, 1);
    const sibling = await a.api.post(`/v1/vault/accounts/${a.vault.id}/wallets/generate`, {});
    expect(sibling.status, sibling.text).toBe(201);
    const a2 = { wallet: sibling.json() };
    const b = await fundedSource(() => server, t.db, undefined, 0n, { tenant: a.tenant });
    const policy = (scope: string, amount: bigint) => ({
      defaultAction: "ALLOW",
      rules: [
        {
          id: "velocity",
          name: "Velocity",
          action: "BLOCK",
          match: { assetIds: [NATIVE.QUANTUM_SANDBOX] },
          velocity: { amount: amount.toString(), windowSeconds: 3600, scope },
        },
      ],
    });
    const dry = async (body: unknown) => {
      const res = await a.api.post("/v1/policies/evaluate", body);
      expect(res.status, res.text).toBe(200);
      return res.json();
    };
    expect((await a.api.put("/v1/policies", policy("WALLET", 5n * Q))).status).toBe(200);
    const created: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await a.api.createTransfer(nativeTransfer(a, 2n * Q));
      expect(res.status).toBe(201);
      created.push(res.json().id);
    }
    // 2 + 2 stored, + 1 evaluated = 5: not above 5.
    expect(await dry(nativeTransfer(a, Q))).toMatchObject({ decision: "ALLOW", ruleId: null });
    expect(await dry(nativeTransfer(a, Q + 1n))).toMatchObject({
      decision: "BLOCK",
      ruleId: "velocity",
      velocitySum: (5n * Q + 1n).toString(),
      reason: `blocked by policy rule "Velocity" (velocity): ${5n * Q + 1n} moved by the wallet in the last 3600 s (this transfer included) is above the limit of ${5n * Q}`,
    });
    // Other wallets of the tenant are other WALLET windows…
    expect(await dry(nativeTransfer(a2, 5n * Q))).toMatchObject({ decision: "ALLOW" });
    expect(await dry(nativeTransfer(b, 5n * Q))).toMatchObject({ decision: "ALLOW" });
    // …but the same TENANT window.
    expect((await a.api.put("/v1/policies", policy("TENANT", 5n * Q))).status).toBe(200);
    expect(await dry(nativeTransfer(b, Q + 1n))).toMatchObject({ decision: "BLOCK", velocitySum: (5n * Q + 1n).toString() });
    // VAULT: a2 shares a's vault, b has its own.
    expect((await a.api.put("/v1/policies", policy("VAULT", 5n * Q))).status).toBe(200);
    expect(await dry(nativeTransfer(a2, Q + 1n))).toMatchObject({ decision: "BLOCK" });
    expect(await dry(nativeTransfer(b, 5n * Q))).toMatchObject({ decision: "ALLOW" });
    // A cancelled transfer no longer counts.
    expect((await a.api.post(`/v1/transactions/${created[0]}/cancel`)).status).toBe(200);
    expect(await dry(nativeTransfer(a, 3n * Q))).toMatchObject({ decision: "ALLOW" });
    expect(await dry(nativeTransfer(a, 3n * Q + 1n))).toMatchObject({ decision: "BLOCK" });
    // Other tenants' transfers never count.
    expect((await source.api.put("/v1/policies", policy("TENANT", 5n * Q))).status).toBe(200);
    expect(await evaluate(nativeTransfer(source, 5n * Q))).toMatchObject({ decision: "ALLOW" });
  });

  it("needs admin to see a policy, replace it or dry-run it", async () => {
    const writer = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, source.tenant, ["write"]);
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, source.tenant, ["read"]);
    expectError(
      await client(() => server, writer.authorization).put("/v1/policies", { defaultAction: "BLOCK", rules: [] }),
      403,
      "INSUFFICIENT_SCOPE",
      1020,
    );
    expectError(
      await client(() => server, writer.authorization).post("/v1/policies/evaluate", nativeTransfer(source, 1n)),
      403,
      "INSUFFICIENT_SCOPE",
      1020,
    );
    expectError(
      await client(() => server, reader.authorization).put("/v1/settings/screening-denylist", { entries: [] }),
      403,
      "INSUFFICIENT_SCOPE",
      1020,
    );
    // The rules name the whitelisted destinations and the velocity thresholds (review L6).
    expectError(await client(() => server, reader.authorization).get("/v1/policies"), 403, "INSUFFICIENT_SCOPE", 1020);
    expectError(await client(() => server, writer.authorization).get("/v1/policies"), 403, "INSUFFICIENT_SCOPE", 1020);
    expectError(await client(() => server, reader.authorization).get("/v1/settings/screening-denylist"), 403, "INSUFFICIENT_SCOPE", 1020);
    // tRPC: the same procedures.
    const viaTrpc = await call(server, `/api/trpc/policies.get`, { headers: { authorization: source.tenant.authorization } });
    expect(viaTrpc.json().result.data.json).toEqual((await source.api.get("/v1/policies")).json());
    const replaced = await trpcMutation(
      server,
      "policies.replace",
      { defaultAction: "ALLOW", rules: [] },
      { authorization: source.tenant.authorization },
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json().result.data.json.version).toBe((await source.api.get("/v1/policies")).json().version);
  });

  it("keeps the tenant's screening denylist: canonical addresses, duplicates refused, audited", async () => {
    expect((await source.api.get("/v1/settings/screening-denylist")).json()).toEqual({ entries: [] });
    const a = newSignerKey().address;
    const b = newSignerKey().address;
    const put = await source.api.put("/v1/settings/screening-denylist", {
      entries: [{ address: checksumAddress(a), label: "mixer" }, { address: b.slice(2).toUpperCase() }],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json()).toEqual({
      entries: [
        { address: a, label: "mixer" },
        { address: b, label: "" },
      ],
    });
    expect((await source.api.get("/v1/settings/screening-denylist")).json()).toEqual(put.json());
    const dup = await source.api.put("/v1/settings/screening-denylist", {
      entries: [{ address: a }, { address: a.toUpperCase().replace("0X", "0x") }],
    });
    expectError(dup, 400, "VALIDATION_FAILED", 1001);
    expect(dup.json().details.fields).toEqual([{ path: "entries.1.address", message: "duplicate entry" }]);
    expectError(
      await source.api.put("/v1/settings/screening-denylist", { entries: [{ address: "0x12" }] }),
      400,
      "VALIDATION_FAILED",
      1001,
    );
    expect((await source.api.put("/v1/settings/screening-denylist", { entries: [{ address: b }] })).status).toBe(200);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(eq(schema.auditEvents.tenantId, source.tenant.tenantId), eq(schema.auditEvents.action, "settings.screening_denylist_replaced")),
      );
    expect(audit.map((x) => x.details)).toEqual([
      { added: [a, b], removed: [], count: 2 },
      { added: [], removed: [a], count: 1 },
    ]);
    // Another tenant's list is its own.
    const other = await fundedSource(() => server, t.db, undefined, 0n);
    expect((await other.api.get("/v1/settings/screening-denylist")).json()).toEqual({ entries: [] });
  });
});
