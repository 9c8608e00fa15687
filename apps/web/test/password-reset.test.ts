import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPasswordReset } from "@qc/core";
import { and, desc, eq, schema, type Database } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Daemon } from "@qc/daemon";
import { call, startTestServer, type TestServer } from "./harness";
import {
  eventually,
  fromIp,
  logInAs,
  postJson,
  signupBody,
  signUpAndVerify,
  startSmtpSink,
  startTestDaemon,
  tokenFromOutbox,
  type SmtpSink,
} from "./identity-helpers";

const NEW_PASSWORD = "a brand new passphrase for alice";

/** The token of `<PUBLIC_URL>/reset-password?token=<token>` in an email's text. */
function resetToken(text: string): string {
  const match = /https:\/\/localhost\/reset-password\?token=([A-Za-z0-9_-]{43})(?:\s|$)/.exec(text);
  if (!match) throw new Error(`no reset link in: ${text}`);
  return match[1]!;
}

/** Reset emails to `to` in the dev outbox (the emails table), newest first. */
function resetEmails(db: Database, to: string) {
  return db
    .select()
    .from(schema.emails)
    .where(and(eq(schema.emails.to, to), eq(schema.emails.kind, "password_reset")))
    .orderBy(desc(schema.emails.createdAt), desc(schema.emails.id));
}

/** Asks for a reset link and returns the token of the newest reset email once it is there. */
async function requestLink(server: TestServer, db: Database, email: string, headers: Record<string, string>): Promise<string> {
  const before = (await resetEmails(db, email)).length;
  const res = await postJson(server, "/v1/auth/password-reset", { email }, headers);
  expect(res.status, res.text).toBe(202);
  const emails = await eventually(async () => {
    const rows = await resetEmails(db, email);
    return rows.length > before ? rows : undefined;
  });
  return resetToken(emails[0]!.text);
}

const confirm = (server: TestServer, body: unknown, headers: Record<string, string>) =>
  postJson(server, "/v1/auth/password-reset/confirm", body, headers);

describe("password reset over HTTPS, with the link from a real SMTP server", () => {
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
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await smtp?.close();
  });

  it("emails a single-use link, ends every session, and the new password logs in", async () => {
    const ip = fromIp("198.51.100.40");
    const account = await signUpAndVerify(server, t.db, ip, { name: "Alice" });
    const first = await logInAs(server, account, ip);
    const second = await logInAs(server, account, ip);

    const requested = await postJson(server, "/v1/auth/password-reset", { email: `  ${account.email.toUpperCase()} ` }, ip);
    expect(requested.status, requested.text).toBe(202);
    expect(requested.json()).toEqual({ status: "ACCEPTED" });

    const mail = await smtp.waitFor((m) => m.to.includes(account.email) && /reset/i.test(m.subject));
    expect(mail.from).toBe("no-reply@custody.test");
    const token = resetToken(mail.text);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(mail.text).toMatch(/expires in 1 hour/);

    // Stored only as its SHA-256, for this purpose, valid one hour.
    const [stored] = await t.db
      .select()
      .from(schema.emailTokens)
      .where(and(eq(schema.emailTokens.userId, account.userId), eq(schema.emailTokens.purpose, "PASSWORD_RESET")));
    expect(stored!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);
    // expiresAt is set from the service's clock, createdAt by the database's: a second apart at most.
    expect(Math.abs(stored!.expiresAt.getTime() - stored!.createdAt.getTime() - 3600_000)).toBeLessThan(1_000);

    // Sessions work until the reset.
    expect((await call(server, "/v1/onboarding/status", { headers: first.headers })).status).toBe(200);
    const reset = await confirm(server, { token, password: NEW_PASSWORD }, ip);
    expect(reset.status, reset.text).toBe(200);
    expect(reset.json()).toEqual({ status: "PASSWORD_RESET", sessionsEnded: 2 });
    expect(reset.headers["set-cookie"]?.[0]).toMatch(/^__Host-qc_session=;.*Max-Age=0/);

    for (const session of [first, second]) {
      const refused = await call(server, "/v1/onboarding/status", { headers: session.headers });
      expect(refused.status).toBe(401);
      expect(refused.json()).toMatchObject({ error: "UNAUTHENTICATED" });
    }
    const oldPassword = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, ip);
    expect(oldPassword.status).toBe(401);
    const fresh = await logInAs(server, { email: account.email, password: NEW_PASSWORD }, ip);
    expect((await call(server, "/v1/onboarding/status", { headers: fresh.headers })).status).toBe(200);
    const [user] = await t.db.select().from(schema.users).where(eq(schema.users.id, account.userId));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    // Single use.
    const again = await confirm(server, { token, password: "yet another passphrase" }, ip);
    expect(again.status).toBe(400);
    expect(again.json()).toMatchObject({ error: "INVALID_TOKEN", code: 1004 });
    expect((await postJson(server, "/v1/auth/login", { email: account.email, password: "yet another passphrase" }, ip)).status).toBe(401);

    // Audited, without the password or the token.
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, account.userId));
    const requestedRow = audit.find((row) => row.action === "user.password_reset_requested");
    const resetRow = audit.find((row) => row.action === "user.password_reset");
    expect(requestedRow).toMatchObject({ actorType: "anonymous", tenantId: account.tenantId, ip: "198.51.100.40" });
    expect(resetRow).toMatchObject({
      actorType: "user",
      actorId: account.userId,
      tenantId: account.tenantId,
      details: { sessionsEnded: 2 },
    });
    const everything = JSON.stringify(audit);
    for (const secret of [token, NEW_PASSWORD]) expect(everything).not.toContain(secret);
  });
});

