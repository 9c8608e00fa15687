import { and, eq, schema, sql, type Database } from "@qc/db";
import { lockIdempotencyKey } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createVault } from "../vaults/create-vault";
import { purgeExpiredIdempotencyKeys } from "./purge-expired-idempotency-keys";
import { idempotencyRequestHash } from "./idempotency-key";
import { replayedError, runIdempotently } from "./run-idempotently";

describe("runIdempotently", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenantId: string;
  let counter = 0;
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
    tenantId = (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) })).tenantId;
  });
  afterAll(() => deps.close());

  const request = (key: string, input: unknown = { name: "v" }) => ({ tenantId, key, method: "POST", path: "/v1/vault/accounts", input });
  /** Creates a vault through `db` (the key's transaction), the way a procedure's service would. */
  const createVaultThrough = (name: string) => async (db: Database) => {
    const vault = await createVault({ ...deps, db }, { tenantId, name, networkCode: "QUANTUM_SANDBOX", actor: systemActor("test") });
    return { value: vault, status: 201, body: vault };
  };
  const vaultsNamed = async (name: string) =>
    (
      await t.db
        .select()
        .from(schema.vaults)
        .where(and(eq(schema.vaults.tenantId, tenantId), eq(schema.vaults.name, name)))
    ).length;
  const key = () => `k-${++counter}`;

  it("executes once, stores the answer in the same commit, and replays it", async () => {
    const k = key();
    const first = await runIdempotently(deps, request(k), createVaultThrough("once"));
    expect(first).toMatchObject({ replayed: false, value: { name: "once" } });
    const second = await runIdempotently(deps, request(k), createVaultThrough("once"));
    expect(second).toEqual({
      replayed: true,
      answer: { kind: "success", status: 201, body: JSON.parse(JSON.stringify((first as { value: unknown }).value)) },
    });
    expect(await vaultsNamed("once")).toBe(1);
    await expect(runIdempotently(deps, request(k, { name: "other" }), createVaultThrough("once"))).rejects.toMatchObject({
      error: "IDEMPOTENCY_KEY_MISMATCH",
    });
  });

  it("stores nothing when the execution fails with a refusal or a fault: its writes roll back and the key is free", async () => {
    for (const failure of [new AppError("UNAVAILABLE", "chain down"), new AppError("VALIDATION_FAILED", "bad"), new Error("boom")]) {
      const k = key();
      const name = `rolled-back-${counter}`;
      await expect(
        runIdempotently(deps, request(k), async (db) => {
          await createVaultThrough(name)(db);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await vaultsNamed(name)).toBe(0);
      expect(await t.db.select().from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.key, k))).toEqual([]);
      expect(await runIdempotently(deps, request(k), createVaultThrough(name))).toMatchObject({ replayed: false });
      expect(await vaultsNamed(name)).toBe(1);
    }
  });

  it("stores a business error as the answer, undoing what the execution wrote before it", async () => {
    const k = key();
    const conflict = new AppError("DUPLICATE_EXTERNAL_ID", "taken", { details: { externalId: "x" } });
    const run = () =>
      runIdempotently(deps, request(k), async (db) => {
        await createVaultThrough("half-done")(db);
        throw conflict;
      });
    await expect(run()).rejects.toBe(conflict);
    expect(await vaultsNamed("half-done")).toBe(0);
    const replay = await runIdempotently(deps, request(k), createVaultThrough("never"));
    expect(replay).toEqual({
      replayed: true,
      answer: { kind: "error", status: 409, error: "DUPLICATE_EXTERNAL_ID", message: "taken", details: { externalId: "x" } },
    });
    if (replay.replayed && replay.answer.kind === "error")
      expect(replayedError(replay.answer)).toMatchObject({ error: "DUPLICATE_EXTERNAL_ID", code: 1043, status: 409, message: "taken" });
    expect(await vaultsNamed("never")).toBe(0);
  });

  it("stores a business error of an execution that wrote nothing in the same transaction, running it once", async () => {
    const k = key();
    let runs = 0;
    const notFound = new AppError("NOT_FOUND", "no such wallet");
    await expect(
      runIdempotently(deps, request(k), async () => {
        runs++;
        throw notFound;
      }),
    ).rejects.toBe(notFound);
    expect(runs).toBe(1);
    expect(await runIdempotently(deps, request(k), createVaultThrough("never-2"))).toMatchObject({
      replayed: true,
      answer: { kind: "error", error: "NOT_FOUND" },
    });
  });

  it("replays the answer another request committed between its read and its own insert, undoing its own execution", async () => {
    const k = key();
    // The other request's answer lands after this request read the key (the read's snapshot
    // predates the lock), as if its holder had committed in that instant.
    const theirs = { id: "theirs" };
    let runs = 0;
    const outcome = await runIdempotently(deps, request(k), async (db) => {
      const result = await createVaultThrough(`raced-${++runs}`)(db);
      if (runs === 1) {
        await t.db.insert(schema.idempotencyKeys).values({
          tenantId,
          key: k,
          requestHash: idempotencyRequestHash(request(k)),
          method: "POST",
          path: "/v1/vault/accounts",
          responseStatus: 201,
          responseBody: theirs,
          expiresAt: new Date(Date.now() + 3600_000),
        });
      }
      return result;
    });
    expect(outcome).toEqual({ replayed: true, answer: { kind: "success", status: 201, body: theirs } });
    expect(runs).toBe(1);
    expect(await vaultsNamed("raced-1")).toBe(0);
  });

  it("lets exactly one of many concurrent callers execute; the others are told the key is in use or get the replay", async () => {
    const k = key();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        runIdempotently(deps, request(k), async (db) => {
          const result = await createVaultThrough("concurrent")(db);
          await new Promise((r) => setTimeout(r, 50));
          return result;
        }),
      ),
    );
    const executed = outcomes.filter((o) => o.status === "fulfilled" && !o.value.replayed);
    expect(executed).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === "rejected") expect(o.reason).toMatchObject({ error: "IDEMPOTENCY_KEY_IN_USE" });
    }
    expect(await vaultsNamed("concurrent")).toBe(1);
  });

  describe("with requireVerifiedTenant (a value-moving request: the status is read in the key's lock statement)", () => {
    let kycTenantId: string;
    beforeAll(async () => {
      kycTenantId = (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) })).tenantId;
    });
    const setStatus = (status: "PENDING_VERIFICATION" | "VERIFIED" | "REJECTED") =>
      t.db.update(schema.tenants).set({ status }).where(eq(schema.tenants.id, kycTenantId));
    const kycRequest = (k: string, input: unknown = { name: "v" }) => ({ ...request(k, input), tenantId: kycTenantId });
    const storedKeys = async (k: string) =>
      t.db
        .select()
        .from(schema.idempotencyKeys)
        .where(and(eq(schema.idempotencyKeys.tenantId, kycTenantId), eq(schema.idempotencyKeys.key, k)));
    const counted = () => {
      const calls = { runs: 0 };
      return { calls, execute: async () => ({ value: ++calls.runs, status: 201, body: { run: calls.runs } }) };
    };
    const verified = { requireVerifiedTenant: true };

    it("refuses a tenant that is not VERIFIED with TENANT_NOT_VERIFIED, storing nothing and never executing", async () => {
      for (const status of ["PENDING_VERIFICATION", "REJECTED"] as const) {
        await setStatus(status);
        const k = key();
        const { calls, execute } = counted();
        await expect(runIdempotently(deps, kycRequest(k), execute, verified)).rejects.toMatchObject({
          error: "TENANT_NOT_VERIFIED",
          status: 403,
        });
        expect(calls.runs).toBe(0);
        expect(await storedKeys(k)).toEqual([]);
        // The key stayed free: the same request executes once the tenant is verified.
        await setStatus("VERIFIED");
        expect(await runIdempotently(deps, kycRequest(k), execute, verified)).toEqual({ replayed: false, value: 1 });
      }
      // An unknown tenant has no status: refused as well.
      const { calls, execute } = counted();
      await expect(
        runIdempotently(deps, { ...kycRequest(key()), tenantId: "0194f2c4-0000-7000-8000-00000000dead" }, execute, verified),
      ).rejects.toMatchObject({
        error: "TENANT_NOT_VERIFIED",
      });
      expect(calls.runs).toBe(0);
    });

    it("refuses before a stored answer is replayed or a mismatch is answered, and replays again once the tenant is VERIFIED", async () => {
      await setStatus("VERIFIED");
      const k = key();
      const { calls, execute } = counted();
      expect(await runIdempotently(deps, kycRequest(k), execute, verified)).toEqual({ replayed: false, value: 1 });
      for (const status of ["REJECTED", "PENDING_VERIFICATION"] as const) {
        await setStatus(status);
        await expect(runIdempotently(deps, kycRequest(k), execute, verified)).rejects.toMatchObject({ error: "TENANT_NOT_VERIFIED" });
        await expect(runIdempotently(deps, kycRequest(k, { name: "other" }), execute, verified)).rejects.toMatchObject({
          error: "TENANT_NOT_VERIFIED",
        });
        // Without the option the key answers as it always did: the rule is the caller's to ask for.
        expect(await runIdempotently(deps, kycRequest(k), execute)).toEqual({
          replayed: true,
          answer: { kind: "success", status: 201, body: { run: 1 } },
        });
      }
      await setStatus("VERIFIED");
      expect(await runIdempotently(deps, kycRequest(k), execute, verified)).toEqual({
        replayed: true,
        answer: { kind: "success", status: 201, body: { run: 1 } },
      });
      await expect(runIdempotently(deps, kycRequest(k, { name: "other" }), execute, verified)).rejects.toMatchObject({
        error: "IDEMPOTENCY_KEY_MISMATCH",
      });
      expect(calls.runs).toBe(1);
      expect(await storedKeys(k)).toHaveLength(1);
    });

    it("refuses before telling that the key is in use", async () => {
      const k = key();
      const { calls, execute } = counted();
      // Another transaction holds the key's lock, as a request with it still executing would.
      await t.db.transaction(async (holder) => {
        expect((await lockIdempotencyKey(holder, { tenantId: kycTenantId, key: k })).locked).toBe(true);
        await setStatus("REJECTED");
        await expect(runIdempotently(deps, kycRequest(k), execute, verified)).rejects.toMatchObject({ error: "TENANT_NOT_VERIFIED" });
        await setStatus("VERIFIED");
        await expect(runIdempotently(deps, kycRequest(k), execute, verified)).rejects.toMatchObject({ error: "IDEMPOTENCY_KEY_IN_USE" });
      });
      expect(calls.runs).toBe(0);
    });

    it("refuses an input it cannot hash on the status read of its own (the lock statement is never reached)", async () => {
      const unhashable = { amount: 1n };
      const { calls, execute } = counted();
      await setStatus("REJECTED");
      await expect(runIdempotently(deps, kycRequest(key(), unhashable), execute, verified)).rejects.toMatchObject({
        error: "TENANT_NOT_VERIFIED",
      });
      await setStatus("VERIFIED");
      await expect(runIdempotently(deps, kycRequest(key(), unhashable), execute, verified)).rejects.toThrow(TypeError);
      expect(calls.runs).toBe(0);
    });
  });

  it("forgets keys past their retention: the key executes afresh, and the purge deletes them", async () => {
    const k = key();
    await runIdempotently(deps, request(k), createVaultThrough("expiring"));
    await t.db
      .update(schema.idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(schema.idempotencyKeys.key, k));
    expect(await runIdempotently(deps, request(k, { other: true }), createVaultThrough("expiring"))).toMatchObject({ replayed: false });
    expect(await vaultsNamed("expiring")).toBe(2);
    await t.db
      .update(schema.idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(schema.idempotencyKeys.key, k));
    const before = (await t.db.select().from(schema.idempotencyKeys)).length;
    expect(await purgeExpiredIdempotencyKeys(deps)).toEqual({ removed: 1 });
    expect((await t.db.select().from(schema.idempotencyKeys)).length).toBe(before - 1);
  });
});
