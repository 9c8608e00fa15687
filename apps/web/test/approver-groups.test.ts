import { createMemberFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { memberRequests } from "./member-requests";
import { fundedSource, nativeTransfer } from "./transfers-front-helpers";

interface Group {
  id: string;
  name: string;
  memberIds: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * Approver groups over REST (CONTRACT §15): CRUD, who may change them (§14: `administer`), what a
 * group may hold, the policy that names them (PUT /v1/policies refuses unknown groups and quorums
 * above a group's size; a group the policy needs cannot be deleted or shrunk below it), the
 * members' `approverGroupIds` and a removal taking a member out of every group, and the audit rows.
 */
describe("approver groups", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  const { send, answer } = memberRequests(() => server);
  const fixtures = { db: () => ({ db: t.db, pepper: TEST_PEPPER }) };
  const member = (owner: TenantFixture, role: "ADMIN" | "INITIATOR" | "APPROVER" | "VIEWER") =>
    createMemberFixture(fixtures.db(), owner, role);
  const createGroup = async (by: TenantFixture, body: { name: string; memberIds: string[] }): Promise<Group> => {
    const res = await send(by, "POST", "/v1/approver-groups", body);
    expect(res.status, res.text).toBe(201);
    return res.json<Group>();
  };
  const requireApproval = (groupId: string, quorum: number) => ({
    defaultAction: "ALLOW",
    rules: [{ id: "large", name: "Large transfers", action: "REQUIRE_APPROVAL", match: {}, approvals: [{ groupId, quorum }] }],
  });
  const auditRows = (tenantId: string, action: string) =>
    t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, tenantId), eq(schema.auditEvents.action, action)))
      .orderBy(schema.auditEvents.createdAt);

  it("creates, lists, reads, renames, re-members and deletes a group, audited with the members before and after", async () => {
    const owner = await createTenantFixture(fixtures.db());
    const alice = await member(owner, "APPROVER");
    const bob = await member(owner, "INITIATOR");

    const group = await createGroup(owner, { name: "  Treasury approvers ", memberIds: [alice.userId, bob.userId, alice.userId] });
    expect(group).toMatchObject({ name: "Treasury approvers", memberIds: [alice.userId, bob.userId] });
    expect(new Date(group.createdAt).toISOString()).toBe(group.createdAt);

    const second = await createGroup(owner, { name: "Nobody yet", memberIds: [] });
    const list = await send(alice, "GET", "/v1/approver-groups?limit=1");
    expect(list.status, list.text).toBe(200);
    const first = list.json<{ groups: Group[]; page: { nextCursor: string | null; hasMore: boolean } }>();
    expect(first.groups.map((g) => g.id)).toEqual([second.id]);
    expect(first.page.hasMore).toBe(true);
    const rest = (await send(alice, "GET", `/v1/approver-groups?limit=1&cursor=${first.page.nextCursor}`)).json<{ groups: Group[] }>();
    expect(rest.groups).toEqual([group]);

    expect((await send(bob, "GET", `/v1/approver-groups/${group.id}`)).json()).toEqual(group);

    const renamed = await send(owner, "PUT", `/v1/approver-groups/${group.id}`, { name: "Treasury (EU)" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json()).toMatchObject({ id: group.id, name: "Treasury (EU)", memberIds: [alice.userId, bob.userId] });
    const reMembered = await send(owner, "PUT", `/v1/approver-groups/${group.id}`, { memberIds: [bob.userId] });
    expect(reMembered.json()).toMatchObject({ name: "Treasury (EU)", memberIds: [bob.userId] });

    const members = (await send(owner, "GET", "/v1/members")).json<{ members: { userId: string; approverGroupIds: string[] }[] }>();
    const groupsOf = (userId: string) => members.members.find((m) => m.userId === userId)?.approverGroupIds;
    expect(groupsOf(bob.userId)).toEqual([group.id]);
    expect(groupsOf(alice.userId)).toEqual([]);
    expect((await send(bob, "GET", "/v1/members/me")).json()).toMatchObject({ userId: bob.userId, approverGroupIds: [group.id] });

    expect(answer(await send(owner, "DELETE", `/v1/approver-groups/${group.id}`))).toBe("204");
    expect(answer(await send(owner, "GET", `/v1/approver-groups/${group.id}`))).toBe("404 NOT_FOUND");
    expect(answer(await send(owner, "DELETE", `/v1/approver-groups/${group.id}`))).toBe("404 NOT_FOUND");

    const updated = await auditRows(owner.tenantId, "approver_group.updated");
    expect(updated.map((row) => row.details)).toEqual([
      {
        before: { name: "Treasury approvers", memberIds: [alice.userId, bob.userId] },
        after: { name: "Treasury (EU)", memberIds: [alice.userId, bob.userId] },
      },
      {
        before: { name: "Treasury (EU)", memberIds: [alice.userId, bob.userId] },
        after: { name: "Treasury (EU)", memberIds: [bob.userId] },
      },
    ]);
    expect((await auditRows(owner.tenantId, "approver_group.created")).map((row) => row.details)).toEqual([
      { name: "Treasury approvers", memberIds: [alice.userId, bob.userId] },
      { name: "Nobody yet", memberIds: [] },
    ]);
    const [deleted] = await auditRows(owner.tenantId, "approver_group.deleted");
    expect(deleted).toMatchObject({
      targetId: group.id,
      actorId: owner.keyId,
      details: { name: "Treasury (EU)", memberIds: [bob.userId] },
    });
  });

  it("lets only OWNER and ADMIN change groups (403 INSUFFICIENT_ROLE), every member read them", async () => {
    const owner = await createTenantFixture(fixtures.db());
    const admin = await member(owner, "ADMIN");
    const group = await createGroup(admin, { name: "Ops", memberIds: [admin.userId] });
    for (const role of ["INITIATOR", "APPROVER", "VIEWER"] as const) {
      const someone = await member(owner, role);
      const session = await createSessionFixture({ db: t.db }, someone);
      for (const by of [someone, session]) {
        expect(answer(await send(by, "POST", "/v1/approver-groups", { name: "Mine", memberIds: [] })), role).toBe("403 INSUFFICIENT_ROLE");
        expect(answer(await send(by, "PUT", `/v1/approver-groups/${group.id}`, { name: "Mine" })), role).toBe("403 INSUFFICIENT_ROLE");
        expect(answer(await send(by, "DELETE", `/v1/approver-groups/${group.id}`)), role).toBe("403 INSUFFICIENT_ROLE");
        expect(answer(await send(by, "GET", `/v1/approver-groups/${group.id}`)), role).toBe("200");
      }
    }
    expect((await send(owner, "GET", `/v1/approver-groups/${group.id}`)).json()).toMatchObject({ name: "Ops" });
  });

  it("refuses members that are not the tenant's, removed members, and names that are not plain text", async () => {
    const owner = await createTenantFixture(fixtures.db());
    const other = await createTenantFixture(fixtures.db());
    const leaving = await member(owner, "APPROVER");
    expect(answer(await send(owner, "DELETE", `/v1/members/${leaving.userId}`))).toBe("204");
    const unknown = "0194f2c4-0000-7000-8000-000000000001";
    const refused = await send(owner, "POST", "/v1/approver-groups", {
      name: "Ops",
      memberIds: [owner.userId, other.userId, leaving.userId, unknown],
    });
    expect(answer(refused)).toBe("400 VALIDATION_FAILED");
    expect(refused.json<{ details: { fields: { path: string }[] } }>().details.fields.map((f) => f.path)).toEqual([
      "memberIds.1",
      "memberIds.2",
      "memberIds.3",
    ]);
    expect(refused.json<{ message: string }>().message).toContain(other.userId);
    for (const name of ["", "   ", "a\u0000b", "line\nbreak", "x".repeat(201)])
      expect(answer(await send(owner, "POST", "/v1/approver-groups", { name, memberIds: [] })), JSON.stringify(name)).toBe(
        "400 VALIDATION_FAILED",
      );
    expect(answer(await send(owner, "POST", "/v1/approver-groups", { name: "Ops", memberIds: ["not-a-uuid"] }))).toBe(
      "400 VALIDATION_FAILED",
    );
    const group = await createGroup(owner, { name: "Ops", memberIds: [owner.userId] });
    expect(answer(await send(owner, "PUT", `/v1/approver-groups/${group.id}`, {}))).toBe("400 VALIDATION_FAILED");
    expect(answer(await send(owner, "PUT", `/v1/approver-groups/${group.id}`, { memberIds: [other.userId] }))).toBe(
      "400 VALIDATION_FAILED",
    );
    // Another tenant's group is not found, whatever the verb.
    for (const [method, body] of [["GET"], ["PUT", { name: "Mine" }], ["DELETE"]] as const)
      expect(answer(await send(other, method, `/v1/approver-groups/${group.id}`, body)), method).toBe("404 NOT_FOUND");
    expect((await send(other, "GET", "/v1/approver-groups")).json()).toEqual({ groups: [], page: { nextCursor: null, hasMore: false } });
  });

  it("holds the policy and its groups to each other: unknown groups and quorums above a group's size are 400, a needed group cannot go", async () => {
    const owner = await createTenantFixture(fixtures.db());
    const other = await createTenantFixture(fixtures.db());
    const [a, b] = [await member(owner, "APPROVER"), await member(owner, "APPROVER")];
    const group = await createGroup(owner, { name: "Two", memberIds: [a.userId, b.userId] });
    const theirs = await createGroup(other, { name: "Theirs", memberIds: [other.userId] });

    const policy = (approvals: { groupId: string; quorum: number }[]) => ({
      defaultAction: "ALLOW",
      rules: [
        { id: "small", name: "Small", action: "ALLOW", match: { amountAbove: "0" } },
        { id: "large", name: "Large transfers", action: "REQUIRE_APPROVAL", match: {}, approvals },
      ],
    });
    const refused = await send(
      owner,
      "PUT",
      "/v1/policies",
      policy([
        { groupId: group.id, quorum: 3 },
        { groupId: theirs.id, quorum: 1 },
      ]),
    );
    expect(answer(refused)).toBe("400 VALIDATION_FAILED");
    expect(refused.json<{ details: { fields: { path: string; message: string }[] } }>().details.fields).toEqual([
      { path: "rules.1.approvals.0", message: expect.stringContaining("quorum 3 is above the 2 member(s)") },
      { path: "rules.1.approvals.1", message: expect.stringContaining("is not one of the tenant's groups") },
    ]);
    expect((await send(owner, "GET", "/v1/policies")).json()).toMatchObject({ version: 0 });

    const accepted = await send(owner, "PUT", "/v1/policies", policy([{ groupId: group.id, quorum: 2 }]));
    expect(accepted.status, accepted.text).toBe(200);

    const deleting = await send(owner, "DELETE", `/v1/approver-groups/${group.id}`);
    expect(answer(deleting)).toBe("409 CONFLICT");
    expect(deleting.json<{ message: string }>().message).toContain('"Large transfers" (large)');
    const shrinking = await send(owner, "PUT", `/v1/approver-groups/${group.id}`, { memberIds: [a.userId] });
    expect(answer(shrinking)).toBe("409 CONFLICT");
    expect(shrinking.json<{ message: string }>().message).toContain('"Large transfers" (large)');
    // Renaming and swapping members at the same size are fine.
    const c = await member(owner, "INITIATOR");
    expect(
      answer(await send(owner, "PUT", `/v1/approver-groups/${group.id}`, { name: "Still two", memberIds: [a.userId, c.userId] })),
    ).toBe("200");

    // Once the policy no longer names the group, it goes.
    expect(answer(await send(owner, "PUT", "/v1/policies", { defaultAction: "ALLOW", rules: [] }))).toBe("200");
    expect(answer(await send(owner, "DELETE", `/v1/approver-groups/${group.id}`))).toBe("204");
  });

  it("takes a removed member out of every group in the removal, even below the policy's quorum, and the policy then blocks", async () => {
    const source = await fundedSource(() => server, t.db, undefined, 0n);
    const owner = source.tenant;
    const [a, b] = [await member(owner, "APPROVER"), await member(owner, "APPROVER")];
    const pair = await createGroup(owner, { name: "Pair", memberIds: [a.userId, b.userId] });
    const solo = await createGroup(owner, { name: "Solo", memberIds: [a.userId] });
    expect(answer(await send(owner, "PUT", "/v1/policies", requireApproval(pair.id, 2)))).toBe("200");

    const evaluate = async () => {
      const res = await source.api.post("/v1/policies/evaluate", nativeTransfer(source, 10n));
      expect(res.status, res.text).toBe(200);
      return res.json();
    };
    expect(await evaluate()).toMatchObject({ decision: "REQUIRE_APPROVAL", ruleId: "large", approvals: [{ groupId: pair.id, quorum: 2 }] });

    expect(answer(await send(owner, "DELETE", `/v1/members/${a.userId}`))).toBe("204");
    expect((await send(owner, "GET", `/v1/approver-groups/${pair.id}`)).json()).toMatchObject({ memberIds: [b.userId] });
    expect((await send(owner, "GET", `/v1/approver-groups/${solo.id}`)).json()).toMatchObject({ memberIds: [] });
    const [removal] = await auditRows(owner.tenantId, "member.removed");
    expect(removal?.details).toMatchObject({ approverGroupsLeft: [pair.id, solo.id].sort() });

    const blocked = await evaluate();
    expect(blocked).toMatchObject({ decision: "BLOCK", ruleId: "large" });
    expect(blocked.reason).toContain(`approver group ${pair.id} has 1 member(s), fewer than its quorum of 2`);
    expect(blocked).not.toHaveProperty("approvals");
  });
});
