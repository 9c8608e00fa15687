import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLogger } from "@qc/core";
import { createTenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { JobContext } from "../context";
import { decideSandboxKyc } from "./kyc-sandbox-decide";

describe("job kyc.sandbox-decide", () => {
  const t = useTestDatabase();
  const ctx = () => ({ database: t, log: createLogger("kyc-test", "silent"), now: () => new Date(), config: { emailFrom: "x", production: false } }) as unknown as JobContext;

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
    const events = await t.db.select().from(schema.eventOutbox).where(and(eq(schema.eventOutbox.tenantId, tenantId), eq(schema.eventOutbox.type, "tenant.verification_changed")));
    expect(events).toHaveLength(1);
    const audit = await t.db.select().from(schema.auditEvents).where(and(eq(schema.auditEvents.tenantId, tenantId), eq(schema.auditEvents.action, "kyc.decided")));
    expect(audit).toEqual([expect.objectContaining({ actorType: "system", targetId: reference })]);
  });

  it("leaves a case decided meanwhile, or gone, as it is", async () => {
    const { tenantId, reference } = await pendingCase();
    await t.db.update(schema.kycCases).set({ status: "REJECTED", decidedAt: new Date() }).where(eq(schema.kycCases.reference, reference));
    await t.db.update(schema.tenants).set({ status: "REJECTED" }).where(eq(schema.tenants.id, tenantId));
    expect(await decideSandboxKyc({ tenantId, reference }, ctx())).toEqual({ applied: false, skipped: "CONFLICT" });
    expect(await tenantStatus(tenantId)).toBe("REJECTED");
    expect(await decideSandboxKyc({ tenantId, reference: "sandbox_gone" }, ctx())).toEqual({ applied: false, skipped: "NOT_FOUND" });
  });
});
