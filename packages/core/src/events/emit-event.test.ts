import { randomUUID } from "node:crypto";
import { useTestDatabase } from "@qc/db/testing";
import { listAggregateEvents } from "@qc/db/queries";
import { describe, expect, it } from "vitest";
import { createTenantFixture } from "../testing/fixtures";
import { emitEvent } from "./emit-event";

describe("emitEvent", () => {
  const t = useTestDatabase();
  const rotated = (tenantId: string, keyId: string, n: number) => ({
    tenantId,
    type: "credential.rotated" as const,
    aggregateId: keyId,
    data: { oldKeyId: keyId, newKeyId: `qc_${n}`, oldKeyExpiresAt: "2026-11-21T10:00:00.000Z" },
  });

  it("numbers each aggregate's events 1, 2, 3 … independently of other aggregates", async () => {
    const { tenantId } = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 1) });
    const [a, b] = [randomUUID(), randomUUID()];
    for (let n = 1; n <= 3; n++) await emitEvent(t.db, rotated(tenantId, a, n));
    await emitEvent(t.db, rotated(tenantId, b, 9));
    expect((await listAggregateEvents(t.db, { tenantId, aggregateType: "credential", aggregateId: a })).map((e) => e.sequence)).toEqual([
      1, 2, 3,
    ]);
    expect((await listAggregateEvents(t.db, { tenantId, aggregateType: "credential", aggregateId: b })).map((e) => e.sequence)).toEqual([
      1,
    ]);
  });

  it("refuses data that does not match the catalog, writing nothing", async () => {
    const { tenantId } = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 2) });
    const id = randomUUID();
    const bad = { ...rotated(tenantId, id, 1), data: { oldKeyId: id } } as unknown as Parameters<typeof emitEvent>[1];
    await expect(emitEvent(t.db, bad)).rejects.toThrow();
    expect(await listAggregateEvents(t.db, { tenantId, aggregateType: "credential", aggregateId: id })).toEqual([]);
  });

  it("exists only if the caller's transaction commits", async () => {
    const { tenantId } = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) });
    const id = randomUUID();
    await t.db
      .transaction(async (tx) => {
        await emitEvent(tx, rotated(tenantId, id, 1));
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await listAggregateEvents(t.db, { tenantId, aggregateType: "credential", aggregateId: id })).toEqual([]);
  });
});
