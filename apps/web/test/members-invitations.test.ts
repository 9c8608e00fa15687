import { createMemberFixture, createSessionFixture, createTenantFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { and, desc, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { eventually, postJson, STRONG_PASSWORD, uniqueEmail } from "./identity-helpers";

/** The server's clock, moved by the expiry test. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const DAY_MS = 24 * 3600_000;

/**
 * Invitations and member removal over REST on real PostgreSQL (CONTRACT §14): invite → the email
 * in the dev outbox → accept → log in → act with the role; single use, expiry, revocation, taken
 * addresses, other tenants' ids, the owners' rules, and a removed member's key refused on the
 * other instance while it is in use.
 */
describe("member invitations and removal", () => {
  const t = useTestDatabase();
  let a: TestServer;
  let b: TestServer;
  const generous = {
    tenantPerSecond: 100_000,
    tenantBurstExtra: 100_000,
    signupPerHour: 1_000,
    signupLockSeconds: 1,
    resendPerHourPerIp: 1_000,
    resendPerHourPerEmail: 1_000,
  };
  beforeAll(async () => {
    // Bad tokens count towards the source's lockout: a threshold this file's refusals cannot reach.
    const lockout = { failures: 1_000, windowSeconds: 600, lockSeconds: 1 };
    a = await startTestServer({ database: t, now: clock.now, rateLimits: generous, lockout });
    b = await startTestServer({ database: t, rateLimits: generous, lockout });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const answer = (res: TestResponse) => `${res.status} ${res.status < 400 ? "" : (res.json() as { error: string }).error}`.trim();
  const invite = (by: { authorization: string }, email: string, role: string, server = a) =>
    postJson(server, "/v1/members/invitations", { email, role }, { authorization: by.authorization });
  const revoke = (by: { authorization: string }, id: string) =>
    call(a, `/v1/members/invitations/${id}`, { method: "DELETE", headers: { authorization: by.authorization } });
  const remove = (by: { authorization: string }, userId: string) =>
    call(a, `/v1/members/${userId}`, { method: "DELETE", headers: { authorization: by.authorization } });
  const accept = (token: string, name = "Bob Stone", password = STRONG_PASSWORD) =>
    postJson(a, "/v1/members/invitations/accept", { token, name, password });
  const invitations = async (by: { authorization: string }) =>
    (await call(a, "/v1/members/invitations", { headers: { authorization: by.authorization } })).json<{
      invitations: { id: string; email: string; role: string; status: string }[];
    }>().invitations;
  /** The invitation link of the newest email to `to`, read from the dev outbox (the emails table). */
  const invitationToken = async (to: string): Promise<string> => {
    const [email] = await t.db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.to, to), eq(schema.emails.kind, "member_invitation")))
      .orderBy(desc(schema.emails.id))
      .limit(1);
    const match = /https:\/\/localhost\/accept-invite\?token=([A-Za-z0-9_-]{43})(?:\s|$)/.exec(email?.text ?? "");
    if (!match) throw new Error(`no invitation link to ${to}: ${email?.text}`);
    return match[1]!;
  };
  const createVault = (server: TestServer, authorization: string) =>
    call(server, "/v1/vault/accounts", {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ name: "Ops", networkCode: "QUANTUM_SANDBOX" }),
    });

  it("invites by email, accepts with the emailed token once, and the new member logs in and acts with the role", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const email = uniqueEmail("bob");
    const sent = await invite(owner, email.toUpperCase(), "INITIATOR");
    expect(sent.status, sent.text).toBe(201);
    const invitation = sent.json<{ id: string; expiresAt: string; createdAt: string }>();
    expect(invitation).toEqual({
      id: expect.any(String),
      email,
      role: "INITIATOR",
      status: "PENDING",
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * DAY_MS);
    const token = await invitationToken(email);
    // Only the hash is stored.
    const [stored] = await t.db.select().from(schema.invitations).where(eq(schema.invitations.id, invitation.id));
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const accepted = await accept(token);
    expect(accepted.status, accepted.text).toBe(201);
    const joined = accepted.json<{ userId: string; tenantId: string; email: string; role: string }>();
    expect(joined).toEqual({ userId: expect.any(String), tenantId: owner.tenantId, email, role: "INITIATOR" });
    expect(answer(await accept(token))).toBe("400 INVALID_TOKEN");
    expect(answer(await accept("not-a-token-we-issued"))).toBe("400 INVALID_TOKEN");

    // The email counts as verified: the member logs in at once and acts as an INITIATOR.
    const login = await postJson(a, "/v1/auth/login", { email, password: STRONG_PASSWORD });
    expect(login.status, login.text).toBe(200);
    const session = `Bearer ${login.json<{ token: string }>().token}`;
    expect(answer(await createVault(a, session))).toBe("201");
    const policy = await call(a, "/v1/policies", {
      method: "PUT",
      headers: { authorization: session, "content-type": "application/json" },
      body: JSON.stringify({ rules: [] }),
    });
    expect(answer(policy)).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await invite({ authorization: session }, uniqueEmail(), "VIEWER"))).toBe("403 INSUFFICIENT_ROLE");

    expect((await invitations(owner)).find((i) => i.id === invitation.id)?.status).toBe("ACCEPTED");
    const members = (await call(a, "/v1/members", { headers: { authorization: owner.authorization } })).json<{
      members: { userId: string; role: string }[];
    }>().members;
    expect(members[0]).toMatchObject({ userId: joined.userId, role: "INITIATOR" });
    // The dashboard's names for the same procedures (tRPC).
    const trpcList = await call(a, `/api/trpc/members.invitations.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, {
      headers: { authorization: session },
    });
    expect(trpcList.status, trpcList.text).toBe(200);

    const audit = await t.db
      .select({ action: schema.auditEvents.action, actorId: schema.auditEvents.actorId, actorUserId: schema.auditEvents.actorUserId })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.tenantId, owner.tenantId))
      .orderBy(schema.auditEvents.id);
    expect(audit.filter((row) => row.action.startsWith("invitation.") || row.action === "member.added")).toEqual([
      { action: "invitation.sent", actorId: owner.keyId, actorUserId: owner.userId },
      { action: "member.added", actorId: joined.userId, actorUserId: joined.userId },
      { action: "invitation.accepted", actorId: joined.userId, actorUserId: joined.userId },
    ]);
  });

  it("counts bad tokens towards the source address's lockout, like failed logins", async () => {
    const strict = await startTestServer({
      database: t,
      rateLimits: generous,
      lockout: { failures: 3, windowSeconds: 600, lockSeconds: 600 },
      trustProxyHops: 1,
    });
    try {
      const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
      const email = uniqueEmail("locked");
      expect(answer(await invite(owner, email, "VIEWER"))).toBe("201");
      const token = await invitationToken(email);
      const from = (ip: string) => ({ "x-forwarded-for": ip });
      const acceptFrom = (ip: string, body: unknown) => postJson(strict, "/v1/members/invitations/accept", body, from(ip));
      for (let i = 0; i < 3; i++)
        expect(answer(await acceptFrom("203.0.113.50", { token: `guess-${i}`, name: "X", password: STRONG_PASSWORD }))).toBe(
          "400 INVALID_TOKEN",
        );
      // Locked out now, even with the right token; another address is not.
      expect(answer(await acceptFrom("203.0.113.50", { token, name: "Dana", password: STRONG_PASSWORD }))).toBe("429 LOCKED_OUT");
      expect(answer(await acceptFrom("203.0.113.51", { token, name: "Dana", password: STRONG_PASSWORD }))).toBe("201");
    } finally {
      await strict.close();
    }
  });

  it("refuses an expired invitation, and lists it EXPIRED", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const email = uniqueEmail("late");
    expect(answer(await invite(owner, email, "VIEWER"))).toBe("201");
    const token = await invitationToken(email);
    try {
      clock.offsetMs = 7 * DAY_MS + 60_000;
      expect((await invitations(owner)).map((i) => i.status)).toEqual(["EXPIRED"]);
      expect(answer(await accept(token))).toBe("400 INVALID_TOKEN");
    } finally {
      clock.offsetMs = 0;
    }
    // Just inside the 7 days it still works.
    const fresh = uniqueEmail("in-time");
    expect(answer(await invite(owner, fresh, "VIEWER"))).toBe("201");
    try {
      clock.offsetMs = 7 * DAY_MS - 60_000;
      expect(answer(await accept(await invitationToken(fresh)))).toBe("201");
    } finally {
      clock.offsetMs = 0;
    }
  });

  it("revokes an invitation (204, its link stops working); a newer invitation to the same address replaces the older", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const email = uniqueEmail("carol");
    const first = (await invite(owner, email, "APPROVER")).json<{ id: string }>();
    const firstToken = await invitationToken(email);
    const revoked = await revoke(owner, first.id);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe("");
    expect(answer(await accept(firstToken))).toBe("400 INVALID_TOKEN");
    expect(answer(await revoke(owner, first.id))).toBe("204");

    const second = (await invite(owner, email, "APPROVER")).json<{ id: string }>();
    const secondToken = await invitationToken(email);
    const third = (await invite(owner, email, "VIEWER")).json<{ id: string }>();
    const thirdToken = await invitationToken(email);
    expect(answer(await accept(secondToken))).toBe("400 INVALID_TOKEN");
    expect((await invitations(owner)).map((i) => [i.id, i.status])).toEqual([
      [third.id, "PENDING"],
      [second.id, "REVOKED"],
      [first.id, "REVOKED"],
    ]);
    expect((await accept(thirdToken)).json()).toMatchObject({ email, role: "VIEWER" });
    // Accepted: revoking it now changes nothing.
    expect(answer(await revoke(owner, third.id))).toBe("204");
    expect((await invitations(owner))[0]).toMatchObject({ id: third.id, status: "ACCEPTED" });
  });

  it("answers 409 EMAIL_ALREADY_REGISTERED for an address that has an account, in this tenant or another", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const other = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    expect(answer(await invite(owner, owner.email, "ADMIN"))).toBe("409 EMAIL_ALREADY_REGISTERED");
    expect(answer(await invite(owner, other.email, "ADMIN"))).toBe("409 EMAIL_ALREADY_REGISTERED");
    // Invited by two tenants: the first acceptance wins, the second answers 409 and its invitation stays pending.
    const email = uniqueEmail("popular");
    expect(answer(await invite(owner, email, "VIEWER"))).toBe("201");
    const mine = await invitationToken(email);
    expect(answer(await invite(other, email, "VIEWER"))).toBe("201");
    const theirs = await invitationToken(email);
    expect(answer(await accept(theirs))).toBe("201");
    expect(answer(await accept(mine))).toBe("409 EMAIL_ALREADY_REGISTERED");
    expect((await invitations(owner))[0]?.status).toBe("PENDING");
  });

  it("answers 404 for another tenant's invitation and member, and lists only the tenant's own invitations", async () => {
    const mine = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const theirs = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const theirMember = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, theirs, "VIEWER");
    const theirInvitation = (await invite(theirs, uniqueEmail("theirs"), "VIEWER")).json<{ id: string }>();
    expect(answer(await revoke(mine, theirInvitation.id))).toBe("404 NOT_FOUND");
    expect(answer(await remove(mine, theirMember.userId))).toBe("404 NOT_FOUND");
    expect(await invitations(mine)).toEqual([]);
    expect((await invitations(theirs)).map((i) => [i.id, i.status])).toEqual([[theirInvitation.id, "PENDING"]]);
    expect(answer(await call(a, "/v1/members", { headers: { authorization: theirMember.authorization } }))).toBe("200");
  });

  it("lets an ADMIN invite and remove members but not owners; only an OWNER invites, revokes or removes an OWNER", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const admin = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "ADMIN");
    const viewer = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "VIEWER");
    const secondOwner = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "OWNER");
    expect(answer(await invite(viewer, uniqueEmail(), "VIEWER"))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await invite(admin, uniqueEmail(), "OWNER"))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await invite(admin, uniqueEmail(), "ADMIN"))).toBe("201");
    const ownerInvitation = (await invite(owner, uniqueEmail("next-owner"), "OWNER")).json<{ id: string }>();
    expect(answer(await revoke(admin, ownerInvitation.id))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await remove(admin, secondOwner.userId))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await remove(viewer, admin.userId))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await remove(admin, viewer.userId))).toBe("204");
    expect(answer(await revoke(owner, ownerInvitation.id))).toBe("204");
    expect(answer(await remove(owner, secondOwner.userId))).toBe("204");
    // Removed: no longer a member, 404 from now on.
    expect(answer(await remove(owner, viewer.userId))).toBe("404 NOT_FOUND");
  });

  it("keeps the last OWNER: removing them is 409 LAST_OWNER, whoever asks", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const session = await createSessionFixture({ db: t.db }, owner);
    expect(answer(await remove(session, owner.userId))).toBe("409 LAST_OWNER");
    const second = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "OWNER");
    expect(answer(await remove(second, owner.userId))).toBe("204");
    expect(answer(await remove(second, second.userId))).toBe("409 LAST_OWNER");
    const members = (await call(a, "/v1/members", { headers: { authorization: second.authorization } })).json<{
      members: { userId: string; role: string }[];
    }>().members;
    expect(members.map((m) => [m.userId, m.role])).toEqual([[second.userId, "OWNER"]]);
  });

  it("removes a member while their key is in use: refused here at once, on the other instance within 5 s; their session and login end", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const member = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "INITIATOR");
    const session = await createSessionFixture({ db: t.db }, member);
    // A past action of theirs, through their key.
    const vault = await createVault(a, member.authorization);
    expect(answer(vault)).toBe("201");
    const vaultId = vault.json<{ id: string }>().id;
    // Instance b has the key cached, and keeps using it while the removal happens on a.
    expect(answer(await call(b, "/v1/vault/accounts", { headers: { authorization: member.authorization } }))).toBe("200");
    let removedAt = Number.POSITIVE_INFINITY;
    const late: string[] = [];
    let stop = false;
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const res = await call(b, "/v1/vault/accounts", { headers: { authorization: member.authorization } });
        // A success that started after the removal had answered, once b has refused the key, would be a leak.
        if (res.status === 200 && performance.now() > removedAt + 5_000) late.push(answer(res));
        if (res.status !== 200) expect(answer(res)).toBe("401 CREDENTIAL_REVOKED");
      }
    });
    let refusedWithin: number;
    try {
      await new Promise((r) => setTimeout(r, 200));
      const removed = await remove(owner, member.userId);
      removedAt = performance.now();
      expect(answer(removed)).toBe("204");
      expect(answer(await call(a, "/v1/vault/accounts", { headers: { authorization: member.authorization } }))).toBe(
        "401 CREDENTIAL_REVOKED",
      );
      refusedWithin = await eventually(async () => {
        const res = await call(b, "/v1/vault/accounts", { headers: { authorization: member.authorization } });
        return res.status === 401 ? performance.now() - removedAt : undefined;
      }, 5_000);
    } finally {
      stop = true;
      await Promise.all(load);
    }
    expect(refusedWithin).toBeLessThan(5_000);
    expect(late).toEqual([]);
    // Once refused on b, it stays refused.
    expect(answer(await call(b, "/v1/vault/accounts", { headers: { authorization: member.authorization } }))).toBe(
      "401 CREDENTIAL_REVOKED",
    );

    expect((await call(a, "/v1/vault/accounts", { headers: { authorization: session.authorization } })).status).toBe(401);
    expect(answer(await postJson(a, "/v1/auth/login", { email: member.email, password: MEMBER_FIXTURE_PASSWORD }))).toBe(
      "401 UNAUTHENTICATED",
    );
    // The address stays taken: no silent re-invitation.
    expect(answer(await invite(owner, member.email, "VIEWER"))).toBe("409 EMAIL_ALREADY_REGISTERED");
    const members = (await call(a, "/v1/members", { headers: { authorization: owner.authorization } })).json<{
      members: { userId: string }[];
    }>().members;
    expect(members.map((m) => m.userId)).toEqual([owner.userId]);

    // Their past action stays theirs in the audit trail, by key and by member; the removal names what ended.
    const events = (await call(a, "/v1/audit-events?limit=50", { headers: { authorization: owner.authorization } })).json<{
      events: { action: string; actorType: string; actorId: string; actorUserId: string | null; targetId: string; details: object }[];
    }>().events;
    expect(events.find((e) => e.action === "vault.created" && e.targetId === vaultId)).toMatchObject({
      actorType: "api_key",
      actorId: member.keyId,
      actorUserId: member.userId,
    });
    expect(events.find((e) => e.action === "member.removed")).toMatchObject({
      actorType: "api_key",
      actorId: owner.keyId,
      actorUserId: owner.userId,
      targetId: member.userId,
      details: { role: "INITIATOR", sessionsEnded: 1, keysRevoked: [member.keyId] },
    });
  });
});
