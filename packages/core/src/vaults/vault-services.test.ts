import { listAggregateEvents } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import { listAuditEvents } from "../audit/list-audit-events";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { archiveVault } from "./archive-vault";
import { createVault } from "./create-vault";
import { getVault } from "./get-vault";
import { listVaults } from "./list-vaults";
import { updateVault } from "./update-vault";
import { VAULT_METADATA_LIMITS } from "./vault-metadata";

/** The services jobs will reuse, against a real database: the rules, without HTTP around them. */
describe("vault services", () => {
  const t = useTestDatabase();
  const clock = { at: Date.parse("2026-03-01T09:00:00.000Z"), now: () => new Date(clock.at) };
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: clock.now });
  });
  afterAll(() => deps.close());

  const actor = systemActor("vault-services-test");
  const newTenant = async () => (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) })).tenantId;
  /** The tenant's vault audit actions, oldest first (the fixture's own rows left out). */
  const auditActions = async (tenantId: string) =>
    (await listAuditEvents(t.db, { tenantId, limit: 200 })).events
      .map((e) => e.action)
      .filter((action) => action.startsWith("vault."))
      .reverse();

  it("creates an ACTIVE vault stamped by the service's clock, with its audit row", async () => {
    const tenantId = await newTenant();
    clock.at = Date.parse("2026-03-01T09:00:00.000Z");
    const vault = await createVault(deps, { tenantId, name: "Treasury", networkCode: "QUANTUM_MAINNET", metadata: { desk: "fx" }, actor });
    expect(vault).toEqual({
      id: expect.any(String),
      tenantId,
      networkCode: "QUANTUM_MAINNET",
      name: "Treasury",
      status: "ACTIVE",
      metadata: { desk: "fx" },
      createdAt: "2026-03-01T09:00:00.000Z",
      updatedAt: "2026-03-01T09:00:00.000Z",
    });
    expect(await getVault(deps, { tenantId, vaultId: vault.id })).toEqual(vault);
    const [created] = (await listAuditEvents(t.db, { tenantId, limit: 10, action: "vault.created" })).events;
    expect(created).toMatchObject({
      actorType: "system",
      actorId: "vault-services-test",
      targetType: "vault",
      targetId: vault.id,
      details: { name: "Treasury", networkCode: "QUANTUM_MAINNET" },
    });
  });

  it("enforces the metadata limits on create and update, writing nothing when refused", async () => {
    const tenantId = await newTenant();
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    const atLimit = await createVault(deps, {
      tenantId,
      name: "full",
      networkCode: "QUANTUM_SANDBOX",
      metadata: keys(VAULT_METADATA_LIMITS.maxKeys),
      actor,
    });
    expect(Object.keys(atLimit.metadata)).toHaveLength(50);
    const longKey = "k".repeat(41);
    const refusals: [Record<string, string>, string][] = [
      [keys(51), "metadata"],
      [{ [longKey]: "v" }, `metadata.${longKey}`],
      [{ note: "x".repeat(501) }, "metadata.note"],
      [{ "": "v" }, "metadata."],
      [{ count: 3 as unknown as string }, "metadata.count"],
    ];
    for (const [metadata, path] of refusals) {
      const refused = { error: "VALIDATION_FAILED", code: 1001, status: 400, details: { fields: [expect.objectContaining({ path })] } };
      await expect(createVault(deps, { tenantId, name: "bad", networkCode: "QUANTUM_SANDBOX", metadata, actor })).rejects.toMatchObject(
        refused,
      );
      await expect(updateVault(deps, { tenantId, vaultId: atLimit.id, metadata, actor })).rejects.toMatchObject(refused);
    }
    expect((await listVaults(deps, { tenantId, limit: 10 })).vaults.map((v) => v.id)).toEqual([atLimit.id]);
    expect((await getVault(deps, { tenantId, vaultId: atLimit.id })).metadata).toEqual(atLimit.metadata);
    expect(await auditActions(tenantId)).toEqual(["vault.created"]);
  });

  it("renames, replaces metadata as a whole, and stamps updatedAt with the clock", async () => {
    const tenantId = await newTenant();
    clock.at = Date.parse("2026-03-01T09:00:00.000Z");
    const vault = await createVault(deps, { tenantId, name: "Ops", networkCode: "QUANTUM_SANDBOX", metadata: { a: "1", b: "2" }, actor });
    clock.at = Date.parse("2026-03-01T10:30:00.000Z");
    const renamed = await updateVault(deps, { tenantId, vaultId: vault.id, name: "Operations", actor });
    expect(renamed).toMatchObject({
      name: "Operations",
      metadata: { a: "1", b: "2" },
      createdAt: vault.createdAt,
      updatedAt: "2026-03-01T10:30:00.000Z",
    });
    const replaced = await updateVault(deps, { tenantId, vaultId: vault.id, metadata: { c: "3" }, actor });
    expect(replaced).toMatchObject({ name: "Operations", metadata: { c: "3" } });
    await expect(updateVault(deps, { tenantId, vaultId: vault.id, actor })).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
      code: 1001,
    });
    const updates = (await listAuditEvents(t.db, { tenantId, limit: 10, action: "vault.updated" })).events.map((e) => e.details).reverse();
    expect(updates).toEqual([{ changed: ["name"] }, { changed: ["metadata"] }]);
  });

  it("archives once (idempotent, one audit row, one vault.archived event); an archived vault is read-only", async () => {
    const tenantId = await newTenant();
    const vault = await createVault(deps, { tenantId, name: "Cold", networkCode: "QUANTUM_SANDBOX", actor });
    clock.at = Date.parse("2026-03-02T08:00:00.000Z");
    const archived = await archiveVault(deps, { tenantId, vaultId: vault.id, actor });
    expect(archived).toMatchObject({ id: vault.id, status: "ARCHIVED", updatedAt: "2026-03-02T08:00:00.000Z" });
    clock.at = Date.parse("2026-03-03T08:00:00.000Z");
    expect(await archiveVault(deps, { tenantId, vaultId: vault.id, actor })).toEqual(archived);
    const events = await listAggregateEvents(t.db, { tenantId, aggregateType: "vault", aggregateId: vault.id });
    expect(events.map((e) => [e.type, e.sequence])).toEqual([["vault.archived", 1]]);
    expect(events[0]!.data).toEqual({ vault: archived });

    await expect(updateVault(deps, { tenantId, vaultId: vault.id, name: "Warm", actor })).rejects.toMatchObject({
      error: "VAULT_ARCHIVED",
      code: 1101,
      status: 409,
      details: { vaultId: vault.id },
    });
    expect(await getVault(deps, { tenantId, vaultId: vault.id })).toEqual(archived);
    expect(await auditActions(tenantId)).toEqual(["vault.created", "vault.archived"]);
    expect((await listVaults(deps, { tenantId, limit: 10, status: "ARCHIVED" })).vaults.map((v) => v.id)).toEqual([vault.id]);
    expect((await listVaults(deps, { tenantId, limit: 10, status: "ACTIVE" })).vaults).toEqual([]);
  });

  it("treats another tenant's vault as missing: 404 everywhere, nothing changed", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const vault = await createVault(deps, { tenantId: owner, name: "Mine", networkCode: "QUANTUM_SANDBOX", actor });
    const notFound = { error: "NOT_FOUND", code: 1030, status: 404 };
    await expect(getVault(deps, { tenantId: other, vaultId: vault.id })).rejects.toMatchObject(notFound);
    await expect(updateVault(deps, { tenantId: other, vaultId: vault.id, name: "Theirs", actor })).rejects.toMatchObject(notFound);
    await expect(archiveVault(deps, { tenantId: other, vaultId: vault.id, actor })).rejects.toMatchObject(notFound);
    expect((await listVaults(deps, { tenantId: other, limit: 10 })).vaults).toEqual([]);
    expect(await getVault(deps, { tenantId: owner, vaultId: vault.id })).toEqual(vault);
    expect(await auditActions(other)).toEqual([]);
  });

  it("pages a tenant's vaults newest first and filters by network", async () => {
    const tenantId = await newTenant();
    const ids: string[] = [];
    for (const networkCode of ["QUANTUM_SANDBOX", "QUANTUM_MAINNET", "QUANTUM_SANDBOX"] as const) {
      ids.push((await createVault(deps, { tenantId, name: networkCode, networkCode, actor })).id);
    }
    const first = await listVaults(deps, { tenantId, limit: 2 });
    expect(first.vaults.map((v) => v.id)).toEqual([ids[2], ids[1]]);
    expect(first.page.hasMore).toBe(true);
    const second = await listVaults(deps, { tenantId, limit: 2, cursor: first.page.nextCursor! });
    expect(second).toEqual({ vaults: [expect.objectContaining({ id: ids[0] })], page: { hasMore: false, nextCursor: null } });
    expect((await listVaults(deps, { tenantId, limit: 10, networkCode: "QUANTUM_MAINNET" })).vaults.map((v) => v.id)).toEqual([ids[1]]);
    await expect(listVaults(deps, { tenantId, limit: 10, cursor: "not-a-cursor" })).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "cursor" }] },
    });
  });
});
