import { randomBytes, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { AppError, serviceConfig } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { eq, schema, sql } from "@qc/db";
import { recordStatements, useTestDatabase } from "@qc/db/testing";
import { TRPCError } from "@trpc/server";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createContext, type AppDeps, type Context } from "./context";
import { createAppDeps } from "./deps";
import { appErrorFromTrpc } from "./errors";
import { authedProcedure, createRouter, publicProcedure, sessionProcedure } from "./trpc";

/**
 * The procedure tiers themselves, through `createCaller` over a real database: what reaches the
 * client and the log when a procedure fails, the order of credentials and idempotency keys, and
 * the replay of a stored answer. The authenticated tier is one middleware; these are the answers
 * and log lines it has to keep.
 */
describe("procedure tiers", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: "info" },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  let deps: AppDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let runs = 0;
  let requests = 0;

  const router = createRouter({
    publicFails: publicProcedure.query(() => {
      runs += 1;
      throw new Error("driver exploded");
    }),
    fails: authedProcedure.meta({ scope: "read" }).query(() => {
      runs += 1;
      throw new Error("driver exploded");
    }),
    refusedByDatabase: authedProcedure.meta({ scope: "read" }).query(async ({ ctx }) => {
      runs += 1;
      return ctx.deps.db.execute(sql`select ${"not a number"}::int as n`);
    }),
    refusedByService: authedProcedure.meta({ scope: "read" }).query(() => {
      runs += 1;
      throw new AppError("NOT_FOUND", "no such thing");
    }),
    brokenOutput: authedProcedure
      .meta({ scope: "read" })
      .output(z.object({ amount: z.string() }))
      .query(() => ({ amount: 42 }) as unknown as { amount: string }),
    read: authedProcedure.meta({ scope: "read" }).query(({ ctx }) => {
      runs += 1;
      return { tenantId: ctx.auth.tenantId, actor: ctx.actor.type };
    }),
    create: authedProcedure
      .meta({ scope: "write", idempotencyKey: "required" })
      .input(z.object({ name: z.string() }))
      .mutation(({ input }) => {
        runs += 1;
        if (input.name === "taken") throw new AppError("NOT_FOUND", "nothing to attach it to");
        return { id: randomUUID(), name: input.name };
      }),
    sessionOnly: sessionProcedure.meta({ scope: "admin" }).query(() => {
      runs += 1;
      return "ok";
    }),
    move: authedProcedure
      .meta({ scope: "write", valueMoving: true, idempotencyKey: "required" })
      .input(z.object({ amount: z.string() }))
      .mutation(({ input }) => {
        runs += 1;
        return { id: randomUUID(), amount: input.amount };
      }),
  });

  /** The names of the prepared statements sent while recording (pool and pipelined reads alike). */
  const statements = recordStatements();

  beforeAll(async () => {
    deps = await createAppDeps({ database: t, databaseUrl: t.url, log, config: { ...serviceConfig(), apiKeyPepper: pepper } });
    tenant = await createTenantFixture({ db: t.db, pepper });
  });
  afterAll(async () => {
    statements.restore();
    await deps.close();
  });
  beforeEach(() => {
    lines.length = 0;
    runs = 0;
  });

  const contextFor = (headers: Record<string, string>): Context => {
    requests += 1;
    return createContext(deps, {
      requestId: `req_tier_${requests}`,
      ip: "198.51.100.9",
      method: "POST",
      path: "/api/trpc/x",
      headers,
      transport: "trpc",
    });
  };

  /** The TRPCError a call was refused with, and the AppError it stands for. */
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(error)}`);
    return { error, appError: appErrorFromTrpc(error) };
  };

  it(
    "answers an unexpected failure as INTERNAL on both tiers, logged once with the request id and path, its " +
      "message kept from the client",
    async () => {
      for (const [path, headers] of [
        ["publicFails", {}],
        ["fails", { authorization: tenant.authorization }],
      ] as const) {
        lines.length = 0;
        const ctx = contextFor(headers);
        const caller = router.createCaller(ctx);
        const { error, appError } = await refusal(path === "fails" ? caller.fails() : caller.publicFails());
        expect(error.code).toBe("INTERNAL_SERVER_ERROR");
        expect(appError).toMatchObject({ error: "INTERNAL", status: 500, message: "internal error" });
        expect(error.message).not.toContain("exploded");
        expect(lines, path).toHaveLength(1);
        expect(lines[0]).toMatchObject({
          level: 50,
          msg: "procedure failed",
          requestId: ctx.request.requestId,
          path,
          err: { message: expect.stringContaining("driver exploded") as unknown },
        });
      }
    },
  );

  it("answers a value the database refuses as 400 VALIDATION_FAILED, and warns that the input schema lacks a rule", async () => {
    const { error, appError } = await refusal(router.createCaller(contextFor({ authorization: tenant.authorization })).refusedByDatabase());
    expect(error.code).toBe("BAD_REQUEST");
    expect(appError).toMatchObject({ error: "VALIDATION_FAILED", status: 400, details: { fields: [{ path: "(request)" }] } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: "input refused by the database; the input schema lacks a rule",
      path: "refusedByDatabase",
    });
  });

  it("answers an output that breaks its own schema as INTERNAL (ours, logged), not as the client's VALIDATION_FAILED", async () => {
    const { error, appError } = await refusal(router.createCaller(contextFor({ authorization: tenant.authorization })).brokenOutput());
    expect(error.code).toBe("INTERNAL_SERVER_ERROR");
    expect(appError).toMatchObject({ error: "INTERNAL", status: 500, message: "internal error" });
    expect(appError.details).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: "procedure failed", path: "brokenOutput" });
  });

  it("answers a service's refusal as it is, without a log line", async () => {
    const { error, appError } = await refusal(router.createCaller(contextFor({ authorization: tenant.authorization })).refusedByService());
    expect(error.code).toBe("NOT_FOUND");
    expect(appError).toMatchObject({ error: "NOT_FOUND", status: 404, message: "no such thing" });
    expect(lines).toEqual([]);
  });

  it("checks credentials and scope before the procedure runs, and gives it the caller and the tenant's rate-limit headers", async () => {
    const anonymous = await refusal(router.createCaller(contextFor({})).read());
    expect(anonymous.appError).toMatchObject({ error: "UNAUTHENTICATED", status: 401 });
    expect(anonymous.error.code).toBe("UNAUTHORIZED");
    const readOnly = (await createKeyFixture({ db: t.db, pepper }, tenant, ["read"])).authorization;
    const belowScope = await refusal(
      router.createCaller(contextFor({ authorization: readOnly, "x-idempotency-key": "k-scope" })).create({ name: "a" }),
    );
    expect(belowScope.appError).toMatchObject({ error: "INSUFFICIENT_SCOPE", status: 403 });
    const apiKey = await refusal(router.createCaller(contextFor({ authorization: tenant.authorization })).sessionOnly());
    expect(apiKey.appError).toMatchObject({ error: "INSUFFICIENT_SCOPE", status: 403 });
    expect(runs).toBe(0);
    expect(lines).toEqual([]);

    const ctx = contextFor({ authorization: readOnly });
    expect(await router.createCaller(ctx).read()).toEqual({ tenantId: tenant.tenantId, actor: "api_key" });
    expect([...ctx.responseHeaders.keys()]).toEqual(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]);
  });

  it(
    "refuses a mutation without its required idempotency key after the credentials, and replays a stored answer " + "without running again",
    async () => {
      expect((await refusal(router.createCaller(contextFor({})).create({ name: "a" }))).appError).toMatchObject({
        error: "UNAUTHENTICATED",
      });
      expect(
        (await refusal(router.createCaller(contextFor({ authorization: tenant.authorization })).create({ name: "a" }))).appError,
      ).toMatchObject({
        error: "IDEMPOTENCY_KEY_REQUIRED",
        status: 400,
      });
      expect(runs).toBe(0);

      const key = `k-${randomUUID()}`;
      const first = contextFor({ authorization: tenant.authorization, "x-idempotency-key": key });
      const created = await router.createCaller(first).create({ name: "a" });
      expect(first.responseHeaders.has("Idempotent-Replayed")).toBe(false);
      const again = contextFor({ authorization: tenant.authorization, "x-idempotency-key": key });
      expect(await router.createCaller(again).create({ name: "a" })).toEqual(created);
      expect(again.responseHeaders.get("Idempotent-Replayed")).toBe("true");
      expect(runs).toBe(1);

      const mismatch = await refusal(
        router.createCaller(contextFor({ authorization: tenant.authorization, "x-idempotency-key": key })).create({ name: "b" }),
      );
      expect(mismatch.appError).toMatchObject({ error: "IDEMPOTENCY_KEY_MISMATCH", status: 422 });

      const refusedKey = `k-${randomUUID()}`;
      const refused = await refusal(
        router.createCaller(contextFor({ authorization: tenant.authorization, "x-idempotency-key": refusedKey })).create({ name: "taken" }),
      );
      const replayed = contextFor({ authorization: tenant.authorization, "x-idempotency-key": refusedKey });
      const replayedRefusal = await refusal(router.createCaller(replayed).create({ name: "taken" }));
      expect(replayedRefusal.appError).toMatchObject({ error: refused.appError.error, message: refused.appError.message, status: 404 });
      expect(replayed.responseHeaders.get("Idempotent-Replayed")).toBe("true");
      expect(runs).toBe(2);
      expect(lines).toEqual([]);
    },
  );

  it(
    "refuses a value-moving mutation of a tenant not verified before anything its key answers, reading the status " + "with the key's lock",
    async () => {
      const mover = await createTenantFixture({ db: t.db, pepper });
      const setStatus = (status: "PENDING_VERIFICATION" | "VERIFIED" | "REJECTED") =>
        t.db.update(schema.tenants).set({ status }).where(eq(schema.tenants.id, mover.tenantId));
      const move = (headers: Record<string, string>, amount = "1") =>
        router.createCaller(contextFor({ authorization: mover.authorization, ...headers })).move({ amount });
      const statementsOf = (call: () => Promise<unknown>) => statements.during(call);
      const key = `k-${randomUUID()}`;

      // Verified: the key's own answers, as before.
      expect((await refusal(move({}))).appError).toMatchObject({ error: "IDEMPOTENCY_KEY_REQUIRED" });
      expect((await refusal(move({ "x-idempotency-key": "é" }))).appError).toMatchObject({ error: "VALIDATION_FAILED" });
      const created = await move({ "x-idempotency-key": key });
      expect(runs).toBe(1);

      await setStatus("REJECTED");
      // Without a key, or with one that is malformed, the status is read on its own, and first.
      const withoutKey = await statementsOf(() => move({}));
      expect(withoutKey.length).toBeGreaterThan(0);
      for (const headers of [{}, { "x-idempotency-key": "é" }] as Record<string, string>[]) {
        expect((await refusal(move(headers))).appError).toMatchObject({ error: "TENANT_NOT_VERIFIED", status: 403 });
      }
      // With a key, it comes from the key's lock statement, and the refusal wins over the replay,
      // the mismatch and a fresh key alike; nothing is stored for the fresh one.
      // The key's statement reads the status: the refusal costs no statement more than without a key.
      const withKey = await statementsOf(() => move({ "x-idempotency-key": key }));
      expect(withKey).toHaveLength(withoutKey.length);
      const fresh = `k-${randomUUID()}`;
      for (const [headers, amount] of [
        [{ "x-idempotency-key": key }, "1"],
        [{ "x-idempotency-key": key }, "2"],
        [{ "idempotency-key": fresh }, "1"],
      ] as const) {
        const refused = contextFor({ authorization: mover.authorization, ...headers });
        expect((await refusal(router.createCaller(refused).move({ amount }))).appError).toMatchObject({
          error: "TENANT_NOT_VERIFIED",
          status: 403,
        });
        expect(refused.responseHeaders.has("Idempotent-Replayed")).toBe(false);
      }
      expect((await t.query("select count(*)::int as n from idempotency_keys where key = $1", [fresh])).rows).toEqual([{ n: 0 }]);
      // An input that cannot be read fails before the lock statement: the status read of its own answers first.
      const unreadable = router.move({
        ctx: contextFor({ authorization: mover.authorization, "x-idempotency-key": fresh }),
        getRawInput: () => Promise.reject(new TRPCError({ code: "PARSE_ERROR", message: "unreadable" })),
        path: "move",
        type: "mutation",
        signal: undefined,
        batchIndex: 0,
      });
      expect((await refusal(unreadable)).appError).toMatchObject({ error: "TENANT_NOT_VERIFIED" });
      expect(runs).toBe(1);

      await setStatus("VERIFIED");
      const replayed = contextFor({ authorization: mover.authorization, "x-idempotency-key": key });
      expect(await router.createCaller(replayed).move({ amount: "1" })).toEqual(created);
      expect(replayed.responseHeaders.get("Idempotent-Replayed")).toBe("true");
      expect((await refusal(move({ "x-idempotency-key": key }, "2"))).appError).toMatchObject({ error: "IDEMPOTENCY_KEY_MISMATCH" });
      expect(runs).toBe(1);
      expect(lines).toEqual([]);
    },
  );
});
