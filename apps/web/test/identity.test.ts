import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Daemon } from "@qc/daemon";
import { call, startTestServer, type TestServer } from "./harness";
import {
  eventually,
  fromIp,
  postJson,
  signupBody,
  startSmtpSink,
  startTestDaemon,
  STRONG_PASSWORD,
  trpcMutation,
  verificationToken,
  type SmtpSink,
} from "./identity-helpers";

/**
 * The whole identity journey over real HTTPS, a real SMTP server and the real daemon:
 * signup → the email arrives over SMTP → verify → login → an API key from the dashboard (tRPC)
 * → list and rotate over REST → the old key inside and after its grace period → an expiring
 * key → lastUsedAt recorded → logout.
 */
describe("identity end to end", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let smtp: SmtpSink;
  let daemon: Daemon;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ database: t, trustProxyHops: 1 });
    daemon = await startTestDaemon(t.url, { config: { smtpUrl: smtp.url, emailFrom: "Quantum Custody <no-reply@custody.test>" } });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await smtp?.close();
  });

  it("signs up, verifies by the emailed link, logs in, issues, rotates and retires API keys", async () => {
    const ip = fromIp("198.51.100.10");
    const body = signupBody({ email: "Journey.Admin@Example.COM", organizationName: "Journey Capital" });

    // Signup: 201, exactly the contract's body.
    const signup = await postJson(server, "/v1/signup", body, ip);
    expect(signup.status, signup.text).toBe(201);
    const created = signup.json();
    expect(Object.keys(created).sort()).toEqual(["message", "status", "tenantId", "userId"]);
    expect(created).toMatchObject({ status: "PENDING_EMAIL_VERIFICATION" });
    expect(created.tenantId).toMatch(/^[0-9a-f-]{36}$/);
    const [tenant] = await t.db.select().from(schema.tenants).where(eq(schema.tenants.id, created.tenantId));
    expect(tenant).toMatchObject({ status: "PENDING_VERIFICATION", name: "Journey Capital", accountType: "BUSINESS" });
    const [user] = await t.db.select().from(schema.users).where(eq(schema.users.id, created.userId));
    expect(user).toMatchObject({ email: "journey.admin@example.com", status: "PENDING_EMAIL_VERIFICATION", role: "OWNER" });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user!.passwordHash).not.toContain(STRONG_PASSWORD);

    // The email arrives at the SMTP server; its text holds exactly <PUBLIC_URL>/verify-email?token=<token>.
    const mail = await smtp.waitFor((m) => m.to.includes("journey.admin@example.com"));
    expect(mail.from).toBe("no-reply@custody.test");
    expect(mail.subject).toMatch(/verify/i);
    const token = verificationToken(mail.text, "https://localhost");
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const [stored] = await t.db.select().from(schema.emailTokens).where(eq(schema.emailTokens.userId, created.userId));
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
    await eventually(
      async () => (await t.db.select().from(schema.emails).where(eq(schema.emails.to, "journey.admin@example.com")))[0]?.sentAt,
    );
    const [emailRow] = await t.db.select().from(schema.emails).where(eq(schema.emails.to, "journey.admin@example.com"));
    expect(emailRow).toMatchObject({ transport: "smtp", attempts: 1, lastError: null, kind: "verify_email" });

    // Before verification: 403 EMAIL_NOT_VERIFIED (with the right password only).
    const early = await postJson(server, "/v1/auth/login", { email: "journey.admin@example.com", password: STRONG_PASSWORD }, ip);
    expect(early.status).toBe(403);
    expect(early.json()).toMatchObject({ error: "EMAIL_NOT_VERIFIED", code: 1023 });

    // Verify (single use).
    const verified = await postJson(server, "/v1/signup/verify-email", { token }, ip);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json()).toEqual({
      status: "EMAIL_VERIFIED",
      userId: created.userId,
      tenantId: created.tenantId,
      email: "journey.admin@example.com",
    });
    const again = await postJson(server, "/v1/signup/verify-email", { token }, ip);
    expect(again.status).toBe(400);
    expect(again.json()).toMatchObject({ error: "INVALID_TOKEN", code: 1004 });

    // A wrong password first (audited), then the login.
    const wrong = await postJson(server, "/v1/auth/login", { email: "journey.admin@example.com", password: "not the password at all" }, ip);
    expect(wrong.status).toBe(401);
    const login = await postJson(server, "/v1/auth/login", { email: "JOURNEY.admin@example.com", password: STRONG_PASSWORD }, ip);
    expect(login.status, login.text).toBe(200);
    const session = login.json();
    expect(session.token).toMatch(/^qs_[0-9a-f]{64}$/);
    expect(session.user).toEqual({ id: created.userId, email: "journey.admin@example.com", name: "Alice Admin" });
    expect(session.tenant).toEqual({ id: created.tenantId, name: "Journey Capital", status: "PENDING_VERIFICATION" });
    const lifetime = Date.parse(session.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(12 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(12 * 3600_000);
    expect(login.headers["set-cookie"]).toEqual([
      `__Host-qc_session=${session.token}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=43200`,
    ]);
    const [sessionRow] = await t.db.select().from(schema.sessions).where(eq(schema.sessions.userId, created.userId));
    expect(sessionRow!.tokenHash).not.toBe(session.token);
    // As the dashboard's own pages send it: a cookie-authenticated change must be same-origin.
    const cookie = { ...ip, cookie: `__Host-qc_session=${session.token}`, "sec-fetch-site": "same-origin" };

    // API keys are created in the dashboard: tRPC over HTTP with the session cookie.
    const createdKey = await trpcMutation(server, "credentials.create", { label: "integration" }, cookie);
    expect(createdKey.status, createdKey.text).toBe(200);
    const key = createdKey.json().result.data.json;
    expect(key.keyId).toMatch(/^qc_[0-9a-f]{32}$/);
    expect(key.secret).toMatch(/^[0-9a-f]{64}$/);
    const bearer = { ...ip, authorization: `Bearer ${key.keyId}:${key.secret}` };

    // A key cannot mint keys (session only).
    const byKey = await trpcMutation(server, "credentials.create", { label: "nope" }, bearer);
    expect(byKey.status).toBe(403);

    // List over REST with the key: never a secret.
    const list = await call(server, "/v1/credentials", { headers: bearer });
    expect(list.status, list.text).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({ keyId: key.keyId, tenantId: created.tenantId, label: "integration", status: "ACTIVE", expiresAt: null }),
    ]);
    expect(list.text).not.toContain(key.secret);

    // Rotate with a 5-minute grace period.
    const rotated = await postJson(server, "/v1/credentials/rotate", { keyId: key.keyId, gracePeriodMinutes: 5 }, bearer);
    expect(rotated.status, rotated.text).toBe(200);
    const rotation = rotated.json();
    expect(rotation).toMatchObject({
      oldKeyId: key.keyId,
      newKeyId: expect.stringMatching(/^qc_[0-9a-f]{32}$/),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const newBearer = { ...ip, authorization: `Bearer ${rotation.newKeyId}:${rotation.secret}` };

    // A key that expires in two minutes, made while the clock is still real.
    const expiring = (
      await trpcMutation(
        server,
        "credentials.create",
        { label: "short-lived", expiresAt: new Date(Date.now() + 120_000).toISOString() },
        cookie,
      )
    ).json().result.data.json;
    const expiringBearer = { ...ip, authorization: `Bearer ${expiring.keyId}:${expiring.secret}` };
    expect((await call(server, "/v1/onboarding/status", { headers: expiringBearer })).status).toBe(200);

    // Inside the grace period both keys work.
    expect((await call(server, "/v1/credentials", { headers: bearer })).status).toBe(200);
    expect((await call(server, "/v1/credentials", { headers: newBearer })).status).toBe(200);

    // Past it (the server's clock moved six minutes on): the contract's 401s.
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(start + 6 * 60_000);
      const old = await call(server, "/v1/credentials", { headers: bearer });
      expect(old.status).toBe(401);
      expect(old.json()).toMatchObject({ error: "CREDENTIAL_ROTATED", code: 1012, message: "credential rotated and grace period expired" });
      const expired = await call(server, "/v1/onboarding/status", { headers: expiringBearer });
      expect(expired.status).toBe(401);
      expect(expired.json()).toMatchObject({ error: "CREDENTIAL_EXPIRED", code: 1011, message: "credential expired" });
      const current = await call(server, "/v1/credentials", { headers: newBearer });
      expect(current.status).toBe(200);
      const statuses = Object.fromEntries(current.json().data.map((k: { keyId: string; status: string }) => [k.keyId, k.status]));
      expect(statuses).toEqual({ [key.keyId]: "ROTATED", [rotation.newKeyId]: "ACTIVE", [expiring.keyId]: "EXPIRED" });
    } finally {
      vi.useRealTimers();
    }

    // lastUsedAt is written by the authenticator's batched flush (every 10 s).
    const lastUsed = await eventually(
      async () => {
        const [row] = await t.db
          .select({ lastUsedAt: schema.apiKeys.lastUsedAt })
          .from(schema.apiKeys)
          .where(eq(schema.apiKeys.keyId, rotation.newKeyId));
        return row?.lastUsedAt;
      },
      15_000,
      250,
    );
    expect(lastUsed.getTime()).toBeGreaterThan(start - 1_000);

    // Logout ends the session and clears the cookie; the token is refused afterwards.
    const logout = await postJson(server, "/v1/auth/logout", {}, { ...ip, authorization: `Bearer ${session.token}` });
    expect(logout.status, logout.text).toBe(200);
    expect(logout.json()).toEqual({ status: "LOGGED_OUT" });
    expect(logout.headers["set-cookie"]).toEqual(["__Host-qc_session=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0"]);
    const after = await call(server, "/v1/onboarding/status", { headers: cookie });
    expect(after.status).toBe(401);
    expect(after.json().error).toBe("UNAUTHENTICATED");
    // An API key has no session to end.
    const byApiKey = await postJson(server, "/v1/auth/logout", {}, newBearer);
    expect(byApiKey.status).toBe(409);
    expect(byApiKey.json().error).toBe("CONFLICT");

    // The audit trail: signup, verification, the failed and the good login, the logout; never a secret.
    await server.deps.authenticator.flushAudit(); // refusals (the failed login) are audited through the buffer
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.tenantId, created.tenantId));
    const actions = audit.map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "tenant.signed_up",
        "user.email_verified",
        "auth.failed",
        "auth.logged_in",
        "credential.created",
        "credential.rotated",
        "auth.logged_out",
      ]),
    );
    const failed = audit.find((a) => a.action === "auth.failed" && (a.details as { reason?: string }).reason === "wrong_password");
    expect(failed).toMatchObject({ actorId: created.userId, ip: "198.51.100.10" });
    const everything = JSON.stringify(await t.db.select().from(schema.auditEvents));
    for (const secret of [STRONG_PASSWORD, "not the password at all", token, session.token, key.secret, rotation.secret])
      expect(everything).not.toContain(secret);
    const revoked = await t.db
      .select()
      .from(schema.sessions)
      .where(and(eq(schema.sessions.userId, created.userId)));
    expect(revoked[0]!.revokedAt).not.toBeNull();
  });
});
