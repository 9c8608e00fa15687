import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq, schema, sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, type TestServer } from "./harness";
import { fromIp, postJson, signupBody, tokenFromOutbox, trpcMutation, uniqueEmail } from "./identity-helpers";

describe("signup and email verification", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t, trustProxyHops: 1 });
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => server?.close());

  const rowsOf = async (email: string) => {
    const users = await t.db.select().from(schema.users).where(eq(schema.users.email, email));
    const emails = await t.db.select().from(schema.emails).where(eq(schema.emails.to, email));
    return { users, emails };
  };

  describe("validation (400 VALIDATION_FAILED with details.fields)", () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["organizationName missing", { organizationName: undefined }, "organizationName"],
      ["organizationName empty", { organizationName: "   " }, "organizationName"],
      ["organizationName over 200 characters", { organizationName: "x".repeat(201) }, "organizationName"],
      ["organizationName not a string", { organizationName: 42 }, "organizationName"],
      ["email missing", { email: undefined }, "email"],
      ["email malformed", { email: "not-an-email" }, "email"],
      ["email without a domain", { email: "alice@" }, "email"],
      ["name over 200 characters", { name: "n".repeat(201) }, "name"],
      ["name not a string", { name: ["Alice"] }, "name"],
      ["password missing", { password: undefined }, "password"],
      ["password of 11 characters", { password: "a".repeat(11) }, "password"],
      ["password of 257 characters", { password: "a".repeat(257) }, "password"],
      ["accountType unknown", { accountType: "NONPROFIT" }, "accountType"],
    ];
    it.each(cases)("%s", async (_name, override, field) => {
      const body = signupBody(override);
      const res = await postJson(server, "/v1/signup", JSON.parse(JSON.stringify(body)), fromIp("192.0.2.1"));
      expect(res.status, res.text).toBe(400);
      const error = res.json();
      expect(error).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
      expect(error.details.fields.map((f: { path: string }) => f.path)).toEqual([field]);
      expect(typeof error.details.fields[0].message).toBe("string");
      if (typeof body.email === "string") expect((await rowsOf(body.email)).users).toHaveLength(0);
    });

    it("lists every invalid field at once and never echoes the password", async () => {
      const res = await postJson(server, "/v1/signup", { email: "x", password: "short-pw" }, fromIp("192.0.2.1"));
      expect(res.status).toBe(400);
      expect(
        res
          .json()
          .details.fields.map((f: { path: string }) => f.path)
          .sort(),
      ).toEqual(["email", "organizationName", "password"]);
      expect(res.text).not.toContain("short-pw");
    });

    it("accepts the boundaries: 12 and 256 characters, 200-character names, INDIVIDUAL", async () => {
      for (const password of ["p".repeat(12), "p".repeat(256)]) {
        const res = await postJson(
          server,
          "/v1/signup",
          signupBody({ password, organizationName: "o".repeat(200), name: "n".repeat(200), accountType: "INDIVIDUAL" }),
          fromIp("192.0.2.2"),
        );
        expect(res.status, res.text).toBe(201);
        const [tenant] = await t.db.select().from(schema.tenants).where(eq(schema.tenants.id, res.json().tenantId));
        expect(tenant!.accountType).toBe("INDIVIDUAL");
      }
    });
  });

  it("creates tenant, admin, token, email and its job in one transaction, and lower-cases the email", async () => {
    const email = uniqueEmail("Mixed.Case");
    const res = await postJson(
      server,
      "/v1/signup",
      signupBody({ email: `  ${email.toUpperCase()} `, name: undefined }),
      fromIp("192.0.2.3"),
    );
    expect(res.status, res.text).toBe(201);
    const { tenantId, userId } = res.json();
    const { users, emails } = await rowsOf(email.toLowerCase());
    expect(users).toEqual([expect.objectContaining({ id: userId, tenantId, name: null, status: "PENDING_EMAIL_VERIFICATION" })]);
    expect(emails).toEqual([expect.objectContaining({ tenantId, kind: "verify_email", sentAt: null })]);
    expect(emails[0]!.text).toContain("https://localhost/verify-email?token=");
    const tokens = await t.db.select().from(schema.emailTokens).where(eq(schema.emailTokens.userId, userId));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.expiresAt.getTime() - tokens[0]!.createdAt.getTime()).toBeGreaterThan(24 * 3600_000 - 5_000);
    const jobs = await t.db.execute<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'email.send' and data->>'emailId' = '${emails[0]!.id}'`,
    );
    expect(jobs.rows[0]!.n).toBe(1);
    const [audit] = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, tenantId));
    expect(audit).toMatchObject({ action: "tenant.signed_up", tenantId, actorId: userId, ip: "192.0.2.3" });
  });

  it("answers 409 EMAIL_ALREADY_REGISTERED for a known email, whatever its case, and for concurrent signups", async () => {
    const email = uniqueEmail("taken");
    expect((await postJson(server, "/v1/signup", signupBody({ email }), fromIp("192.0.2.4"))).status).toBe(201);
    const again = await postJson(server, "/v1/signup", signupBody({ email: email.toUpperCase() }), fromIp("192.0.2.4"));
    expect(again.status).toBe(409);
    expect(again.json()).toMatchObject({ error: "EMAIL_ALREADY_REGISTERED", code: 1044 });

    // Concurrent signups with one new address: the unique index lets exactly one through.
    const racing = uniqueEmail("race");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => postJson(server, "/v1/signup", signupBody({ email: racing }), fromIp("192.0.2.5"))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const loser of results.filter((r) => r.status === 409)) expect(loser.json().error).toBe("EMAIL_ALREADY_REGISTERED");
    const { users, emails } = await rowsOf(racing);
    expect(users).toHaveLength(1);
    expect(emails).toHaveLength(1);
    // The losers rolled back whole: no tenant is left without its admin.
    const orphans = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from tenants where not exists (select 1 from users where users.tenant_id = tenants.id)`,
    );
    expect(orphans.rows[0]!.n).toBe(0);
  });

  it("verifies once; unknown, used and expired tokens are 400 INVALID_TOKEN", async () => {
    const ip = fromIp("192.0.2.6");
    const body = signupBody();
    const { userId, tenantId } = (await postJson(server, "/v1/signup", body, ip)).json();
    const token = await tokenFromOutbox(t.db, String(body.email));

    const unknown = await postJson(server, "/v1/signup/verify-email", { token: "A".repeat(43) }, ip);
    expect(unknown.status).toBe(400);
    expect(unknown.json()).toMatchObject({ error: "INVALID_TOKEN", code: 1004 });
    expect((await postJson(server, "/v1/signup/verify-email", {}, ip)).json().error).toBe("VALIDATION_FAILED");

    const ok = await postJson(server, "/v1/signup/verify-email", { token }, ip);
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ status: "EMAIL_VERIFIED", userId, tenantId, email: body.email });
    const [user] = await t.db.select().from(schema.users).where(eq(schema.users.id, userId));
    expect(user).toMatchObject({ status: "EMAIL_VERIFIED" });
    expect(user!.emailVerifiedAt).not.toBeNull();
    const used = await postJson(server, "/v1/signup/verify-email", { token }, ip);
    expect(used.status).toBe(400);
    expect(used.json().error).toBe("INVALID_TOKEN");
    const audited = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "user.email_verified"));
    expect(audited.map((a) => a.targetId)).toContain(userId);

    // A token is good for 24 hours, not a minute more.
    const late = signupBody();
    await postJson(server, "/v1/signup", late, ip);
    const lateToken = await tokenFromOutbox(t.db, String(late.email));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 24 * 3600_000 + 60_000);
    const expired = await postJson(server, "/v1/signup/verify-email", { token: lateToken }, fromIp("192.0.2.7"));
    expect(expired.status).toBe(400);
    expect(expired.json().error).toBe("INVALID_TOKEN");
  });

  it("resend-verification: always 202, a new link that replaces the old one, silently limited", async () => {
    const ip = fromIp("192.0.2.8");
    const unknown = await postJson(server, "/v1/signup/resend-verification", { email: uniqueEmail("ghost") }, ip);
    expect(unknown.status).toBe(202);
    expect(unknown.json()).toEqual({ status: "ACCEPTED" });

    const body = signupBody();
    await postJson(server, "/v1/signup", body, ip);
    const first = await tokenFromOutbox(t.db, String(body.email));
    const resent = await postJson(server, "/v1/signup/resend-verification", { email: String(body.email).toUpperCase() }, ip);
    expect(resent.status).toBe(202);
    expect(resent.json()).toEqual({ status: "ACCEPTED" });
    const second = await tokenFromOutbox(t.db, String(body.email));
    expect(second).not.toBe(first);
    expect((await postJson(server, "/v1/signup/verify-email", { token: first }, ip)).json().error).toBe("INVALID_TOKEN");

    // Per address: 5 an hour; past that the answer is the same 202 and nothing is sent.
    for (let i = 0; i < 6; i++)
      expect((await postJson(server, "/v1/signup/resend-verification", { email: body.email }, ip)).status).toBe(202);
    expect((await rowsOf(String(body.email))).emails).toHaveLength(1 + 5);
    // The newest link still works; a verified user gets no more links.
    expect((await postJson(server, "/v1/signup/verify-email", { token: await tokenFromOutbox(t.db, String(body.email)) }, ip)).status).toBe(
      200,
    );
    const other = signupBody();
    await postJson(server, "/v1/signup", other, fromIp("192.0.2.9"));
    expect(
      (await postJson(server, "/v1/signup/verify-email", { token: await tokenFromOutbox(t.db, String(other.email)) }, ip)).status,
    ).toBe(200);
    expect((await postJson(server, "/v1/signup/resend-verification", { email: other.email }, fromIp("192.0.2.9"))).status).toBe(202);
    expect((await rowsOf(String(other.email))).emails).toHaveLength(1);
  });

  it("resend-verification: 202 for a well-formed address of the maximum length (its limiter key is hashed)", async () => {
    const longest = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    expect(longest).toHaveLength(254);
    const res = await postJson(server, "/v1/signup/resend-verification", { email: longest }, fromIp("192.0.2.31"));
    expect(res.status, res.text).toBe(202);
  });

  it("resend-verification: 202 for any JSON body; without a well-formed address nothing is sent or counted", async () => {
    const ip = fromIp("192.0.2.12");
    const pending = signupBody();
    expect((await postJson(server, "/v1/signup", pending, ip)).status).toBe(201);
    const resent = () => t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "user.verification_resent"));
    const auditBefore = (await resent()).length;
    const send = (body: string, headers: Record<string, string> = {}) =>
      call(server, "/v1/signup/resend-verification", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...ip, ...headers },
      });

    // The pending user's own address appears in several, in places that are not "the email".
    const bodies: [string, string][] = [
      ["no email field", "{}"],
      ["another field only", JSON.stringify({ address: pending.email })],
      ["email a number", '{"email": 42}'],
      ["email null", '{"email": null}'],
      ["email true", '{"email": true}'],
      ["the address inside an array", JSON.stringify({ email: [pending.email] })],
      ["the address inside an object", JSON.stringify({ email: { address: pending.email } })],
      ["malformed address", '{"email": "nope"}'],
      ["the address with a second @", JSON.stringify({ email: `${String(pending.email)}@example.org` })],
      ["over 254 characters", JSON.stringify({ email: `${"a".repeat(250)}@example.com` })],
      ["the address as the whole body", JSON.stringify(pending.email)],
      ["a JSON array", JSON.stringify([{ email: pending.email }])],
      ["JSON null", "null"],
      ["a JSON number", "7"],
    ];
    // Twice over: more than the 20 per source an hour, had they been counted.
    for (const [name, body] of [...bodies, ...bodies]) {
      const res = await send(body);
      expect(res.status, `${name}: ${res.text}`).toBe(202);
      expect(res.json(), name).toEqual({ status: "ACCEPTED" });
    }
    const viaTrpc = await trpcMutation(server, "signup.resendVerification", { email: 42 }, ip);
    expect(viaTrpc.status, viaTrpc.text).toBe(200);
    expect(viaTrpc.json().result.data.json).toEqual({ status: "ACCEPTED" });
    expect((await rowsOf(String(pending.email))).emails).toHaveLength(1); // the signup's only
    expect(await resent()).toHaveLength(auditBefore);

    // The source was not charged for them: a well-formed request from it still sends.
    expect((await send(JSON.stringify({ email: pending.email }))).status).toBe(202);
    expect((await rowsOf(String(pending.email))).emails).toHaveLength(2);

    // The request guards still run first, with their own answers.
    const withKey = await send(JSON.stringify({ email: pending.email, privateKey: `0x${"ab".repeat(32)}` }));
    expect(withKey.status).toBe(400);
    expect(withKey.json()).toMatchObject({ error: "KEY_MATERIAL_REJECTED", code: 1002 });
    const notJson = await send(`email=${String(pending.email)}`, { "content-type": "text/plain" });
    expect(notJson.status).toBe(415);
    expect(notJson.json()).toMatchObject({ error: "UNSUPPORTED_MEDIA_TYPE", code: 1051 });
    const tooLarge = await send(JSON.stringify({ email: pending.email, padding: "x".repeat(1_048_576) }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json()).toMatchObject({ error: "PAYLOAD_TOO_LARGE", code: 1050 });
    expect((await rowsOf(String(pending.email))).emails).toHaveLength(2);
  });

  it("allows 30 signups per IP per hour; the 31st is 429 with Retry-After, still at 9 minutes, free after 10", async () => {
    const ip = fromIp("192.0.2.99");
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    const quick = (password: string) => signupBody({ password });
    const accepted = await Promise.all(
      Array.from({ length: 30 }, (_, i) => postJson(server, "/v1/signup", quick(`password-number-${i}`), ip)),
    );
    expect(accepted.map((r) => r.status)).toEqual(Array(30).fill(201));

    const limited = await postJson(server, "/v1/signup", quick("password-31st"), ip);
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ error: "RATE_LIMITED", code: 1060 });
    expect(Number(limited.headers["retry-after"])).toBe(600);
    // Another address is not affected.
    expect((await postJson(server, "/v1/signup", quick("another-source"), fromIp("192.0.2.100"))).status).toBe(201);

    vi.setSystemTime(start + 9 * 60_000);
    const still = await postJson(server, "/v1/signup", quick("password-9-minutes"), ip);
    expect(still.status).toBe(429);
    expect(Number(still.headers["retry-after"])).toBeLessThanOrEqual(60);

    vi.setSystemTime(start + 10 * 60_000 + 1_000);
    const free = await postJson(server, "/v1/signup", quick("password-10-minutes"), ip);
    expect(free.status, free.text).toBe(201);
  });
});
