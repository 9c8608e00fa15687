import { createMemberFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";

/** Members and roles over REST (CONTRACT §14): the list, role changes and their rules, and a change applied on every instance. */
describe("members", () => {
  const t = useTestDatabase();
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ database: t });
    b = await startTestServer({ database: t });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const setRole = (server: TestServer, by: { authorization: string }, userId: string, role: string): Promise<TestResponse> =>
    call(server, `/v1/members/${userId}`, {
      method: "PUT",
      headers: { authorization: by.authorization, "content-type": "application/json" },
      body: JSON.stringify({ role }),
    });
  const answer = (res: TestResponse) => `${res.status} ${res.status < 400 ? "" : (res.json() as { error: string }).error}`.trim();

  it("lists the members with their roles; an ADMIN changes members but not owners; the last OWNER stays", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const admin = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "ADMIN");
    const viewer = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "VIEWER");

    const list = await call(a, "/v1/members", { headers: { authorization: viewer.authorization } });
    expect(list.status, list.text).toBe(200);
    const { members, page } = list.json() as { members: { userId: string; role: string; status: string }[]; page: unknown };
    expect(members.map((m) => [m.userId, m.role, m.status])).toEqual([
      [viewer.userId, "VIEWER", "ACTIVE"],
      [admin.userId, "ADMIN", "ACTIVE"],
      [owner.userId, "OWNER", "ACTIVE"],
    ]);
    expect(page).toEqual({ nextCursor: null, hasMore: false });

    expect(answer(await setRole(a, viewer, admin.userId, "VIEWER"))).toBe("403 INSUFFICIENT_ROLE");
    const promoted = await setRole(a, admin, viewer.userId, "INITIATOR");
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json()).toMatchObject({
      userId: viewer.userId,
      role: "INITIATOR",
      status: "ACTIVE",
      passkeys: 0,
      approverGroupIds: [],
    });
    expect(answer(await setRole(a, admin, viewer.userId, "OWNER"))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await setRole(a, admin, owner.userId, "ADMIN"))).toBe("403 INSUFFICIENT_ROLE");
    const session = await createSessionFixture({ db: t.db }, owner);
    expect(answer(await setRole(a, session, owner.userId, "ADMIN"))).toBe("409 LAST_OWNER");
    expect(answer(await setRole(a, session, admin.userId, "OWNER"))).toBe("200");
    expect(answer(await setRole(a, session, owner.userId, "ADMIN"))).toBe("200");
  });

  it("answers 404 for another tenant's member", async () => {
    const mine = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const theirs = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const victim: TenantFixture = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, theirs, "VIEWER");
    expect(answer(await setRole(a, mine, victim.userId, "ADMIN"))).toBe("404 NOT_FOUND");
    const theirList = await call(a, "/v1/members", { headers: { authorization: theirs.authorization } });
    expect((theirList.json() as { members: { userId: string; role: string }[] }).members).toContainEqual(
      expect.objectContaining({ userId: victim.userId, role: "VIEWER" }),
    );
  });

  it("applies a role change to the member's API key on the other instance too, without waiting for the cache", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const initiator = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "INITIATOR");
    const createVault = (server: TestServer) =>
      call(server, "/v1/vault/accounts", {
        method: "POST",
        headers: { authorization: initiator.authorization, "content-type": "application/json" },
        body: JSON.stringify({ name: "Ops", networkCode: "QUANTUM_SANDBOX" }),
      });
    // Instance b has the key cached with the INITIATOR's role.
    expect(answer(await createVault(b))).toBe("201");
    expect(answer(await setRole(a, owner, initiator.userId, "VIEWER"))).toBe("200");
    expect(answer(await createVault(a))).toBe("403 INSUFFICIENT_ROLE");
    // Well inside the cache's minute: on the notification (docs/members.md).
    expect(await eventually(async () => answer(await createVault(b)) === "403 INSUFFICIENT_ROLE", 5_000)).toBe(true);
  });
});
