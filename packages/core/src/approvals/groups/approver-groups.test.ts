import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../../deps/service-deps";
import { getPolicy } from "../../policies/get-policy";
import { replacePolicy } from "../../policies/replace-policy";
import { createTenantFixture } from "../../testing/fixtures";
import { createMemberFixture } from "../../testing/member-fixtures";
import { createTestServiceDeps } from "../../testing/service-deps";
import { createApproverGroup } from "./create-approver-group";
import { deleteApproverGroup } from "./delete-approver-group";
import { getApproverGroup } from "./list-approver-groups";
import { updateApproverGroup } from "./update-approver-group";

/**
 * A group change and a policy replacement that names the group, started at once (CONTRACT §15):
 * the locks order them, so the stored policy never names a group that is gone or smaller than
 * its quorum, whichever wins.
 */
describe("approver groups and the policy, concurrently", () => {
  const t = useTestDatabase();
  const pepper = Buffer.alloc(32, 3);
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
  });
  afterAll(() => deps.close());

  const requiring = (groupId: string, quorum: number) => ({
    defaultAction: "ALLOW" as const,
    rules: [{ id: "r", name: "R", action: "REQUIRE_APPROVAL" as const, approvals: [{ groupId, quorum }] }],
  });

  it("never leaves a stored policy naming a deleted group, nor a quorum above the group's size", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const actor = { type: "user" as const, id: owner.userId };
    const other = await createMemberFixture({ db: t.db, pepper }, owner, "APPROVER");
    const outcomes = { deleted: 0, shrunk: 0, policies: 0 };
    for (let round = 0; round < 8; round++) {
      await replacePolicy(deps, { tenantId: owner.tenantId, actor, document: { defaultAction: "ALLOW", rules: [] } });
      const group = await createApproverGroup(deps, {
        tenantId: owner.tenantId,
        name: `G${round}`,
        memberIds: [owner.userId, other.userId],
        actor,
      });
      const change =
        round % 2 === 0
          ? deleteApproverGroup(deps, { tenantId: owner.tenantId, groupId: group.id, actor })
          : updateApproverGroup(deps, { tenantId: owner.tenantId, groupId: group.id, memberIds: [owner.userId], actor });
      const [changed, stored] = await Promise.allSettled([
        change,
        replacePolicy(deps, { tenantId: owner.tenantId, actor, document: requiring(group.id, 2) }),
      ]);
      // Exactly one of the two goes through.
      expect([changed.status, stored.status].sort(), `round ${round}`).toEqual(["fulfilled", "rejected"]);
      const policy = await getPolicy(deps, { tenantId: owner.tenantId });
      if (stored.status === "fulfilled") {
        outcomes.policies += 1;
        expect((await getApproverGroup(deps, { tenantId: owner.tenantId, groupId: group.id })).memberIds).toHaveLength(2);
        expect(changed).toMatchObject({ status: "rejected", reason: { error: "CONFLICT" } });
      } else {
        if (round % 2 === 0) outcomes.deleted += 1;
        else outcomes.shrunk += 1;
        expect(stored).toMatchObject({ status: "rejected", reason: { error: "VALIDATION_FAILED" } });
        expect(policy.rules).toEqual([]);
      }
    }
    expect(outcomes.deleted + outcomes.shrunk + outcomes.policies).toBe(8);
  });
});