describe("password reset rules", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let daemon: Daemon;
  /** A clock the services read, moved by the tests (token expiry). */
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      trustProxyHops: 1,
      now: clock.now,
      rateLimits: {
        tenantPerSecond: 100,
        tenantBurstExtra: 100,
        signupPerHour: 30,
        signupLockSeconds: 600,
        resendPerHourPerIp: 20,
        resendPerHourPerEmail: 3,
      },
    });
    // The reset requests are handled by the daemon (job identity.password-reset-request), on the same clock.
    daemon = await startTestDaemon(t.url, { now: clock.now });
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  it("answers an unknown or malformed address exactly as a registered one, and sends nothing", async () => {
    const ip = fromIp("198.51.100.50");
    const account = await signUpAndVerify(server, t.db, ip);
    const answers = [];
    for (const email of ["nobody-here@example.com", "not an address", "", "x".repeat(300), "a\u0000@example.com", account.email]) {
      answers.push(await postJson(server, "/v1/auth/password-reset", { email }, ip));
    }
    for (const res of answers) {
      expect(res.status, res.text).toBe(202);
      expect(res.text).toBe('{"status":"ACCEPTED"}');
    }
    await eventually(async () => (await resetEmails(t.db, account.email)).length === 1);
    const queued = await t.db.select({ to: schema.emails.to }).from(schema.emails).where(eq(schema.emails.kind, "password_reset"));
    expect(queued).toEqual([{ to: account.email }]);
    // The service itself, awaited: an unknown address changes nothing.
    expect(await requestPasswordReset({ ...server.deps, now: clock.now }, { email: "nobody-here@example.com" })).toEqual({ sent: false });
    expect(await resetEmails(t.db, "nobody-here@example.com")).toHaveLength(0);
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "user.password_reset_requested"));
    expect(audit.map((row) => row.targetId)).toEqual([account.userId]);
  });

  it("takes any JSON body as a request, and refuses a weak password without using the token up", async () => {
    const ip = fromIp("198.51.100.51");
    const account = await signUpAndVerify(server, t.db, ip);
    for (const body of [{}, { email: 42 }, { email: [account.email] }, [account.email], "text", null]) {
      const res = await postJson(server, "/v1/auth/password-reset", body, ip);
      expect(res.status, JSON.stringify(body)).toBe(202);
      expect(res.text).toBe('{"status":"ACCEPTED"}');
    }
    expect(await resetEmails(t.db, account.email)).toHaveLength(0);
    const token = await requestLink(server, t.db, account.email, ip);
    for (const [password, field] of [
      ["short", "password"],
      ["p".repeat(257), "password"],
      ["twelve chars\u0000ok", "password"],
    ] as const) {
      const res = await confirm(server, { token, password }, ip);
      expect(res.status).toBe(400);
      expect(res.json().details.fields.map((f: { path: string }) => f.path)).toEqual([field]);
    }
    const missingToken = await confirm(server, { password: NEW_PASSWORD }, ip);
    expect(missingToken.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["token"]);
    expect((await confirm(server, { token, password: NEW_PASSWORD }, ip)).status).toBe(200);
  });

  it("refuses unknown tokens and tokens of another purpose, both ways", async () => {
    const ip = fromIp("198.51.100.52");
    const unknown = await confirm(server, { token: "A".repeat(43), password: NEW_PASSWORD }, ip);
    expect(unknown.status).toBe(400);
    expect(unknown.json()).toMatchObject({ error: "INVALID_TOKEN", code: 1004 });

    const body = signupBody();
    expect((await postJson(server, "/v1/signup", body, ip)).status).toBe(201);
    const email = String(body.email).toLowerCase();
    const verification = await tokenFromOutbox(t.db, email);
    expect((await confirm(server, { token: verification, password: NEW_PASSWORD }, ip)).json()).toMatchObject({ error: "INVALID_TOKEN" });
    const reset = await requestLink(server, t.db, email, ip);
    expect((await postJson(server, "/v1/signup/verify-email", { token: reset }, ip)).json()).toMatchObject({ error: "INVALID_TOKEN" });
    // Both still work for their own purpose: the reset verifies the address it reached.
    expect((await confirm(server, { token: reset, password: NEW_PASSWORD }, ip)).status).toBe(200);
    const [user] = await t.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(user).toMatchObject({ status: "EMAIL_VERIFIED" });
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date);
    expect((await postJson(server, "/v1/auth/login", { email, password: NEW_PASSWORD }, ip)).status).toBe(200);
  });

  it("expires a link after one hour, and a newer link replaces the older one", async () => {
    const ip = fromIp("198.51.100.53");
    const account = await signUpAndVerify(server, t.db, ip);
    const expiring = await requestLink(server, t.db, account.email, ip);
    clock.offsetMs += 61 * 60_000;
    try {
      const late = await confirm(server, { token: expiring, password: NEW_PASSWORD }, ip);
      expect(late.status).toBe(400);
      expect(late.json()).toMatchObject({ error: "INVALID_TOKEN" });

      const older = await requestLink(server, t.db, account.email, ip);
      const newer = await requestLink(server, t.db, account.email, ip);
      expect(newer).not.toBe(older);
      clock.offsetMs += 59 * 60_000; // still inside the newer link's hour
      expect((await confirm(server, { token: older, password: NEW_PASSWORD }, ip)).json()).toMatchObject({ error: "INVALID_TOKEN" });
      expect((await confirm(server, { token: newer, password: NEW_PASSWORD }, ip)).status).toBe(200);
    } finally {
      clock.offsetMs = 0;
    }
    expect((await postJson(server, "/v1/auth/login", { email: account.email, password: NEW_PASSWORD }, ip)).status).toBe(200);
  });

  it("sends at most three links an hour to one address, still answering 202", async () => {
    const ip = fromIp("198.51.100.54");
    const account = await signUpAndVerify(server, t.db, ip);
    for (let i = 0; i < 5; i++) {
      expect((await postJson(server, "/v1/auth/password-reset", { email: account.email }, ip)).status).toBe(202);
    }
    // All five requests have been through the per-address limiter once it counted five; the two
    // it refused end there, so the three emails are all there will be.
    const limiterKey = `password_reset_email:${createHash("sha256").update(account.email).digest("hex")}`;
    await eventually(
      async () => (await t.db.select().from(schema.rateLimits).where(eq(schema.rateLimits.key, limiterKey)))[0]?.points === 5,
    );
    await eventually(async () => (await resetEmails(t.db, account.email)).length >= 3);
    expect(await resetEmails(t.db, account.email)).toHaveLength(3);
  });

  it("limits requests per source address like signup: 429 RATE_LIMITED with Retry-After", async () => {
    const ip = fromIp("198.51.100.55");
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await postJson(server, "/v1/auth/password-reset", { email: `nobody-${i}@example.com` }, ip)).status);
    expect(statuses).toEqual([...Array(30).fill(202), 429]);
    const limited = await postJson(server, "/v1/auth/password-reset", { email: "nobody@example.com" }, ip);
    expect(limited.json()).toMatchObject({ error: "RATE_LIMITED", code: 1060 });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(500);
    // Another source is not affected.
    expect((await postJson(server, "/v1/auth/password-reset", { email: "nobody@example.com" }, fromIp("198.51.100.56"))).status).toBe(202);
  });
});
