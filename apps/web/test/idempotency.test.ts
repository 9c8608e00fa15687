import { appRouter, type Meta } from "@qc/api";
import { DEFAULT_RATE_LIMITS, defaultWebhookConfig } from "@qc/core";
import { createSessionFixture, createTenantFixture } from "@qc/core/testing";
import { and, eq, schema, sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectError, Q } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { trpcMutation } from "./identity-helpers";
import { fundedSource, idempotencyKey, nativeTransfer, type FundedSource } from "./transfers-front-helpers";

/**
 * CONTRACT §6 idempotency, over real HTTPS against real PostgreSQL. No daemon runs: the transfers
 * stay SUBMITTED, so every replayed body is comparable byte for byte with the first answer.
 */
describe("idempotency keys (X-Idempotency-Key / Idempotency-Key)", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let source: FundedSource;

  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      rateLimits: { ...DEFAULT_RATE_LIMITS, tenantPerSecond: 10_000, tenantBurstExtra: 10_000 },
      // The secret-issuing webhook routes below register a loopback URL.
      config: { webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true } },
    });
    // No chain is needed to accept a transfer: funds are checked later, by the daemon.
    source = await fundedSource(() => server, t.db, undefined, 0n);
  });
  afterAll(() => server?.close());

  const transactionsOf = async (tenantId: string) =>
    t.db.select().from(schema.transactions).where(eq(schema.transactions.tenantId, tenantId));
  const storedKey = async (tenantId: string, key: string) =>
    (
      await t.db
        .select()
        .from(schema.idempotencyKeys)
        .where(and(eq(schema.idempotencyKeys.tenantId, tenantId), eq(schema.idempotencyKeys.key, key)))
    )[0];
  const replayed = (res: TestResponse) => res.headers["idempotent-replayed"];

  it("replays the first answer (same status and body, Idempotent-Replayed: true) for the same key and request", async () => {
    const key = idempotencyKey("replay");
    const body = nativeTransfer(source, 5n * Q, { externalId: "idem-replay", note: "n" });
    const first = await source.api.createTransfer(body, key);
    expect(first.status, first.text).toBe(201);
    expect(replayed(first)).toBeUndefined();
    // Same meaning, other key order and whitespace: the same request.
    const { networkCode, sourceWalletId, destinationAddress, assetId } = body;
    const reordered = JSON.stringify(
      { note: "n", amount: body.amount, externalId: "idem-replay", assetId, destinationAddress, sourceWalletId, networkCode },
      null,
      2,
    );
    for (const again of [body, reordered]) {
      const res = await source.api.createTransfer(again, key);
      expect(res.status).toBe(201);
      expect(replayed(res)).toBe("true");
      expect(res.text).toBe(first.text);
      expect(res.headers["ratelimit-limit"]).toBeDefined();
    }
    expect((await transactionsOf(source.tenant.tenantId)).filter((r) => r.externalId === "idem-replay")).toHaveLength(1);
    const stored = await storedKey(source.tenant.tenantId, key);
    expect(stored).toMatchObject({ method: "POST", path: "/v1/transactions", responseStatus: 201 });
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(24 * 3600_000);

    // `Idempotency-Key` (the IETF draft's name) is the same key.
    const viaIetf = await call(server, "/v1/transactions", {
      method: "POST",
      headers: { authorization: source.tenant.authorization, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(body),
    });
    expect(viaIetf.status).toBe(201);
    expect(replayed(viaIetf)).toBe("true");
    expect(viaIetf.text).toBe(first.text);
  });

  it("refuses the same key with another request: 422 IDEMPOTENCY_KEY_MISMATCH, nothing executed", async () => {
    const key = idempotencyKey("mismatch");
    expect((await source.api.createTransfer(nativeTransfer(source, 1n), key)).status).toBe(201);
    const before = (await transactionsOf(source.tenant.tenantId)).length;
    const other = await source.api.createTransfer(nativeTransfer(source, 2n), key);
    expectError(other, 422, "IDEMPOTENCY_KEY_MISMATCH", 1042);
    // Another route with the same key is another request too.
    expectError(
      await call(server, "/v1/vault/accounts", {
        method: "POST",
        headers: { authorization: source.tenant.authorization, "content-type": "application/json", "x-idempotency-key": key },
        body: JSON.stringify({ name: "x", networkCode: "QUANTUM_SANDBOX" }),
      }),
      422,
      "IDEMPOTENCY_KEY_MISMATCH",
      1042,
    );
    expect((await transactionsOf(source.tenant.tenantId)).length).toBe(before);
  });

  it("answers 409 IDEMPOTENCY_KEY_IN_USE while the first request with the key is still running", async () => {
    const key = idempotencyKey("in-use");
    // Hold the key the way a running first request does (its transaction-scoped lock), from another connection.
    const holder = await t.pool.connect();
    try {
      await holder.query("begin");
      await holder.query("select pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))", [source.tenant.tenantId, key]);
      const res = await source.api.createTransfer(nativeTransfer(source, 3n), key);
      expectError(res, 409, "IDEMPOTENCY_KEY_IN_USE", 1041);
      await holder.query("rollback");
    } finally {
      holder.release();
    }
    // The first one "crashed" (rolled back): nothing was stored, the key is free and executes now.
    expect(await storedKey(source.tenant.tenantId, key)).toBeUndefined();
    const res = await source.api.createTransfer(nativeTransfer(source, 3n), key);
    expect(res.status).toBe(201);
    expect(replayed(res)).toBeUndefined();
  });

  it("executes 20 concurrent identical requests exactly once", async () => {
    const key = idempotencyKey("burst");
    const body = nativeTransfer(source, 42n, { externalId: "burst-1" });
    const answers = await Promise.all(Array.from({ length: 20 }, () => source.api.createTransfer(body, key)));
    const created = answers.filter((r) => r.status === 201);
    const inUse = answers.filter((r) => r.status === 409);
    expect(created.length + inUse.length).toBe(20);
    expect(created.filter((r) => replayed(r) === undefined)).toHaveLength(1);
    for (const res of inUse) expect(res.json()).toMatchObject({ error: "IDEMPOTENCY_KEY_IN_USE", code: 1041 });
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect((await transactionsOf(source.tenant.tenantId)).filter((r) => r.externalId === "burst-1")).toHaveLength(1);
    // Once it has finished, every retry is a replay.
    const late = await source.api.createTransfer(body, key);
    expect(late.status).toBe(201);
    expect(replayed(late)).toBe("true");
    expect(late.json().id).toBe(created[0]!.json().id);
  });

  it("stores nothing for a request refused before it executes: fixed and retried with the same key, it runs", async () => {
    const key = idempotencyKey("fix");
    const body = nativeTransfer(source, 9n);
    const invalid = await source.api.createTransfer(JSON.stringify({ ...body, amount: 9 }), key);
    expectError(invalid, 400, "VALIDATION_FAILED", 1001);
    expect(await storedKey(source.tenant.tenantId, key)).toBeUndefined();
    const fixed = await source.api.createTransfer(body, key);
    expect(fixed.status).toBe(201);
    expect(replayed(fixed)).toBeUndefined();

    // A refused credential stores nothing either (the key belongs to no tenant yet).
    const unauthenticated = await call(server, "/v1/transactions", {
      method: "POST",
      headers: {
        authorization: "Bearer qc_00000000000000000000000000000000:" + "0".repeat(64),
        "content-type": "application/json",
        "x-idempotency-key": key,
      },
      body: JSON.stringify(body),
    });
    expect(unauthenticated.status).toBe(401);
    expect(replayed(unauthenticated)).toBeUndefined();
  });

  it("replays a business error as it was answered (409 DUPLICATE_EXTERNAL_ID)", async () => {
    expect((await source.api.createTransfer(nativeTransfer(source, 1n, { externalId: "dup-replay" }))).status).toBe(201);
    const key = idempotencyKey("dup");
    const body = nativeTransfer(source, 2n, { externalId: "dup-replay" });
    const first = await source.api.createTransfer(body, key);
    expectError(first, 409, "DUPLICATE_EXTERNAL_ID", 1043);
    expect(await storedKey(source.tenant.tenantId, key)).toMatchObject({ responseStatus: 409 });
    const again = await source.api.createTransfer(body, key);
    expectError(again, 409, "DUPLICATE_EXTERNAL_ID", 1043);
    expect(replayed(again)).toBe("true");
    const { requestId: _a, ...firstBody } = first.json();
    const { requestId: _b, ...againBody } = again.json();
    expect(againBody).toEqual(firstBody);
    // Even when the conflict is gone, the key keeps its answer.
    await t.db
      .update(schema.transactions)
      .set({ externalId: null })
      .where(and(eq(schema.transactions.tenantId, source.tenant.tenantId), eq(schema.transactions.externalId, "dup-replay")));
    expectError(await source.api.createTransfer(body, key), 409, "DUPLICATE_EXTERNAL_ID", 1043);
  });

  it("scopes keys to the tenant, keeps them 24 h, and validates them", async () => {
    const key = idempotencyKey("scoped");
    expect((await source.api.createTransfer(nativeTransfer(source, 11n), key)).status).toBe(201);
    const other = await fundedSource(() => server, t.db, undefined, 0n);
    const res = await other.api.createTransfer(nativeTransfer(other, 11n), key);
    expect(res.status).toBe(201);
    expect(replayed(res)).toBeUndefined();

    // Past its retention the key is forgotten and the same key executes afresh.
    await t.db
      .update(schema.idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(schema.idempotencyKeys.tenantId, source.tenant.tenantId), eq(schema.idempotencyKeys.key, key)));
    const fresh = await source.api.createTransfer(nativeTransfer(source, 12n), key);
    expect(fresh.status).toBe(201);
    expect(fresh.json().amount).toBe("12");

    for (const bad of ["", "x".repeat(256), "clé-accentuée", "tab\there"]) {
      const res = await call(server, "/v1/transactions", {
        method: "POST",
        headers: { authorization: source.tenant.authorization, "content-type": "application/json", "x-idempotency-key": bad },
        body: JSON.stringify(nativeTransfer(source, 1n)),
      });
      expectError(res, 400, "VALIDATION_FAILED", 1001);
      expect(res.json().details.fields).toEqual([{ path: "X-Idempotency-Key", message: expect.any(String) }]);
    }
    expect((await source.api.createTransfer(nativeTransfer(source, 1n), "x".repeat(255))).status).toBe(201);
    const both = await call(server, "/v1/transactions", {
      method: "POST",
      headers: {
        authorization: source.tenant.authorization,
        "content-type": "application/json",
        "x-idempotency-key": "a-1",
        "idempotency-key": "a-2",
      },
      body: JSON.stringify(nativeTransfer(source, 1n)),
    });
    expectError(both, 400, "VALIDATION_FAILED", 1001);
  });

  it("applies to every POST that carries the key, tRPC included", async () => {
    const key = idempotencyKey("vault");
    const create = () =>
      call(server, "/v1/vault/accounts", {
        method: "POST",
        headers: { authorization: source.tenant.authorization, "content-type": "application/json", "x-idempotency-key": key },
        body: JSON.stringify({ name: "Idempotent vault", networkCode: "QUANTUM_SANDBOX" }),
      });
    const first = await create();
    expect(first.status).toBe(201);
    const again = await create();
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe("true");
    expect(again.json()).toEqual(first.json());
    const vaults = await t.db
      .select()
      .from(schema.vaults)
      .where(and(eq(schema.vaults.tenantId, source.tenant.tenantId), eq(schema.vaults.name, "Idempotent vault")));
    expect(vaults).toHaveLength(1);
    // Without a key, a POST simply executes each time.
    const api = client(() => server, source.tenant.authorization);
    const [x, y] = [
      await api.post("/v1/vault/accounts", { name: "Plain vault", networkCode: "QUANTUM_SANDBOX" }),
      await api.post("/v1/vault/accounts", { name: "Plain vault", networkCode: "QUANTUM_SANDBOX" }),
    ];
    expect(x.json().id).not.toBe(y.json().id);

    const trpcKey = idempotencyKey("trpc");
    const headers = { authorization: source.tenant.authorization, "x-idempotency-key": trpcKey };
    const viaTrpc = await trpcMutation(server, "transactions.create", nativeTransfer(source, 77n), headers);
    expect(viaTrpc.status, viaTrpc.text).toBe(200);
    const replay = await trpcMutation(server, "transactions.create", nativeTransfer(source, 77n), headers);
    expect(replay.status).toBe(200);
    expect(replayed(replay)).toBe("true");
    expect(replay.json().result.data.json).toEqual(viaTrpc.json().result.data.json);
    const mismatch = await trpcMutation(server, "transactions.create", nativeTransfer(source, 78n), headers);
    expect(mismatch.status).toBe(422);
    expect(mismatch.json().error.json).toMatchObject({ error: "IDEMPOTENCY_KEY_MISMATCH", code: 1042 });
    // The same key over REST is another request (another path).
    expectError(await source.api.createTransfer(nativeTransfer(source, 77n), trpcKey), 422, "IDEMPOTENCY_KEY_MISMATCH", 1042);
  });

  describe("answers that hold a secret shown once (review M1)", () => {
    const post = (path: string, authorization: string, key: string, body?: unknown) =>
      call(server, path, {
        method: "POST",
        headers: { authorization, "x-idempotency-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    /** The replay: 409 CONFLICT saying the secret was shown once, and nothing of the first answer. */
    const expectWithheld = (res: TestResponse, secret: string) => {
      expectError(res, 409, "CONFLICT", 1040);
      expect(res.json().message).toMatch(/^the secret was shown once/);
      expect(replayed(res)).toBe("true");
      expect(res.text).not.toContain(secret);
    };
    /** The stored row: the success's status, no body but the marker, the secret nowhere. */
    const expectStoredWithout = async (tenantId: string, key: string, status: number, secret: string) => {
      const row = await storedKey(tenantId, key);
      expect(row).toMatchObject({ responseStatus: status, responseBody: { secretWithheld: true } });
      expect(JSON.stringify(row)).not.toContain(secret);
      const [raw] = (
        await t.db.execute(sql`select response_body::text as body from idempotency_keys where tenant_id = ${tenantId} and key = ${key}`)
      ).rows as { body: string }[];
      expect(raw!.body).not.toContain(secret);
    };

    it("POST /v1/credentials/rotate: the new secret is answered once, never stored, never replayed", async () => {
      const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
      const key = idempotencyKey("rotate");
      const body = { keyId: tenant.keyId, gracePeriodMinutes: 5 };
      const first = await post("/v1/credentials/rotate", tenant.authorization, key, body);
      expect(first.status, first.text).toBe(200);
      const { secret, newKeyId } = first.json() as { secret: string; newKeyId: string };
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      const again = await post("/v1/credentials/rotate", tenant.authorization, key, body);
      expectWithheld(again, secret);
      await expectStoredWithout(tenant.tenantId, key, 200, secret);
      // The replay executed nothing: one successor, and it works.
      const keys = (await call(server, "/v1/credentials", { headers: { authorization: `Bearer ${newKeyId}:${secret}` } })).json().data as {
        keyId: string;
      }[];
      expect(keys).toHaveLength(2);
      // A business error of the same route is stored and replayed as any other (it holds no secret).
      const errorKey = idempotencyKey("rotate-error");
      const unknown = { keyId: `qc_${"0".repeat(32)}` };
      expectError(await post("/v1/credentials/rotate", `Bearer ${newKeyId}:${secret}`, errorKey, unknown), 404, "NOT_FOUND", 1030);
      const replayedError = await post("/v1/credentials/rotate", `Bearer ${newKeyId}:${secret}`, errorKey, unknown);
      expectError(replayedError, 404, "NOT_FOUND", 1030);
      expect(replayed(replayedError)).toBe("true");
    });

    it("POST /v1/webhooks and …/rotate-secret: no whsec_ in the store or in a replay", async () => {
      const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
      const createKey = idempotencyKey("webhook");
      const body = { url: "https://127.0.0.1:9/hook" };
      const created = await post("/v1/webhooks", tenant.authorization, createKey, body);
      expect(created.status, created.text).toBe(201);
      const { id, secret } = created.json() as { id: string; secret: string };
      expect(secret).toMatch(/^whsec_/);
      expectWithheld(await post("/v1/webhooks", tenant.authorization, createKey, body), secret);
      await expectStoredWithout(tenant.tenantId, createKey, 201, secret);
      expect((await call(server, "/v1/webhooks", { headers: { authorization: tenant.authorization } })).json().webhooks).toHaveLength(1);

      const rotateKey = idempotencyKey("webhook-rotate");
      const rotated = await post(`/v1/webhooks/${id}/rotate-secret`, tenant.authorization, rotateKey);
      expect(rotated.status, rotated.text).toBe(200);
      const next = (rotated.json() as { secret: string }).secret;
      expect(next).toMatch(/^whsec_/);
      expectWithheld(await post(`/v1/webhooks/${id}/rotate-secret`, tenant.authorization, rotateKey), next);
      await expectStoredWithout(tenant.tenantId, rotateKey, 200, next);
    });

    it("tRPC credentials.create from the dashboard: the same", async () => {
      const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
      const session = await createSessionFixture({ db: t.db }, tenant);
      const key = idempotencyKey("create-key");
      const headers = { authorization: session.authorization, "x-idempotency-key": key };
      const first = await trpcMutation(server, "credentials.create", { label: "ci", scopes: ["read"] }, headers);
      expect(first.status, first.text).toBe(200);
      const { secret } = first.json().result.data.json as { secret: string };
      const again = await trpcMutation(server, "credentials.create", { label: "ci", scopes: ["read"] }, headers);
      expect(again.status).toBe(409);
      expect(again.json().error.json).toMatchObject({ error: "CONFLICT", code: 1040 });
      expect(again.text).not.toContain(secret);
      await expectStoredWithout(tenant.tenantId, `${key}`, 200, secret);
    });

    it("every mutation whose answer holds a secret says so in its meta (issuesSecret)", () => {
      type Def = { _def: { type: string; meta?: Meta; output?: { shape?: Record<string, unknown> } } };
      const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Def> } })._def.procedures).filter(
        ([, p]) => p._def.type === "mutation",
      );
      const holdingSecret = procedures.filter(([, p]) => p._def.output?.shape && "secret" in p._def.output.shape).map(([path]) => path);
      expect(holdingSecret.sort()).toEqual(["credentials.create", "credentials.rotate", "webhooks.create", "webhooks.rotateSecret"]);
      expect(
        procedures
          .filter(([, p]) => p._def.meta?.issuesSecret)
          .map(([path]) => path)
          .sort(),
      ).toEqual(holdingSecret);
    });
  });
});
