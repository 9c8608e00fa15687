import { randomUUID } from "node:crypto";
import { createDatabase, type DatabaseHandle } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { DEFAULT_RATE_LIMITS, RateLimits } from "./rate-limits";
import { tenantReservationBatch } from "./reserved-token-bucket";

type Pool = DatabaseHandle["pool"];

/** A web instance's own connection pool, counting the statements it sends. */
function instancePool(url: string) {
  const database = createDatabase({ url, poolMax: 4, pipelinedReads: 0 });
  const counter = { queries: 0 };
  const counted = new Proxy(database.pool, {
    get(target, property, receiver) {
      if (property === "query") {
        return (...args: Parameters<Pool["query"]>) => {
          counter.queries++;
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { database, counted: counted as Pool, counter };
}

/** `callers` requests at a time against one instance until each is refused once; admissions timed. */
async function untilRefused(limits: RateLimits, tenantId: string, callers: number, admittedAt: number[]): Promise<number> {
  let admitted = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (;;) {
        try {
          await limits.consumeTenant(tenantId);
          admitted++;
          admittedAt.push(Date.now());
        } catch (error) {
          if (error instanceof AppError && error.error === "RATE_LIMITED") return;
          throw error;
        }
      }
    }),
  );
  return admitted;
}

describe("per-tenant limit reserved in batches by instances sharing one database", () => {
  const t = useTestDatabase();
  const policy = { ...DEFAULT_RATE_LIMITS, tenantPerSecond: 100, tenantBurstExtra: 40 };
  const batch = tenantReservationBatch(policy.tenantPerSecond);
  let instances: ReturnType<typeof instancePool>[];
  let limits: RateLimits[];
  beforeAll(() => {
    instances = [instancePool(t.url), instancePool(t.url)];
    limits = instances.map((i) => new RateLimits(i.counted, policy));
  });
  afterAll(() => Promise.all(instances.map((i) => i.database.close())));
  const queries = () => instances.reduce((sum, i) => sum + i.counter.queries, 0);

  it("admits the whole shared budget and never more than its windows allow, with a fraction of the writes", async () => {
    expect(batch).toBe(5);
    const tenantId = randomUUID();
    const admittedAt: number[] = [];
    const start = Date.now();
    const admitted = (await Promise.all(limits.map((l) => untilRefused(l, tenantId, 4, admittedAt)))).reduce((a, b) => a + b, 0);
    const span = Math.max(...admittedAt) - start;
    // Windows start at an instance's first reservation (at or after `start`) and last 1 s
    // (sustained) and 10 s (burst): how many of each the run can have touched.
    const sustainedWindows = Math.floor(span / 1000) + 1;
    const burstWindows = Math.floor(span / 10_000) + 1;

    // Never more than the limit in any window, whichever instance reserved the tokens…
    expect(admitted).toBeLessThanOrEqual(policy.tenantPerSecond * sustainedWindows + policy.tenantBurstExtra * burstWindows);
    // …and, since both ran until refused, none of it was left unused (the tolerance is only
    // tokens an instance holds when its window ends, and these ran until they had none).
    expect(admitted).toBeGreaterThanOrEqual(policy.tenantPerSecond + policy.tenantBurstExtra);
    // One or two upserts per reservation of `batch` tokens, plus the few reservations per window
    // that come back short or empty: far from one write per request.
    expect(queries()).toBeLessThanOrEqual(2 * (Math.ceil(admitted / batch) + 3 * limits.length * sustainedWindows));
    expect(queries()).toBeLessThan(admitted);
  });

  it("answers a flood of refused requests from memory: no write per refusal", async () => {
    const tenantId = randomUUID();
    const admittedAt: number[] = [];
    await Promise.all(limits.map((l) => untilRefused(l, tenantId, 2, admittedAt)));
    const before = queries();
    const start = Date.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 500 }, (_, i) => limits[i % 2]!.consumeTenant(tenantId)));
    const span = Date.now() - start;
    const refused = outcomes.filter((o) => o.status === "rejected");
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toMatchObject({ error: "RATE_LIMITED", code: 1060 });
    const admittedInFlood = outcomes.length - refused.length;
    // A refused instance asks the database again only when a window may have reset.
    const windows = Math.floor(span / 1000) + 2;
    expect(queries() - before).toBeLessThanOrEqual(2 * (Math.ceil(admittedInFlood / batch) + 3 * limits.length * windows));
    expect(refused.length).toBeGreaterThan(0);
    expect(queries() - before).toBeLessThan(refused.length);
  });

  it("reports the tenant's limit, what is left and when the window resets", async () => {
    const tenantId = randomUUID();
    const first = await limits[0]!.consumeTenant(tenantId);
    const second = await limits[0]!.consumeTenant(tenantId);
    expect(first.limit).toBe(100);
    expect(first.remaining).toBeLessThanOrEqual(policy.tenantPerSecond - 1);
    expect(second.remaining).toBe(first.remaining - 1);
    expect(first.resetSeconds).toBe(1);
  });

  it("is exact, one request per reservation, for limits under 40/s", () => {
    expect(tenantReservationBatch(5)).toBe(1);
    expect(tenantReservationBatch(39)).toBe(1);
    expect(tenantReservationBatch(100)).toBe(5);
    expect(tenantReservationBatch(1_000_000)).toBe(100);
  });
});
