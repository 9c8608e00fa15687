import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, schema, sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, type TestServer } from "./harness";
import { fromIp, logInAs, postJson, signupBody, signUpAndVerify, STRONG_PASSWORD, tokenFromOutbox } from "./identity-helpers";

describe("POST /v1/auth/login", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t, trustProxyHops: 1 });
  });
  afterAll(() => server?.close());

  const failuresFrom = async (ip: string) => {
    await server.deps.authenticator.flushAudit(); // refusals are audited through the buffer
    return t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "auth.failed"), eq(schema.auditEvents.ip, ip)));
  };

  it("answers an unknown email and a wrong password with the same 401, audits both with their reason and never the password", async () => {
    const ip = "203.0.113.21";
    const account = await signUpAndVerify(server, t.db, fromIp(ip));
    const unknown = await postJson(
      server,
      "/v1/auth/login",
      { email: "nobody-here@example.com", password: "Guess-number-one" },
      fromIp(ip),
    );
    const wrong = await postJson(server, "/v1/auth/login", { email: account.email, password: "Guess-number-two" }, fromIp(ip));
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
    const { requestId: _a, ...unknownBody } = unknown.json();
    const { requestId: _b, ...wrongBody } = wrong.json();
    expect(unknownBody).toEqual(wrongBody);
    expect(unknownBody).toEqual({ error: "UNAUTHENTICATED", code: 1010, message: "invalid email or password" });

    const rows = await failuresFrom(ip);
    // The unknown address names no tenant: counted per source and minute (one row here, count 1).
    expect(rows.map((r) => r.details).sort((a, b) => String(a.reason).localeCompare(String(b.reason)))).toEqual([
      {
        reason: "unknown_email",
        counted: true,
        via: "login",
        aggregated: expect.objectContaining({ count: 1, source: ip, otherSources: false }),
      },
      { reason: "wrong_password", counted: true, via: "login" },
    ]);
    expect(rows.find((r) => r.details.reason === "wrong_password")).toMatchObject({ tenantId: account.tenantId, actorId: account.userId });
    expect(rows.find((r) => r.details.reason === "unknown_email")).toMatchObject({ tenantId: null, actorId: null });
    expect(JSON.stringify(rows)).not.toMatch(/Guess-number|nobody-here/);
  });

  it("answers 403 EMAIL_NOT_VERIFIED before verification, and logs in after it", async () => {
    const ip = fromIp("203.0.113.22");
    const body = signupBody();
    expect((await postJson(server, "/v1/signup", body, ip)).status).toBe(201);
    const early = await postJson(server, "/v1/auth/login", { email: body.email, password: body.password }, ip);
    expect(early.status).toBe(403);
    expect(early.json()).toMatchObject({ error: "EMAIL_NOT_VERIFIED", code: 1023 });
    // A wrong password for an unverified account is still the plain 401: nothing is revealed.
    const wrong = await postJson(server, "/v1/auth/login", { email: body.email, password: "wrong password here" }, ip);
    expect(wrong.status).toBe(401);

    expect((await postJson(server, "/v1/signup/verify-email", { token: await tokenFromOutbox(t.db, String(body.email)) }, ip)).status).toBe(
      200,
    );
    const session = await logInAs(server, { email: String(body.email), password: STRONG_PASSWORD }, ip);
    const status = await call(server, "/v1/onboarding/status", { headers: session.headers });
    expect(status.status, status.text).toBe(200);
    expect(status.json()).toMatchObject({
      status: "PENDING_VERIFICATION",
      emailVerified: true,
      kyc: null,
      valueMovingEnabled: false,
      nextStep: "START_KYC",
    });
    // The cookie alone authenticates the dashboard too.
    const viaCookie = await call(server, "/v1/onboarding/status", {
      headers: { ...ip, cookie: `theme=dark; __Host-qc_session=${session.token}` },
    });
    expect(viaCookie.status).toBe(200);
  });

  it("locks a source out after 10 wrong passwords, even for the right password, while other sources still log in", async () => {
    const ip = "203.0.113.23";
    const account = await signUpAndVerify(server, t.db, fromIp("203.0.113.24"));
    for (let i = 0; i < 10; i++) {
      const res = await postJson(server, "/v1/auth/login", { email: account.email, password: `wrong password ${i}` }, fromIp(ip));
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const locked = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, fromIp(ip));
    expect(locked.status).toBe(429);
    expect(locked.json()).toMatchObject({ error: "LOCKED_OUT", code: 1061 });
    const retryAfter = Number(locked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The lock covers API credentials from that source too.
    const other = await call(server, "/v1/onboarding/status", { headers: fromIp(ip, { authorization: `Bearer qs_${"0".repeat(64)}` }) });
    expect(other.status).toBe(429);
    // Another source is unaffected, but the account itself is locked from everywhere.
    const bystander = await signUpAndVerify(server, t.db, fromIp("203.0.113.24"));
    await logInAs(server, bystander, fromIp("203.0.113.25"));
    expect(
      (await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, fromIp("203.0.113.25"))).status,
    ).toBe(429);
    expect((await failuresFrom(ip)).length).toBe(10);
  });

  it("keeps only a hash of the session token and validates the body", async () => {
    const ip = fromIp("203.0.113.26");
    const account = await signUpAndVerify(server, t.db, ip);
    const session = await logInAs(server, account, ip);
    const [row] = await t.db
      .execute<{ n: number }>(sql`select count(*)::int as n from sessions where token_hash = ${session.token}`)
      .then((r) => r.rows);
    expect(row!.n).toBe(0);
    const missing = await postJson(server, "/v1/auth/login", { email: account.email }, ip);
    expect(missing.status).toBe(400);
    expect(missing.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["password"]);
  });
});
