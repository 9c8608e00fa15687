import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, classifyJobError, type ServiceDeps } from "@qc/core";
import { createTenantFixture, createTestServiceDeps } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { decideSandboxKyc } from "./kyc-sandbox-decide";

describe("job kyc.sandbox-decide", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
  });
  afterAll(() => deps.close());
  const ctx = () => deps;

  const pendingCase = async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: randomBytes(32) }, { status: "PENDING_VERIFICATION" });
    const reference = `sandbox_${randomBytes(8).toString("hex")}`;
    await t.db.insert(schema.kycCases).values({ tenantId: tenant.tenantId, provider: "sandbox", reference, startedAt: new Date() });
    return { tenantId: tenant.tenantId, reference };
  };
  const tenantStatus = async (id: string) => (await t.db.select().from(schema.tenants).where(eq(schema.tenants.id, id)))[0]!.status;

  it("approves a pending case through the decision service, once", async () => {
    const { tenantId, reference } = await pendingCase();
    expect(await decideSandboxKyc({ tenantId, reference }, ctx())).toEqual({ applied: true, tenantStatus: "VERIFIED" });
    expect(await tenantStatus(tenantId)).toBe("VERIFIED");
    expect(await decideSandboxKyc({ tenantId, reference }, ctx())).toEqual({ applied: false, tenantStatus: "VERIFIED" });
    const events = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.tenantId, tenantId), eq(schema.eventOutbox.type, "tenant.verification_changed")));
    expect(events).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, tenantId), eq(schema.auditEvents.action, "kyc.decided")));
    expect(audit).toEqual([expect.objectContaining({ actorType: "system", targetId: reference })]);
  });

  it("leaves a case decided otherwise meanwhile (skipped) or gone (dead-lettered) as it is", async () => {
    const { tenantId, reference } = await pendingCase();
    await t.db.update(schema.kycCases).set({ status: "REJECTED", decidedAt: new Date() }).where(eq(schema.kycCases.reference, reference));
    await t.db.update(schema.tenants).set({ status: "REJECTED" }).where(eq(schema.tenants.id, tenantId));
    const conflict = await decideSandboxKyc({ tenantId, reference }, ctx()).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(AppError);
    expect((conflict as AppError).error).toBe("CONFLICT");
    expect(classifyJobError(conflict)).toBe("skip");
    expect(await tenantStatus(tenantId)).toBe("REJECTED");
    const gone = await decideSandboxKyc({ tenantId, reference: "sandbox_gone" }, ctx()).catch((e: unknown) => e);
    expect((gone as AppError).error).toBe("NOT_FOUND");
    expect(classifyJobError(gone)).toBe("dead-letter");
  });
});
