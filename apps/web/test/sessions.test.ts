import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, type TestServer } from "./harness";
import { fromIp, logInAs, postJson, signUpAndVerify } from "./identity-helpers";

const DAY = 24 * 3600_000;

/** Dashboard sessions over real HTTPS: the allowlist, the absolute lifetime, the __Host- cookie, the account lockout. */
describe("dashboard sessions", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let clock = Date.now();
  beforeAll(async () => {
    server = await startTestServer({ database: t, trustProxyHops: 1, now: () => new Date(clock) });
  });
  afterAll(() => server?.close());

  const putAllowlist = (headers: Record<string, string>, entries: { cidr: string; label?: string }[]) =>
    call(server, "/v1/settings/ip-allowlist", {
      method: "PUT",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ entries }),
    });

  it("holds a session to the tenant's IP allowlist, as a Bearer token and as the cookie", async () => {
    const inside = "198.51.100.61";
    const outside = "203.0.113.61";
    const account = await signUpAndVerify(server, t.db, fromIp(inside));
    const session = await logInAs(server, account, fromIp(inside));
    expect((await putAllowlist(session.headers, [{ cidr: "198.51.100.0/24", label: "office" }])).status).toBe(200);

    const bearer = fromIp(outside, { authorization: `Bearer ${session.token}` });
    const cookie = fromIp(outside, { cookie: `__Host-qc_session=${session.token}` });
    for (const headers of [bearer, cookie]) {
      const refused = await call(server, "/v1/vault/accounts", { headers });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json()).toMatchObject({ error: "IP_NOT_ALLOWED", code: 1021 });
    }
    // Nor can it lift the allowlist from outside.
    expect((await putAllowlist(bearer, [])).status).toBe(403);
    // The login itself is public (it names no tenant until the password is checked); its session is held to the list.
    const fromOutside = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, fromIp(outside));
    expect(fromOutside.status).toBe(200);
    expect(
      (await call(server, "/v1/vault/accounts", { headers: fromIp(outside, { authorization: `Bearer ${fromOutside.json().token}` }) }))
        .status,
    ).toBe(403);
    // From inside, the same session works.
    expect(
      (await call(server, "/v1/vault/accounts", { headers: fromIp("198.51.100.62", { authorization: `Bearer ${session.token}` }) })).status,
    ).toBe(200);

    await server.deps.authenticator.flushAudit();
    const refusals = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "auth.ip_not_allowed"), eq(schema.auditEvents.tenantId, account.tenantId)));
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    expect(refusals.every((row) => row.actorType === "user" && row.actorId === account.userId && row.ip === outside)).toBe(true);
  });

  it("ends a session 7 days after its login however much it is used", async () => {
    const ip = fromIp("198.51.100.63");
    const account = await signUpAndVerify(server, t.db, ip);
    const login = clock;
    const session = await logInAs(server, account, ip);
    try {
      // Used every 11 hours: the sliding 12 h never lapses.
      for (clock = login + 11 * 3600_000; clock < login + 7 * DAY; clock += 11 * 3600_000) {
        const res = await call(server, "/v1/onboarding/status", { headers: session.headers });
        expect(res.status, new Date(clock).toISOString()).toBe(200);
      }
      const [row] = await t.db.select().from(schema.sessions).where(eq(schema.sessions.userId, account.userId));
      expect(row!.expiresAt.getTime()).toBe(login + 7 * DAY);
      clock = login + 7 * DAY;
      const ended = await call(server, "/v1/onboarding/status", { headers: session.headers });
      expect(ended.status).toBe(401);
      expect(ended.json()).toMatchObject({ error: "UNAUTHENTICATED", message: "session expired; log in again" });
    } finally {
      clock = Date.now();
    }
  });

  it("sets and reads only the __Host- cookie: a planted plain cookie is ignored, two session cookies are refused", async () => {
    const ip = fromIp("198.51.100.64");
    const account = await signUpAndVerify(server, t.db, ip);
    const login = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, ip);
    const token = login.json().token as string;
    expect(login.headers["set-cookie"]).toEqual([`__Host-qc_session=${token}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=43200`]);
    const status = (cookie: string) => call(server, "/v1/onboarding/status", { headers: { ...ip, cookie } });

    // The name a sibling subdomain can set (cookie tossing) authenticates nothing, even with a live token.
    expect((await status(`qc_session=${token}`)).json()).toMatchObject({ error: "UNAUTHENTICATED", code: 1010 });
    // An attacker's session planted next to the victim's does not take its place.
    const attacker = await signUpAndVerify(server, t.db, ip);
    const planted = (await logInAs(server, attacker, ip)).token;
    const both = await status(`qc_session=${planted}; __Host-qc_session=${token}`);
    expect(both.status).toBe(200);
    expect(both.json().tenantId).toBe(account.tenantId);
    // Two __Host- cookies cannot come from this origin's own Set-Cookie: refused, not guessed at.
    const twice = await status(`__Host-qc_session=${planted}; __Host-qc_session=${token}`);
    expect(twice.status).toBe(401);
    expect(twice.json()).toMatchObject({ error: "UNAUTHENTICATED", message: "malformed credentials" });
  });

  it(
    "locks an account after 10 wrong passwords from 10 sources, known or unknown alike, while its other logins " + "stay open to no one",
    async () => {
      const account = await signUpAndVerify(server, t.db, fromIp("198.51.100.65"));
      const unknown = "nobody-by-this-name@example.com";
      for (const email of [account.email, unknown]) {
        for (let i = 0; i < 10; i++) {
          const res = await postJson(server, "/v1/auth/login", { email, password: `wrong password ${i}` }, fromIp(`192.0.2.${100 + i}`));
          expect(res.status, `${email} attempt ${i + 1}`).toBe(401);
        }
      }
      const known = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, fromIp("192.0.2.200"));
      const stranger = await postJson(
        server,
        "/v1/auth/login",
        { email: unknown.toUpperCase(), password: "anything at all" },
        fromIp("192.0.2.201"),
      );
      for (const res of [known, stranger]) {
        expect(res.status).toBe(429);
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(14 * 60);
      }
      const { requestId: _a, ...knownBody } = known.json();
      const { requestId: _b, ...strangerBody } = stranger.json();
      expect(knownBody).toEqual(strangerBody);
      expect(knownBody).toMatchObject({ error: "LOCKED_OUT", code: 1061 });
      // The sources themselves are not locked (one failure each): another account logs in from them.
      const other = await signUpAndVerify(server, t.db, fromIp("198.51.100.66"));
      await logInAs(server, other, fromIp("192.0.2.100"));
    },
  );

  it("counts IPv6 sources by their /64", async () => {
    const account = await signUpAndVerify(server, t.db, fromIp("198.51.100.67"));
    for (let i = 1; i <= 10; i++) {
      // Another account each time, so only the source's count can lock.
      const res = await postJson(
        server,
        "/v1/auth/login",
        { email: `guess-${i}@example.com`, password: "wrong password" },
        fromIp(`2001:db8:5:6::${i.toString(16)}`),
      );
      expect(res.status).toBe(401);
    }
    const sameNetwork = await postJson(
      server,
      "/v1/auth/login",
      { email: account.email, password: account.password },
      fromIp("2001:db8:5:6:abcd:1234:5678:9abc"),
    );
    expect(sameNetwork.status).toBe(429);
    expect(sameNetwork.json()).toMatchObject({ error: "LOCKED_OUT", message: "too many failed authentication attempts from this address" });
    await logInAs(server, account, fromIp("2001:db8:5:7::1"));
  });

  it("counts anonymous refusals per source and minute instead of writing a row each", async () => {
    const sources = ["192.0.2.31", "2001:db8:9:9::1", "2001:db8:9:9::2"];
    for (let i = 0; i < 150; i++) {
      // No credentials at all, or only a cookie that is not the session's: neither counts towards a lockout.
      const headers = fromIp(sources[i % 3]!, i % 2 ? { cookie: "theme=dark" } : {});
      expect((await call(server, "/v1/vault/accounts", { headers })).status).toBe(401);
    }
    await server.deps.authenticator.flushAudit();
    const rows = (await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "auth.failed"))).filter((row) =>
      ["192.0.2.31", "2001:db8:9:9::/64"].includes(String((row.details.aggregated as { source?: string } | undefined)?.source)),
    );
    // One v4 source and one /64: a row each.
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.details.reason === "missing" && row.tenantId === null)).toBe(true);
    expect(rows.reduce((sum, row) => sum + (row.details.aggregated as { count: number }).count, 0)).toBe(150);
  });
});

