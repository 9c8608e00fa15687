import { schema, eq, and } from "@qc/db";
import { updateWhereStatus } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createVault } from "../vaults/create-vault";
import { toVaultRecord } from "../vaults/vault-record";
import { jobRequest, runTransition } from "./run-transition";

describe("runTransition", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
  });
  afterAll(() => deps.close());

  const newVault = async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 3) });
    const vault = await createVault(deps, {
      tenantId: tenant.tenantId,
      name: "v",
      networkCode: "QUANTUM_SANDBOX",
      actor: systemActor("test"),
    });
    return { tenantId: tenant.tenantId, vaultId: vault.id };
  };
  const archive = (key: { tenantId: string; vaultId: string }, options: { failAfterMove?: boolean; twoEvents?: boolean } = {}) =>
    runTransition(deps, {
      tenantId: key.tenantId,
      move: (tx) =>
        updateWhereStatus(tx, schema.vaults, { id: key.vaultId, tenantId: key.tenantId }, ["ACTIVE"], {
          status: "ARCHIVED",
          archivedAt: new Date(),
        }),
      audit: (row) => ({ actor: systemActor("test"), action: "vault.archived", target: { type: "vault", id: row.id } }),
      events: (row) =>
        Array.from({ length: options.twoEvents ? 2 : 1 }, () => ({
          tenantId: key.tenantId,
          type: "vault.archived" as const,
          aggregateId: row.id,
          data: { vault: toVaultRecord(row) },
        })),
      jobs: () => [jobRequest("maintenance.prune-heartbeats", { olderThanHours: 1 })],
      also: async () => {
        if (options.failAfterMove) throw new Error("boom after the move");
      },
    });
  const sideEffects = async (key: { tenantId: string; vaultId: string }) => ({
    audit: (
      await t.db
        .select()
        .from(schema.auditEvents)
        .where(and(eq(schema.auditEvents.tenantId, key.tenantId), eq(schema.auditEvents.action, "vault.archived")))
    ).length,
    events: (
      await t.db
        .select()
        .from(schema.eventOutbox)
        .where(and(eq(schema.eventOutbox.aggregateId, key.vaultId), eq(schema.eventOutbox.type, "vault.archived")))
    ).length,
    status: (await t.db.select().from(schema.vaults).where(eq(schema.vaults.id, key.vaultId)))[0]!.status,
  });

  it("moves once: the second caller is told someone else moved it and writes nothing", async () => {
    const key = await newVault();
    const first = await archive(key);
    expect(first).toMatchObject({ moved: true, row: { id: key.vaultId, status: "ARCHIVED" }, events: [{ sequence: 1 }] });
    expect(await archive(key)).toEqual({ moved: false });
    expect(await sideEffects(key)).toEqual({ audit: 1, events: 1, status: "ARCHIVED" });
  });

  it("runs concurrent callers to exactly one move", async () => {
    const key = await newVault();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => archive(key)));
    expect(outcomes.filter((o) => o.moved)).toHaveLength(1);
    expect(await sideEffects(key)).toEqual({ audit: 1, events: 1, status: "ARCHIVED" });
  });

  it("rolls everything back, the move included, when a later step fails", async () => {
    const key = await newVault();
    await expect(archive(key, { failAfterMove: true })).rejects.toThrow("boom after the move");
    expect(await sideEffects(key)).toEqual({ audit: 0, events: 0, status: "ACTIVE" });
  });

  it("sends the writes after the move together, an aggregate's events in order", async () => {
    const key = await newVault();
    const moved = await archive(key, { twoEvents: true });
    expect(moved).toMatchObject({ moved: true, events: [{ sequence: 1 }, { sequence: 2 }] });
    expect(await sideEffects(key)).toEqual({ audit: 1, events: 2, status: "ARCHIVED" });
  });

  it("leaves no write behind when one fails while others are still in flight (none runs after the ROLLBACK)", async () => {
    const key = await newVault();
    // `also` fails at once, while the second event still waits for the first: it must not be sent
    // after the rollback, where it would run on its own and be kept.
    await expect(archive(key, { failAfterMove: true, twoEvents: true })).rejects.toThrow("boom after the move");
    expect(await sideEffects(key)).toEqual({ audit: 0, events: 0, status: "ACTIVE" });
  });

  it("refuses another tenant's row as if it did not exist", async () => {
    const key = await newVault();
    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 4) });
    expect(await archive({ tenantId: other.tenantId, vaultId: key.vaultId })).toEqual({ moved: false });
    expect(await sideEffects(key)).toMatchObject({ status: "ACTIVE" });
  });
});
