import { deleteApproverGroup } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApproverGroup } from "../approvals/groups/create-approver-group";
import { Authenticator } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { createLogger } from "../logger";
import { removeMember } from "../members/remove-member";
import { createTenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { decideTransferPolicy } from "./decide-transfer-policy";
import { replacePolicy } from "./replace-policy";
import { POLICY_TRANSFER as transfer } from "../testing/policy-fixtures";

/**
 * decideTransferPolicy against the database (CONTRACT §15): a REQUIRE_APPROVAL rule whose group is
 * gone, or now smaller than its quorum, blocks the transfer saying why; met, it names the
 * requirement. PUT /v1/policies refuses both up front; a group can still shrink later through a
 * member's removal, and a policy stored before can name a group that is gone.
 */
describe("decideTransferPolicy with approval requirements", () => {
  const t = useTestDatabase();
  const pepper = Buffer.alloc(32, 9);
  let deps: ServiceDeps & { close(): Promise<void> };
  let authenticator: Authenticator;
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
    authenticator = new Authenticator({ database: t, pepper, now: () => new Date(), log: createLogger("test", "silent") });
  });
  afterAll(async () => {
    await authenticator?.close();
    await deps?.close();
  });

  it("requires the quorum while the group can meet it, and blocks once a removal leaves it too small or the group is gone", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const actor = { type: "user" as const, id: owner.userId };
    const [a, b] = [
      await createMemberFixture({ db: t.db, pepper }, owner, "APPROVER"),
      await createMemberFixture({ db: t.db, pepper }, owner, "APPROVER"),
    ];
    const pair = await createApproverGroup(deps, { tenantId: owner.tenantId, name: "Pair", memberIds: [a.userId, b.userId], actor });
    const solo = await createApproverGroup(deps, { tenantId: owner.tenantId, name: "Solo", memberIds: [owner.userId], actor });
    const approvals = [
      { groupId: pair.id, quorum: 2 },
      { groupId: solo.id, quorum: 1 },
    ];
    await replacePolicy(deps, {
      tenantId: owner.tenantId,
      actor,
      document: { defaultAction: "ALLOW", rules: [{ id: "all", name: "Everything", action: "REQUIRE_APPROVAL", approvals }] },
    });
    const decide = () => decideTransferPolicy(t.db, { tenantId: owner.tenantId, transfer, at: new Date(), now: new Date() });

    expect(await decide()).toMatchObject({ decision: "REQUIRE_APPROVAL", ruleId: "all", approvals });

    await removeMember({ ...deps, authenticator }, { tenantId: owner.tenantId, userId: b.userId, actor });
    const small = await decide();
    expect(small).toMatchObject({ decision: "BLOCK", ruleId: "all", policyVersion: 1 });
    expect(small.reason).toBe(
      `blocked by policy rule "Everything" (all): its approval cannot be met (approver group ${pair.id} has 1 member(s), fewer than its quorum of 2)`,
    );
    expect(small).not.toHaveProperty("approvals");

    // A group gone from under a stored policy (the routes refuse to delete one a policy names).
    await deleteApproverGroup(t.db, { tenantId: owner.tenantId, groupId: solo.id });
    await replacePolicy(deps, {
      tenantId: owner.tenantId,
      actor,
      document: {
        defaultAction: "ALLOW",
        rules: [{ id: "all", name: "Everything", action: "REQUIRE_APPROVAL", approvals: [{ groupId: pair.id, quorum: 1 }] }],
      },
    });
    expect(await decide()).toMatchObject({ decision: "REQUIRE_APPROVAL", approvals: [{ groupId: pair.id, quorum: 1 }] });
    await deleteApproverGroup(t.db, { tenantId: owner.tenantId, groupId: pair.id });
    const gone = await decide();
    expect(gone).toMatchObject({ decision: "BLOCK", ruleId: "all" });
    expect(gone.reason).toContain(`approver group ${pair.id} no longer exists`);
  });

  it("refuses to store a policy naming another tenant's group or a quorum above a group's size", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const other = await createTenantFixture({ db: t.db, pepper });
    const actor = { type: "user" as const, id: owner.userId };
    const mine = await createApproverGroup(deps, { tenantId: owner.tenantId, name: "Mine", memberIds: [owner.userId], actor });
    const theirs = await createApproverGroup(deps, { tenantId: other.tenantId, name: "Theirs", memberIds: [other.userId], actor });
    const store = (approvals: { groupId: string; quorum: number }[]) =>
      replacePolicy(deps, {
        tenantId: owner.tenantId,
        actor,
        document: { defaultAction: "BLOCK", rules: [{ id: "r", name: "R", action: "REQUIRE_APPROVAL", approvals }] },
      });
    await expect(store([{ groupId: theirs.id, quorum: 1 }])).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "rules.0.approvals.0" }] },
    });
    await expect(
      store([
        { groupId: mine.id, quorum: 1 },
        { groupId: "0194f2c4-0000-7000-8000-0000000000aa", quorum: 1 },
      ]),
    ).rejects.toMatchObject({ details: { fields: [{ path: "rules.0.approvals.1" }] } });
    await expect(store([{ groupId: mine.id, quorum: 2 }])).rejects.toMatchObject({
      details: { fields: [{ path: "rules.0.approvals.0" }] },
    });
    expect(await store([{ groupId: mine.id, quorum: 1 }])).toMatchObject({ version: 1 });
  });
});
