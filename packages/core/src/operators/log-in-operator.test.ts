import { randomBytes } from "node:crypto";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Authenticator } from "../auth/authenticator";
import { hashToken } from "../auth/tokens";
import { createLogger } from "../logger";
import { authenticateOperator } from "./authenticate-operator";
import { createOperator } from "./create-operator";
import { logInOperator } from "./log-in-operator";
import { logOutOperator } from "./log-out-operator";
import { OPERATOR_SESSION_COOKIE } from "./operator-session";

describe("operator accounts and console sessions", () => {
  const t = useTestDatabase();
  let authenticator: Authenticator;
  let clock = new Date("2026-11-21T10:00:00.000Z");
  const now = () => clock;
  beforeAll(() => {
    authenticator = new Authenticator({
      database: t,
      pepper: randomBytes(32),
      now,
      log: createLogger("test", "silent"),
      lockout: { failures: 3, windowSeconds: 600, lockSeconds: 900 },
    });
  });
  afterAll(() => authenticator?.close());
  /** The password login while the service requires no operator passkey: a session, never the passkey step. */
  const logInWithPassword = async (input: Parameters<typeof logInOperator>[1]) => {
    const result = await logInOperator({ db: t.db, now, authenticator, config: { publicUrl: "https://localhost" } }, input);
    if ("passkeyRequired" in result) throw new Error("no passkey is required here");
    return result;
  };
  const cookie = (token: string) => `__Host-qc_session=qs_${"0".repeat(64)}; ${OPERATOR_SESSION_COOKIE}=${token}`;

  it("creates an operator once, with an Argon2id hash, and resets its password only when asked", async () => {
    const created = await createOperator(
      { db: t.db, now },
      { email: " Ops@Example.COM ", name: "Ops", password: "a long operator password" },
    );
    expect(created).toMatchObject({ email: "ops@example.com", name: "Ops", created: true });
    const [row] = await t.db.select().from(schema.operators).where(eq(schema.operators.id, created.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    await expect(createOperator({ db: t.db, now }, { email: "ops@example.com", password: "another long password" })).rejects.toMatchObject({
      error: "CONFLICT",
    });
    await expect(createOperator({ db: t.db, now }, { email: "x@example.com", password: "short" })).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
    });
    await expect(
      createOperator({ db: t.db, now }, { email: "not-an-address", password: "a long operator password" }),
    ).rejects.toMatchObject({ error: "VALIDATION_FAILED" });
    const reset = await createOperator(
      { db: t.db, now },
      { email: "ops@example.com", password: "the new operator password", resetPassword: true },
    );
    expect(reset).toMatchObject({ id: created.id, created: false });
  });

  it("logs in with the right password only, and the cookie alone authenticates until logout or expiry", async () => {
    const ip = "198.51.100.7";
    await expect(logInWithPassword({ email: "ops@example.com", password: "a long operator password", ip })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
      message: "invalid email or password",
    });
    await expect(logInWithPassword({ email: "nobody@example.com", password: "whatever it is", ip: "198.51.100.8" })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
      message: "invalid email or password",
    });
    const session = await logInWithPassword({ email: "ops@example.com", password: "the new operator password", ip, requestId: "req-1" });
    expect(session.token).toMatch(/^qo_[0-9a-f]{64}$/);
    expect(session.operator.email).toBe("ops@example.com");
    const [stored] = await t.db.select().from(schema.operatorSessions).where(eq(schema.operatorSessions.operatorId, session.operator.id));
    expect(stored!.tokenHash).not.toContain(session.token.slice(3));

    const operator = await authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) });
    expect(operator).toMatchObject({ operatorId: session.operator.id, email: "ops@example.com" });
    // A tenant's session cookie is not an operator's, and a malformed one is nothing.
    await expect(authenticateOperator({ db: t.db, now }, { cookie: `__Host-qc_session=qs_${"1".repeat(64)}` })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
    });
    // Only the __Host- cookie counts (a sibling subdomain can plant the plain name), and never two of them.
    expect(OPERATOR_SESSION_COOKIE).toBe("__Host-qc_operator_session");
    await expect(authenticateOperator({ db: t.db, now }, { cookie: `qc_operator_session=${session.token}` })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
    });
    await expect(
      authenticateOperator({ db: t.db, now }, { cookie: `${cookie(session.token)}; ${OPERATOR_SESSION_COOKIE}=qo_${"2".repeat(64)}` }),
    ).rejects.toMatchObject({ error: "UNAUTHENTICATED" });
    await expect(authenticateOperator({ db: t.db, now }, { cookie: `${OPERATOR_SESSION_COOKIE}=qo_nothex` })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
    });

    // Sliding: used after 7 h, still alive at 14 h; idle for 8 h, gone.
    clock = new Date(clock.getTime() + 7 * 3600_000);
    await authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) });
    clock = new Date(clock.getTime() + 7 * 3600_000);
    await authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) });
    clock = new Date(clock.getTime() + 8 * 3600_000 + 1000);
    await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
    });

    const second = await logInWithPassword({ email: "ops@example.com", password: "the new operator password", ip });
    const principal = await authenticateOperator({ db: t.db, now }, { cookie: cookie(second.token) });
    await logOutOperator({ db: t.db, now }, { operator: principal });
    await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(second.token) })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
    });

    const audited = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.actorType, "operator"), eq(schema.auditEvents.actorId, session.operator.id)));
    expect(audited.map((row) => row.action)).toEqual(
      expect.arrayContaining(["operator.created", "operator.logged_in", "operator.logged_out"]),
    );
    expect(audited.every((row) => row.tenantId === null)).toBe(true);
  });

  it("counts failures towards the source's lockout, then refuses even the right password", async () => {
    const ip = "203.0.113.9";
    for (let i = 0; i < 3; i++) {
      // Another account each time: only the source's count reaches the limit.
      await expect(logInWithPassword({ email: `guess-${i}@example.com`, password: "wrong password here", ip })).rejects.toMatchObject({
        error: "UNAUTHENTICATED",
      });
    }
    await expect(logInWithPassword({ email: "ops@example.com", password: "the new operator password", ip })).rejects.toMatchObject({
      error: "LOCKED_OUT",
    });
  });

  it("ends a console session 24 h after its login however much it is used", async () => {
    await createOperator({ db: t.db, now }, { email: "busy@example.com", password: "a busy operator password" });
    const session = await logInWithPassword({ email: "busy@example.com", password: "a busy operator password", ip: "198.51.100.30" });
    const login = clock.getTime();
    // Polled every 2 h: the sliding 8 h never lapses, but the session still ends at 24 h.
    for (let hours = 2; hours < 24; hours += 2) {
      clock = new Date(login + hours * 3600_000);
      await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) })).resolves.toMatchObject({
        email: "busy@example.com",
      });
    }
    const [row] = await t.db
      .select()
      .from(schema.operatorSessions)
      .where(eq(schema.operatorSessions.tokenHash, hashToken(session.token)));
    expect(row!.expiresAt.getTime()).toBe(login + 24 * 3600_000);
    clock = new Date(login + 24 * 3600_000);
    await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) })).rejects.toMatchObject({
      error: "UNAUTHENTICATED",
    });
  });

  it("ends every console session of an operator whose password is set again from the command line", async () => {
    await createOperator({ db: t.db, now }, { email: "leaked@example.com", password: "the leaked old password" });
    const sessions = [];
    for (const ip of ["198.51.100.40", "198.51.100.41"])
      sessions.push(await logInWithPassword({ email: "leaked@example.com", password: "the leaked old password", ip }));
    for (const s of sessions) await authenticateOperator({ db: t.db, now }, { cookie: cookie(s.token) });
    const reset = await createOperator(
      { db: t.db, now },
      { email: "leaked@example.com", password: "a fresh operator password", resetPassword: true },
    );
    expect(reset).toMatchObject({ created: false, sessionsEnded: 2 });
    for (const s of sessions)
      await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(s.token) })).rejects.toMatchObject({
        error: "UNAUTHENTICATED",
      });
    const [audit] = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.action, "operator.password_reset"), eq(schema.auditEvents.actorId, reset.id)));
    expect(audit!.details).toMatchObject({ sessionsEnded: 2 });
  });

  it("locks an account out after failures spread over many sources, known or unknown, without telling them apart", async () => {
    await createOperator({ db: t.db, now }, { email: "target@example.com", password: "the target operator password" });
    for (const email of ["target@example.com", "nobody-at-all@example.com"]) {
      for (let i = 0; i < 3; i++) {
        await expect(logInWithPassword({ email, password: "wrong password here", ip: `192.0.2.${10 + i}` })).rejects.toMatchObject({
          error: "UNAUTHENTICATED",
        });
      }
    }
    const known = logInWithPassword({ email: "target@example.com", password: "the target operator password", ip: "192.0.2.99" });
    const unknown = logInWithPassword({ email: "Nobody-At-All@example.com", password: "anything at all", ip: "192.0.2.98" });
    const refusals = await Promise.all(
      [known, unknown].map((p) =>
        p.then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ error: "LOCKED_OUT", message: "too many failed log-in attempts for this account; try again later" });
    // The tenant realm is another account: a tenant user with the same address is not locked by it.
    await expect(authenticator.refuseIfLockedOut("192.0.2.97", { realm: "user", email: "target@example.com" })).resolves.toBeUndefined();
  });
});
