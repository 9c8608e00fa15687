import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { purgeOldUsageBuckets, USAGE_RETENTION_DAYS } from "./purge-old-usage-buckets";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-27T12:00:00.000Z");

describe("purgeOldUsageBuckets", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenantId: string;
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: () => NOW });
    tenantId = (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) })).tenantId;
  });
  afterAll(() => deps.close());

  const hours = async () =>
    (await t.db.select({ hour: schema.usageBuckets.hour }).from(schema.usageBuckets).where(eq(schema.usageBuckets.tenantId, tenantId)))
      .map((row) => row.hour.toISOString())
      .sort();

  it("deletes the hours no window reaches (before now − 32 days) in batches, and keeps the rest", async () => {
    const cutoff = NOW.getTime() - USAGE_RETENTION_DAYS * 24 * HOUR;
    const at = (ms: number) => new Date(ms);
    // 1,203 buckets of the hour just before the cutoff, and three from the cutoff on.
    const old = Array.from({ length: 1203 }, () => ({
      tenantId,
      scope: "WALLET" as const,
      scopeId: crypto.randomUUID(),
      assetId: crypto.randomUUID(),
      hour: at(cutoff - HOUR),
      count: 1,
      amount: "5",
    }));
    const kept = [at(cutoff), at(cutoff + HOUR), at(NOW.getTime() - HOUR)].map((hour) => ({
      tenantId,
      scope: "TENANT" as const,
      scopeId: tenantId,
      assetId: "00000000-0000-0000-0000-000000000000",
      hour,
      count: 2,
      amount: "0",
    }));
    await t.db.insert(schema.usageBuckets).values([...old, ...kept]);

    expect(await purgeOldUsageBuckets(deps)).toEqual({ removed: 1203, before: at(cutoff).toISOString() });
    expect(await hours()).toEqual(kept.map((row) => row.hour.toISOString()).sort());
    // Nothing left to take: a second run removes nothing.
    expect((await purgeOldUsageBuckets(deps)).removed).toBe(0);
    const [row] = await t.db
      .select()
      .from(schema.usageBuckets)
      .where(and(eq(schema.usageBuckets.tenantId, tenantId), eq(schema.usageBuckets.hour, at(cutoff))));
    expect(row?.count).toBe(2);
  });
});
