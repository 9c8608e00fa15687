import { randomBytes } from "node:crypto";
import { createLogger, listAuditEvents, serviceConfig, type AppError } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext, type AppDeps } from "../../context";
import { createAppDeps } from "../../deps";
import { appErrorFromTrpc } from "../../errors";
import { appRouter } from "../index";

/**
 * The vault procedures through `createCaller`: the real auth middleware (API key, scope, rate
 * limit), input and output schemas and services, over a real database, without HTTP.
 */
describe("vaults router (createCaller)", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);
  let deps: AppDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let requests = 0;

  beforeAll(async () => {
    deps = await createAppDeps({
      database: t,
      databaseUrl: t.url,
      log: createLogger("vaults-caller-test", "silent"),
      config: { ...serviceConfig(), apiKeyPepper: pepper },
    });
    tenant = await createTenantFixture({ db: t.db, pepper });
  });
  afterAll(() => deps.close());

  /** A caller as the web server would build it for one request carrying `authorization`. */
  const callerAs = (authorization: string | undefined) => {
    requests += 1;
    return appRouter.createCaller(
      createContext(deps, {
        requestId: `req_caller_${requests}`,
        ip: "198.51.100.7",
        method: "POST",
        path: "/api/trpc/vaults",
        headers: authorization === undefined ? {} : { authorization },
        transport: "trpc",
      }),
    );
  };

  /** The AppError a call was refused with, and the tRPC code it travelled as. */
  const refusal = async (call: Promise<unknown>): Promise<{ appError: AppError; trpcCode: string }> => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(error)}`);
    return { appError: appErrorFromTrpc(error), trpcCode: error.code };
  };

  it("creates, reads, lists, updates and archives a vault as an API key, auditing who did it", async () => {
    const api = callerAs(tenant.authorization);
    const created = await api.vaults.create({ name: "Treasury", networkCode: "QUANTUM_SANDBOX", metadata: { desk: "fx" } });
    expect(created).toMatchObject({
      tenantId: tenant.tenantId,
      name: "Treasury",
      networkCode: "QUANTUM_SANDBOX",
      status: "ACTIVE",
      metadata: { desk: "fx" },
    });
    expect(await api.vaults.get({ vaultAccountId: created.id })).toEqual(created);
    expect((await api.vaults.list({ limit: 50 })).vaults.map((v) => v.id)).toContain(created.id);

    const renamed = await api.vaults.update({ vaultAccountId: created.id, name: "Treasury (EU)" });
    expect(renamed).toMatchObject({ id: created.id, name: "Treasury (EU)", metadata: { desk: "fx" } });
    const archived = await api.vaults.archive({ vaultAccountId: created.id });
    expect(archived).toMatchObject({ id: created.id, status: "ARCHIVED" });
    expect(await api.vaults.archive({ vaultAccountId: created.id })).toEqual(archived);
    expect((await api.vaults.list({ limit: 50, status: "ACTIVE" })).vaults.map((v) => v.id)).not.toContain(created.id);

    const { appError, trpcCode } = await refusal(api.vaults.update({ vaultAccountId: created.id, name: "Again" }));
    expect(appError).toMatchObject({ error: "VAULT_ARCHIVED", code: 1101, status: 409, details: { vaultId: created.id } });
    expect(trpcCode).toBe("CONFLICT");

    const [audit] = (await listAuditEvents(t.db, { tenantId: tenant.tenantId, limit: 10, action: "vault.created" })).events;
    expect(audit).toMatchObject({
      actorType: "api_key",
      actorId: tenant.keyId,
      targetId: created.id,
      ip: "198.51.100.7",
      requestId: expect.stringMatching(/^req_caller_/),
    });
  });

  it("answers 404 NOT_FOUND for another tenant's vault, and leaves it unchanged", async () => {
    const owner = callerAs(tenant.authorization);
    const vault = await owner.vaults.create({ name: "Mine", networkCode: "QUANTUM_MAINNET" });
    const other = callerAs((await createTenantFixture({ db: t.db, pepper })).authorization);
    for (const call of [
      () => other.vaults.get({ vaultAccountId: vault.id }),
      () => other.vaults.update({ vaultAccountId: vault.id, name: "Theirs" }),
      () => other.vaults.archive({ vaultAccountId: vault.id }),
    ]) {
      const { appError, trpcCode } = await refusal(call());
      expect(appError).toMatchObject({ error: "NOT_FOUND", code: 1030, status: 404 });
      expect(trpcCode).toBe("NOT_FOUND");
    }
    expect((await other.vaults.list({ limit: 50 })).vaults).toEqual([]);
    expect(await owner.vaults.get({ vaultAccountId: vault.id })).toEqual(vault);
  });

  it("refuses invalid input with 400 VALIDATION_FAILED naming the fields", async () => {
    const api = callerAs(tenant.authorization);
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    const metadata = await refusal(api.vaults.create({ name: "Big", networkCode: "QUANTUM_SANDBOX", metadata: tooMany }));
    expect(metadata.appError).toMatchObject({
      error: "VALIDATION_FAILED",
      code: 1001,
      status: 400,
      details: { fields: [expect.objectContaining({ path: "metadata" })] },
    });
    expect(metadata.trpcCode).toBe("BAD_REQUEST");
    const network = await refusal(api.vaults.create({ name: "Odd", networkCode: "ETHEREUM" as never }));
    expect(network.appError).toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [expect.objectContaining({ path: "networkCode" })] },
    });
    const id = await refusal(api.vaults.get({ vaultAccountId: "not-a-uuid" }));
    expect(id.appError).toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [expect.objectContaining({ path: "vaultAccountId" })] },
    });
  });

  it("enforces credentials and scope before any service runs", async () => {
    const anonymous = await refusal(callerAs(undefined).vaults.list({ limit: 10 }));
    expect(anonymous.appError).toMatchObject({ error: "UNAUTHENTICATED", code: 1010, status: 401 });
    expect(anonymous.trpcCode).toBe("UNAUTHORIZED");
    const wrongSecret = await refusal(callerAs(`Bearer ${tenant.keyId}:${"x".repeat(tenant.secret.length)}`).vaults.list({ limit: 10 }));
    expect(wrongSecret.appError).toMatchObject({ error: "UNAUTHENTICATED" });

    const readOnly = callerAs((await createKeyFixture({ db: t.db, pepper }, tenant, ["read"])).authorization);
    const before = (await readOnly.vaults.list({ limit: 200 })).vaults.length;
    const write = await refusal(readOnly.vaults.create({ name: "Nope", networkCode: "QUANTUM_SANDBOX" }));
    expect(write.appError).toMatchObject({ error: "INSUFFICIENT_SCOPE", code: 1020, status: 403 });
    expect(write.trpcCode).toBe("FORBIDDEN");
    expect((await readOnly.vaults.list({ limit: 200 })).vaults).toHaveLength(before);
  });
});
