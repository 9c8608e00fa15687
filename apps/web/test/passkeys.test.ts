import { createMemberFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { fromIp, postJson, signUpAndVerify } from "./identity-helpers";
import { errorName } from "./security/api-surface";
import { SoftwareAuthenticator, type SoftwarePasskey } from "./passkeys-authenticator";

/**
 * Passkeys over HTTPS (CONTRACT §14): registration (tRPC, as the dashboard does it), the OWNER's
 * requirePasskey switch, the login's passkey step refusing a wrong, replayed or cloned answer,
 * removal and recovery (REST). The passkeys are a software authenticator's
 * (passkeys-authenticator.ts); the dashboard's browser test uses Chromium's virtual authenticator.
 */
describe("passkeys", () => {
  const t = useTestDatabase();
  let server: TestServer;
  const authenticator = new SoftwareAuthenticator({ rpId: "localhost", origin: "https://localhost" });
  beforeAll(async () => {
    server = await startTestServer({ database: t, trustProxyHops: 1 });
  });
  afterAll(() => server?.close());

  const answer = (res: TestResponse) => `${res.status} ${errorName(res) ?? ""}`.trim();
  const send = (method: string, path: string, authorization: string, body?: unknown) =>
    call(server, path, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }), ...fromIp("198.51.100.7") },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** The dashboard's own procedures (tRPC, superjson envelope): the signed-in member's passkeys. */
  const trpc = (type: "query" | "mutation", path: string, authorization: string, input: unknown = {}) =>
    type === "query"
      ? call(server, `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, {
          headers: { authorization, ...fromIp("198.51.100.7") },
        })
      : postJson(server, `/api/trpc/${path}`, { json: input }, { authorization, ...fromIp("198.51.100.7") });
  const data = <T>(res: TestResponse): T => res.json<{ result: { data: { json: T } } }>().result.data.json;
  const logIn = (email: string, password: string, ip: string) => postJson(server, "/v1/auth/login", { email, password }, fromIp(ip));
  const passwordSession = async (email: string, password: string, ip: string) => {
    const res = await logIn(email, password, ip);
    expect(res.status, res.text).toBe(200);
    return `Bearer ${res.json<{ token: string }>().token}`;
  };

  async function register(authorization: string, name: string): Promise<{ id: string; passkey: SoftwarePasskey }> {
    const options = await trpc("mutation", "passkeys.registrationOptions", authorization);
    expect(options.status, options.text).toBe(200);
    const { challengeId, options: creation } = data<{ challengeId: string; options: { challenge: string; rp: { id: string } } }>(options);
    expect(creation.rp.id).toBe("localhost");
    const made = authenticator.register(creation);
    const res = await trpc("mutation", "passkeys.register", authorization, { challengeId, name, response: made.response });
    expect(res.status, res.text).toBe(200);
    return { id: data<{ id: string }>(res).id, passkey: made.passkey };
  }

  const auditRows = (tenantId: string, action: string) =>
    t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, tenantId), eq(schema.auditEvents.action, action)));

  it("registers a passkey for the signed-in member, session only, single-use challenge, listed without key material", async () => {
    const owner = await signUpAndVerify(server, t.db, fromIp("198.51.100.10"));
    const session = await passwordSession(owner.email, owner.password, "198.51.100.10");
    const { id } = await register(session, "YubiKey");
    const list = await trpc("query", "passkeys.listOwn", session);
    expect(list.status, list.text).toBe(200);
    expect(data(list)).toEqual({
      passkeys: [{ id, name: "YubiKey", transports: ["usb"], createdAt: expect.any(String), lastUsedAt: null }],
    });
    // The member list counts it.
    const members = (await send("GET", "/v1/members", session)).json() as { members: { userId: string; passkeys: number }[] };
    expect(members.members.find((m) => m.userId === owner.userId)?.passkeys).toBe(1);
    expect(await auditRows(owner.tenantId, "passkey.added")).toEqual([
      expect.objectContaining({
        actorType: "user",
        actorId: owner.userId,
        targetId: id,
        details: { userId: owner.userId, name: "YubiKey" },
      }),
    ]);

    // The challenge is used up by the first answer, verified or not.
    const options = await trpc("mutation", "passkeys.registrationOptions", session);
    const { challengeId, options: creation } = data<{ challengeId: string; options: { challenge: string } }>(options);
    const wrongOrigin = new SoftwareAuthenticator({ origin: "https://evil.example" }).register(creation);
    expect(answer(await trpc("mutation", "passkeys.register", session, { challengeId, name: "x", response: wrongOrigin.response }))).toBe(
      "400 VALIDATION_FAILED",
    );
    const again = authenticator.register(creation);
    expect(answer(await trpc("mutation", "passkeys.register", session, { challengeId, name: "x", response: again.response }))).toBe(
      "400 INVALID_TOKEN",
    );

    // Another member's challenge is not this member's to answer; an API key registers nothing (session only).
    const admin = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "ADMIN");
    const adminSession = await passwordSession(admin.email, MEMBER_FIXTURE_PASSWORD, "198.51.100.10");
    const ownerOptions = data<{ challengeId: string; options: { challenge: string } }>(
      await trpc("mutation", "passkeys.registrationOptions", session),
    );
    const stolen = authenticator.register(ownerOptions.options);
    expect(
      answer(
        await trpc("mutation", "passkeys.register", adminSession, {
          challengeId: ownerOptions.challengeId,
          name: "x",
          response: stolen.response,
        }),
      ),
    ).toBe("400 INVALID_TOKEN");
    expect(answer(await trpc("mutation", "passkeys.registrationOptions", admin.authorization))).toBe("403 INSUFFICIENT_SCOPE");

    // The member removes their own passkey (the tenant does not require one): gone, audited.
    expect(answer(await trpc("mutation", "passkeys.removeOwn", session, { passkeyId: id }))).toBe("200");
    expect(data(await trpc("query", "passkeys.listOwn", session))).toEqual({ passkeys: [] });
    expect((await auditRows(owner.tenantId, "passkey.removed")).map((r) => r.details)).toEqual([
      { userId: owner.userId, name: "YubiKey", byOwner: false },
    ]);
  });

  it("requirePasskey: OWNER only, and only with a passkey (409 PASSKEY_REQUIRED); audited", async () => {
    const owner = await signUpAndVerify(server, t.db, fromIp("198.51.100.20"));
    const session = await passwordSession(owner.email, owner.password, "198.51.100.20");
    const admin = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "ADMIN");
    expect((await send("GET", "/v1/settings/security", session)).json()).toEqual({ requirePasskey: false });

    const refused = await send("PUT", "/v1/settings/security", session, { requirePasskey: true });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json()).toMatchObject({ error: "PASSKEY_REQUIRED", code: 1303 });
    expect(answer(await send("PUT", "/v1/settings/security", admin.authorization, { requirePasskey: true }))).toBe("403 INSUFFICIENT_ROLE");

    await register(session, "laptop");
    const on = await send("PUT", "/v1/settings/security", session, { requirePasskey: true });
    expect(on.status, on.text).toBe(200);
    expect(on.json()).toEqual({ requirePasskey: true });
    expect((await send("GET", "/v1/settings/security", admin.authorization)).json()).toEqual({ requirePasskey: true });
    expect((await auditRows(owner.tenantId, "settings.require_passkey_changed")).map((r) => r.details)).toEqual([
      { before: false, after: true },
    ]);
  });

  it("with requirePasskey the password gets a challenge and no session; the passkey step refuses a wrong, replayed or cloned answer", async () => {
    const ip = "198.51.100.30";
    const owner = await signUpAndVerify(server, t.db, fromIp(ip));
    const session = await passwordSession(owner.email, owner.password, ip);
    const { id: passkeyId, passkey } = await register(session, "key");
    expect(answer(await send("PUT", "/v1/settings/security", session, { requirePasskey: true }))).toBe("200");

    const stepOne = async () => {
      const res = await logIn(owner.email, owner.password, ip);
      expect(res.status, res.text).toBe(200);
      expect(res.headers["set-cookie"]).toBeUndefined();
      const body = res.json<{
        passkeyRequired: true;
        challengeId: string;
        options: { challenge: string; allowCredentials: { id: string }[] };
      }>();
      expect(body).not.toHaveProperty("token");
      expect(body.passkeyRequired).toBe(true);
      return body;
    };
    const stepTwo = (challengeId: string, response: unknown) =>
      postJson(server, "/v1/auth/login/passkey", { challengeId, response }, fromIp(ip));

    // A passkey the member never registered (another key, same credential id): refused, and the challenge is gone.
    const first = await stepOne();
    expect(first.options.allowCredentials.map((c) => c.id)).toEqual([passkey.credentialId.toString("base64url")]);
    const impostor = { ...authenticator.register({ challenge: "x" }).passkey, credentialId: passkey.credentialId };
    expect(answer(await stepTwo(first.challengeId, authenticator.authenticate(impostor, first.options)))).toBe("401 UNAUTHENTICATED");
    expect(answer(await stepTwo(first.challengeId, authenticator.authenticate(passkey, first.options)))).toBe("401 UNAUTHENTICATED");

    // The right passkey: the normal login answer, token and cookie; the audit row names the passkey.
    const second = await stepOne();
    const good = authenticator.authenticate(passkey, second.options);
    const done = await stepTwo(second.challengeId, good);
    expect(done.status, done.text).toBe(200);
    expect(String(done.headers["set-cookie"])).toMatch(/^__Host-qc_session=qs_/);
    const token = done.json<{ token: string }>().token;
    expect((await trpc("query", "passkeys.listOwn", `Bearer ${token}`)).status).toBe(200);
    const logins = await auditRows(owner.tenantId, "auth.logged_in");
    expect(logins.filter((r) => r.details.passkeyId === passkeyId)).toHaveLength(1);

    // The same answer again: its challenge is used.
    expect(answer(await stepTwo(second.challengeId, good))).toBe("401 UNAUTHENTICATED");
    // A clone of the authenticator answering a fresh challenge with a counter that did not grow.
    const third = await stepOne();
    expect(answer(await stepTwo(third.challengeId, authenticator.authenticate(passkey, third.options, passkey.counter - 1)))).toBe(
      "401 UNAUTHENTICATED",
    );
    const fourth = await stepOne();
    expect(answer(await stepTwo(fourth.challengeId, authenticator.authenticate(passkey, fourth.options)))).toBe("200");
    const [stored] = await t.db.select().from(schema.passkeys).where(eq(schema.passkeys.id, passkeyId));
    expect(stored!.counter).toBe(passkey.counter - 1);
    expect(stored!.lastUsedAt).not.toBeNull();
    // Each ceremony deletes the member's spent challenges: only the last one, used, is left.
    const challenges = await t.db.select().from(schema.webauthnChallenges).where(eq(schema.webauthnChallenges.userId, owner.userId));
    expect(challenges.map((c) => c.usedAt !== null)).toEqual([true]);

    await server.deps.authenticator.flushAudit();
    const failures = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "auth.failed"), eq(schema.auditEvents.tenantId, owner.tenantId)));
    // The wrong key and the clone name the member; the used challenges name nobody (counted per source, as unknown emails).
    expect(failures.map((r) => [r.details.via, r.details.reason, r.actorId])).toEqual([
      ["login_passkey", "passkey_not_verified", owner.userId],
      ["login_passkey", "passkey_not_verified", owner.userId],
    ]);
  });

  it("API keys are unaffected; a member without a passkey is 409 after the right password; OWNER recovery removes another's passkey", async () => {
    const ip = "198.51.100.40";
    const owner = await signUpAndVerify(server, t.db, fromIp(ip));
    const ownerSession = await passwordSession(owner.email, owner.password, ip);
    const viewer = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, "VIEWER");
    const viewerSession = await passwordSession(viewer.email, MEMBER_FIXTURE_PASSWORD, ip);
    const { id: ownerPasskeyId } = await register(ownerSession, "owner key");
    const { id: viewerPasskeyId } = await register(viewerSession, "viewer key");
    expect(answer(await send("PUT", "/v1/settings/security", ownerSession, { requirePasskey: true }))).toBe("200");

    expect(answer(await send("GET", "/v1/members", viewer.authorization))).toBe("200");
    // Another member's passkey: only an OWNER removes it.
    expect(answer(await send("DELETE", `/v1/members/${owner.userId}/passkeys/${ownerPasskeyId}`, viewer.authorization))).toBe(
      "403 INSUFFICIENT_ROLE",
    );
    // One's own last passkey, while the tenant requires one: refused.
    expect(answer(await trpc("mutation", "passkeys.removeOwn", viewerSession, { passkeyId: viewerPasskeyId }))).toBe(
      "409 PASSKEY_REQUIRED",
    );
    // Recovery: the OWNER removes the viewer's (lost) passkey; audited.
    const removed = await send("DELETE", `/v1/members/${viewer.userId}/passkeys/${viewerPasskeyId}`, ownerSession);
    expect(removed.status, removed.text).toBe(204);
    expect((await auditRows(owner.tenantId, "passkey.removed")).map((r) => r.details)).toEqual([
      { userId: viewer.userId, name: "viewer key", byOwner: true },
    ]);
    expect((await send("GET", `/v1/members/${viewer.userId}/passkeys`, ownerSession)).json()).toEqual({ passkeys: [] });

    // Now the viewer has no passkey: the right password is 409 PASSKEY_REQUIRED, a wrong one the usual 401.
    const noPasskey = await logIn(viewer.email, MEMBER_FIXTURE_PASSWORD, ip);
    expect(noPasskey.status, noPasskey.text).toBe(409);
    expect(noPasskey.json()).toMatchObject({ error: "PASSKEY_REQUIRED", code: 1303 });
    expect(answer(await logIn(viewer.email, "not the password at all", ip))).toBe("401 UNAUTHENTICATED");
    // Turning the requirement off needs no passkey and lets the member in with the password again.
    expect(answer(await send("PUT", "/v1/settings/security", ownerSession, { requirePasskey: false }))).toBe("200");
    expect(answer(await logIn(viewer.email, MEMBER_FIXTURE_PASSWORD, ip))).toBe("200");
  });

  it("another tenant's members and passkeys: an empty list, and removal is 404 (nothing removed)", async () => {
    const a = await signUpAndVerify(server, t.db, fromIp("198.51.100.50"));
    const aSession = await passwordSession(a.email, a.password, "198.51.100.50");
    const { id } = await register(aSession, "A's key");
    const b = await signUpAndVerify(server, t.db, fromIp("198.51.100.51"));
    const bSession = await passwordSession(b.email, b.password, "198.51.100.51");
    expect((await send("GET", `/v1/members/${a.userId}/passkeys`, bSession)).json()).toEqual({ passkeys: [] });
    expect(answer(await send("DELETE", `/v1/members/${a.userId}/passkeys/${id}`, bSession))).toBe("404 NOT_FOUND");
    expect(answer(await trpc("mutation", "passkeys.removeOwn", bSession, { passkeyId: id }))).toBe("404 NOT_FOUND");
    expect(data<{ passkeys: unknown[] }>(await trpc("query", "passkeys.listOwn", aSession)).passkeys).toHaveLength(1);
  });

  it("the passkey step keeps login's lockout: ten refused answers from a source lock it out, even for the right passkey", async () => {
    const ip = "198.51.100.60";
    const owner = await signUpAndVerify(server, t.db, fromIp(ip));
    const session = await passwordSession(owner.email, owner.password, ip);
    const { passkey } = await register(session, "key");
    expect(answer(await send("PUT", "/v1/settings/security", session, { requirePasskey: true }))).toBe("200");
    const first = await logIn(owner.email, owner.password, ip);
    const { challengeId, options } = first.json<{ challengeId: string; options: { challenge: string } }>();
    // Malformed answers are refused before anything is counted, as login's malformed bodies are.
    for (let i = 0; i < 10; i++)
      expect(answer(await postJson(server, "/v1/auth/login/passkey", { challengeId: randomUUID(), response: {} }, fromIp(ip)))).toBe(
        "400 VALIDATION_FAILED",
      );
    for (let i = 0; i < 10; i++) {
      const guess = authenticator.authenticate(passkey, { challenge: "not-the-challenge" });
      const res = await postJson(server, "/v1/auth/login/passkey", { challengeId: randomUUID(), response: guess }, fromIp(ip));
      expect(answer(res)).toBe("401 UNAUTHENTICATED");
    }
    const right = await postJson(
      server,
      "/v1/auth/login/passkey",
      { challengeId, response: authenticator.authenticate(passkey, options) },
      fromIp(ip),
    );
    expect(answer(right)).toBe("429 LOCKED_OUT");
    expect(right.headers["set-cookie"]).toBeUndefined();
  });
});