/** TRUSTED_PROXIES without the loopback the tests connect from: every forwarded header is forged. */
describe("X-Forwarded-For from a peer that is not a trusted proxy", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t, trustProxyHops: 1, trustedProxies: ["10.0.0.0/8"] });
  });
  afterAll(() => server?.close());

  it("is ignored: the allowlist, the redirect and the lockout see the socket's address", async () => {
    const account = await signUpAndVerify(server, t.db, {});
    const session = await logInAs(server, account, {});
    const allowlist = await call(server, "/v1/settings/ip-allowlist", {
      method: "PUT",
      headers: { ...session.headers, "content-type": "application/json" },
      body: JSON.stringify({ entries: [{ cidr: "203.0.113.0/24", label: "office" }], allowSelfLockout: true }),
    });
    expect(allowlist.status, allowlist.text).toBe(200);
    const forged = await call(server, "/v1/vault/accounts", { headers: fromIp("203.0.113.5", session.headers) });
    expect(forged.status).toBe(403);
    expect(forged.json()).toMatchObject({ error: "IP_NOT_ALLOWED" });
    expect((await call(server, "/healthz", { headers: { "x-forwarded-proto": "http" } })).status).toBe(200);

    // Rotating the forged address does not escape the source's lockout.
    for (let i = 0; i < 10; i++) {
      const res = await postJson(
        server,
        "/v1/auth/login",
        { email: `guess-${i}@example.com`, password: "wrong password" },
        fromIp(`198.51.100.${i + 1}`),
      );
      expect(res.status).toBe(401);
    }
    const locked = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, fromIp("198.51.100.200"));
    expect(locked.status).toBe(429);
    await server.deps.authenticator.flushAudit();
    const failures = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "auth.failed"));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((row) => row.ip === "127.0.0.1")).toBe(true);
  });
});
