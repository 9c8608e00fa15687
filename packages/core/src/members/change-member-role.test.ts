import { randomBytes } from "node:crypto";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor, userActor } from "../audit/actor";
import { Authenticator } from "../auth/authenticator";
import { createLogger } from "../logger";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { changeMemberRole } from "./change-member-role";
import { listMembers } from "./list-members";

describe("changeMemberRole (CONTRACT §14)", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);
  const now = () => new Date();
  let authenticator: Authenticator;
  beforeAll(() => {
    authenticator = new Authenticator({ database: t, pepper, now, log: createLogger("test", "silent") });
  });
  afterAll(() => authenticator?.close());
  const deps = () => ({ db: t.db, now, authenticator });
  const change = (
    tenant: TenantFixture,
    by: TenantFixture | "system",
    userId: string,
    role: "OWNER" | "ADMIN" | "INITIATOR" | "APPROVER" | "VIEWER",
  ) =>
    changeMemberRole(deps(), {
      tenantId: tenant.tenantId,
      userId,
      role,
      actor: by === "system" ? systemActor("test") : userActor(by.userId),
    });

  it("lets an ADMIN change members who are not owners, and only an OWNER make or unmake an OWNER", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const admin = await createMemberFixture({ db: t.db, pepper }, owner, "ADMIN");
    const viewer = await createMemberFixture({ db: t.db, pepper }, owner, "VIEWER");
    await expect(change(owner, admin, viewer.userId, "INITIATOR")).resolves.toMatchObject({ userId: viewer.userId, role: "INITIATOR" });
    await expect(change(owner, admin, viewer.userId, "OWNER")).rejects.toMatchObject({ error: "INSUFFICIENT_ROLE" });
    await expect(change(owner, admin, owner.userId, "VIEWER")).rejects.toMatchObject({ error: "INSUFFICIENT_ROLE" });
    await expect(change(owner, viewer, admin.userId, "VIEWER")).rejects.toMatchObject({ error: "INSUFFICIENT_ROLE" });
    await expect(change(owner, owner, admin.userId, "OWNER")).resolves.toMatchObject({ role: "OWNER" });
    const audit = await t.db
      .select({ details: schema.auditEvents.details, actorId: schema.auditEvents.actorId })
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, owner.tenantId), eq(schema.auditEvents.action, "member.role_changed")));
    expect(audit).toEqual([
      { details: { from: "VIEWER", to: "INITIATOR" }, actorId: admin.userId },
      { details: { from: "ADMIN", to: "OWNER" }, actorId: owner.userId },
    ]);
    const { members } = await listMembers(t, { tenantId: owner.tenantId, limit: 10 });
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [viewer.userId, "INITIATOR"],
      [admin.userId, "OWNER"],
      [owner.userId, "OWNER"],
    ]);
  });

  it("refuses to demote the last OWNER (409 LAST_OWNER), also when two owners step down at once", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    await expect(change(owner, owner, owner.userId, "ADMIN")).rejects.toMatchObject({ error: "LAST_OWNER" });
    await expect(change(owner, "system", owner.userId, "VIEWER")).rejects.toMatchObject({ error: "LAST_OWNER" });
    const second = await createMemberFixture({ db: t.db, pepper }, owner, "OWNER");
    const outcomes = await Promise.allSettled([change(owner, owner, owner.userId, "ADMIN"), change(owner, second, second.userId, "ADMIN")]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { error: "LAST_OWNER" } });
    const { members } = await listMembers(t, { tenantId: owner.tenantId, limit: 10 });
    expect(members.filter((m) => m.role === "OWNER")).toHaveLength(1);
  });

  it("answers 404 for a member of another tenant and changes nothing there", async () => {
    const mine = await createTenantFixture({ db: t.db, pepper });
    const theirs = await createTenantFixture({ db: t.db, pepper });
    const victim = await createMemberFixture({ db: t.db, pepper }, theirs, "VIEWER");
    await expect(change(mine, mine, victim.userId, "ADMIN")).rejects.toMatchObject({ error: "NOT_FOUND" });
    const [row] = await t.db.select({ role: schema.users.role }).from(schema.users).where(eq(schema.users.id, victim.userId));
    expect(row?.role).toBe("VIEWER");
  });
});
