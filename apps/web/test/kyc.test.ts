import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter, authedProcedure, createRouter, mergeRouters } from "@qc/api";
import { signKycCallback } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Daemon } from "@qc/daemon";
import { call, startTestServer, TEST_KYC_SECRET, TEST_PEPPER, type TestServer } from "./harness";
import { eventually, postJson, signedKycCallback, startTestDaemon } from "./identity-helpers";

// A value-moving route that exists only in this test: the tier under test is the production one.
const probeRouter = createRouter({
  kycProbe: createRouter({
    move: authedProcedure
      .meta({ scope: "write", valueMoving: true, openapi: { method: "POST", path: "/v1/kyc-probe/move", protect: true } })
      .input(z.object({}).optional())
      .output(z.object({ moved: z.boolean() }))
      .mutation(() => ({ moved: true })),
  }),
});
const router = mergeRouters(appRouter, probeRouter);

describe("onboarding and KYC", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let sandbox: TestServer;
  beforeAll(async () => {
    // `server` leaves decisions to the signed callback: its sandbox decides only after an hour.
    // `sandbox` is the built-in provider as a developer runs it, deciding after 200 ms.
    server = await startTestServer({
      database: t,
      router,
      config: { kyc: { provider: "sandbox", webhookSecret: TEST_KYC_SECRET, sandboxDelayMs: 3600_000 } },
    });
    sandbox = await startTestServer({
      database: t,
      router,
      config: { kyc: { provider: "sandbox", webhookSecret: TEST_KYC_SECRET, sandboxDelayMs: 200 } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  const pendingTenant = () => createTenantFixture({ db: t.db, pepper: TEST_PEPPER }, { status: "PENDING_VERIFICATION" });
  const auth = (tenant: TenantFixture) => ({ authorization: tenant.authorization });
  const status = async (tenant: TenantFixture) => (await call(server, "/v1/onboarding/status", { headers: auth(tenant) })).json();
  const startKyc = (tenant: TenantFixture, target = server) => postJson(target, "/v1/onboarding/kyc", {}, auth(tenant));
  const events = (tenantId: string) =>
    t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.tenantId, tenantId), eq(schema.eventOutbox.type, "tenant.verification_changed")));

  it("refuses a callback without a valid signature over the raw body (401), changing nothing", async () => {
    const tenant = await pendingTenant();
    const { kyc } = (await startKyc(tenant)).json();
    const body = { tenantId: tenant.tenantId, decision: "APPROVED", reference: kyc.reference };
    const raw = JSON.stringify(body);
    const attempts = [
      await signedKycCallback(server, body, { signature: null }),
      await signedKycCallback(server, body, { secret: "some-other-secret-entirely" }),
      await signedKycCallback(server, body, { signature: "sha256=zz" }),
      await signedKycCallback(server, body, { signature: signKycCallback(TEST_KYC_SECRET, raw).replace("sha256=", "") }),
      // Signed over other bytes (same JSON meaning, other whitespace): still refused.
      await signedKycCallback(server, body, { raw: JSON.stringify(body, null, 2), signature: signKycCallback(TEST_KYC_SECRET, raw) }),
    ];
    for (const res of attempts) {
      expect(res.status, res.text).toBe(401);
      expect(res.json()).toMatchObject({ error: "UNAUTHENTICATED", code: 1010 });
    }
    // Unsigned garbage learns nothing about the body's shape either.
    const garbage = await signedKycCallback(server, { nonsense: true }, { signature: null });
    expect(garbage.status).toBe(401);
    expect((await status(tenant)).status).toBe("PENDING_VERIFICATION");
    await server.deps.authenticator.flushAudit(); // refusals are audited through the buffer
    const audited = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "auth.failed"));
    // Counted per source and minute (no tenant is named): the counts add up to the refusals.
    const refusals = audited.filter((a) => (a.details as { via?: string }).via === "kyc_callback");
    expect(
      refusals.reduce((sum, a) => sum + ((a.details as { aggregated?: { count: number } }).aggregated?.count ?? 1), 0),
    ).toBeGreaterThanOrEqual(6);
  });

  it("blocks value-moving routes until a signed approval; the decision is idempotent and emits one event", async () => {
    const tenant = await pendingTenant();
    expect(await status(tenant)).toEqual({
      tenantId: tenant.tenantId,
      status: "PENDING_VERIFICATION",
      emailVerified: true,
      kyc: null,
      valueMovingEnabled: false,
      nextStep: "START_KYC",
    });
    const blocked = await postJson(server, "/v1/kyc-probe/move", {}, auth(tenant));
    expect(blocked.status).toBe(403);
    expect(blocked.json()).toMatchObject({ error: "TENANT_NOT_VERIFIED", code: 1022 });

    // Starting needs admin; a read key is refused.
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]);
    expect((await postJson(server, "/v1/onboarding/kyc", {}, { authorization: reader.authorization })).json().error).toBe(
      "INSUFFICIENT_SCOPE",
    );
    expect((await call(server, "/v1/onboarding/status", { headers: { authorization: reader.authorization } })).status).toBe(200);

    const started = await startKyc(tenant);
    expect(started.status, started.text).toBe(201);
    const { kyc } = started.json();
    expect(kyc).toMatchObject({ tenantId: tenant.tenantId, status: "PENDING", provider: "sandbox", decidedAt: null, reason: null });
    // Idempotent while pending: the same case, 200.
    const again = await startKyc(tenant);
    expect(again.status).toBe(200);
    expect(again.json().kyc.reference).toBe(kyc.reference);
    expect(await status(tenant)).toMatchObject({
      nextStep: "AWAIT_KYC_DECISION",
      kyc: { status: "PENDING", provider: "sandbox", decidedAt: null },
    });

    const decision = { tenantId: tenant.tenantId, decision: "APPROVED", reference: kyc.reference };
    const approved = await signedKycCallback(server, decision);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json()).toMatchObject({
      applied: true,
      tenantId: tenant.tenantId,
      tenantStatus: "VERIFIED",
      kyc: { status: "APPROVED", reference: kyc.reference },
    });

    const moved = await postJson(server, "/v1/kyc-probe/move", {}, auth(tenant));
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json()).toEqual({ moved: true });
    expect(await status(tenant)).toMatchObject({
      status: "VERIFIED",
      valueMovingEnabled: true,
      nextStep: "NONE",
      kyc: { status: "APPROVED", decidedAt: expect.any(String) },
    });

    // Replay: 200, nothing changes, no second event or audit row.
    const replay = await signedKycCallback(server, decision);
    expect(replay.status).toBe(200);
    expect(replay.json()).toMatchObject({ applied: false, tenantStatus: "VERIFIED" });
    const emitted = await events(tenant.tenantId);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]!.data).toMatchObject({
      tenantId: tenant.tenantId,
      status: "VERIFIED",
      previousStatus: "PENDING_VERIFICATION",
      kyc: { reference: kyc.reference, status: "APPROVED" },
    });
    const decided = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "kyc.decided"), eq(schema.auditEvents.tenantId, tenant.tenantId)));
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({
      actorType: "provider",
      targetId: kyc.reference,
      details: expect.objectContaining({ decision: "APPROVED", status: "VERIFIED", source: "callback" }),
    });
    const startedAudit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "kyc.started"), eq(schema.auditEvents.tenantId, tenant.tenantId)));
    expect(startedAudit).toHaveLength(1);

    // A contradicting decision for the decided case is a conflict; a verified tenant cannot start again.
    const contradiction = await signedKycCallback(server, { ...decision, decision: "REJECTED", reason: "late" });
    expect(contradiction.status).toBe(409);
    expect(contradiction.json().error).toBe("CONFLICT");
    const restart = await startKyc(tenant);
    expect(restart.status).toBe(409);
    expect(restart.json()).toMatchObject({ error: "CONFLICT", code: 1040 });
  });

  it("lets a rejected tenant resubmit; unknown cases and other tenants' cases are 404", async () => {
    const tenant = await pendingTenant();
    const first = (await startKyc(tenant)).json().kyc;
    const rejected = await signedKycCallback(server, {
      tenantId: tenant.tenantId,
      decision: "REJECTED",
      reference: first.reference,
      reason: "document unreadable",
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.json()).toMatchObject({
      applied: true,
      tenantStatus: "REJECTED",
      kyc: { status: "REJECTED", reason: "document unreadable" },
    });
    expect(await status(tenant)).toMatchObject({
      status: "REJECTED",
      valueMovingEnabled: false,
      nextStep: "RESUBMIT_KYC",
      kyc: { status: "REJECTED", reason: "document unreadable" },
    });
    expect((await postJson(server, "/v1/kyc-probe/move", {}, auth(tenant))).json().error).toBe("TENANT_NOT_VERIFIED");

    const second = await startKyc(tenant);
    expect(second.status).toBe(201);
    expect(second.json().kyc.reference).not.toBe(first.reference);
    expect(await status(tenant)).toMatchObject({
      status: "REJECTED",
      nextStep: "AWAIT_KYC_DECISION",
      kyc: { status: "PENDING", reason: null },
    });

    const stranger = await pendingTenant();
    const foreign = await signedKycCallback(server, {
      tenantId: stranger.tenantId,
      decision: "APPROVED",
      reference: second.json().kyc.reference,
    });
    expect(foreign.status).toBe(404);
    const unknown = await signedKycCallback(server, { tenantId: tenant.tenantId, decision: "APPROVED", reference: "no-such-reference" });
    expect(unknown.status).toBe(404);
    const invalid = await signedKycCallback(server, { tenantId: tenant.tenantId, decision: "MAYBE", reference: "x" });
    expect(invalid.status).toBe(400);
    expect(invalid.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["decision"]);

    const approved = await signedKycCallback(server, {
      tenantId: tenant.tenantId,
      decision: "APPROVED",
      reference: second.json().kyc.reference,
    });
    expect(approved.json()).toMatchObject({ applied: true, tenantStatus: "VERIFIED" });
    expect((await events(tenant.tenantId)).map((e) => (e.data as { status: string }).status)).toEqual(["REJECTED", "VERIFIED"]);
  });

  describe("with the daemon", () => {
    let daemon: Daemon;
    beforeAll(async () => {
      daemon = await startTestDaemon(t.url);
    });
    afterAll(() => daemon?.stop({ timeoutMs: 5_000 }));

    it("the sandbox provider approves a started case through the daemon job, after its delay", async () => {
      const tenant = await pendingTenant();
      const started = await startKyc(tenant, sandbox);
      expect(started.status).toBe(201);
      const startedAt = Date.now();
      const verified = await eventually(
        async () => {
          const current = await status(tenant);
          return current.status === "VERIFIED" ? current : undefined;
        },
        20_000,
        50,
      );
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(150);
      expect(verified).toMatchObject({ valueMovingEnabled: true, nextStep: "NONE", kyc: { status: "APPROVED", provider: "sandbox" } });
      expect((await postJson(server, "/v1/kyc-probe/move", {}, auth(tenant))).status).toBe(200);
      const [audit] = await t.db
        .select()
        .from(schema.auditEvents)
        .where(and(eq(schema.auditEvents.action, "kyc.decided"), eq(schema.auditEvents.tenantId, tenant.tenantId)));
      expect(audit).toMatchObject({ actorType: "system", details: expect.objectContaining({ source: "sandbox", decision: "APPROVED" }) });
      expect(await events(tenant.tenantId)).toHaveLength(1);
      // The provider's own callback for the same decision afterwards is a harmless replay.
      const replay = await signedKycCallback(server, {
        tenantId: tenant.tenantId,
        decision: "APPROVED",
        reference: started.json().kyc.reference,
      });
      expect(replay.json()).toMatchObject({ applied: false });
    });

    it("a case decided by callback first leaves the sandbox job nothing to do", async () => {
      const tenant = await pendingTenant();
      const { kyc } = (await startKyc(tenant, sandbox)).json();
      await signedKycCallback(server, {
        tenantId: tenant.tenantId,
        decision: "REJECTED",
        reference: kyc.reference,
        reason: "sanctions hit",
      });
      const [job] = (
        await t.db.execute<{ id: string }>(
          `select id from pgboss.job where name = 'kyc.sandbox-decide' and data->>'reference' = '${kyc.reference}'`,
        )
      ).rows;
      const done = await eventually(async () => {
        const found = await daemon.boss.getJobById("kyc.sandbox-decide", job!.id);
        return found?.state === "completed" ? found : undefined;
      });
      expect(done.output).toMatchObject({ skipped: "CONFLICT" });
      expect((await status(tenant)).status).toBe("REJECTED");
    });
  });
});
