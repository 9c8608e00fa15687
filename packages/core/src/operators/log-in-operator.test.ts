import { randomBytes } from "node:crypto";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Authenticator } from "../auth/authenticator";
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
    authenticator = new Authenticator({ database: t, pepper: randomBytes(32), now, log: createLogger("test", "silent"), lockout: { failures: 3, windowSeconds: 600, lockSeconds: 900 } });
  });
  afterAll(() => authenticator?.close());
  const cookie = (token: string) => `qc_session=qs_${"0".repeat(64)}; ${OPERATOR_SESSION_COOKIE}=${token}`;

  it("creates an operator once, with an Argon2id hash, and resets its password only when asked", async () => {
    const created = await createOperator({ db: t.db, now }, { email: " Ops@Example.COM ", name: "Ops", password: "a long operator password" });
    expect(created).toMatchObject({ email: "ops@example.com", name: "Ops", created: true });
    const [row] = await t.db.select().from(schema.operators).where(eq(schema.operators.id, created.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    await expect(createOperator({ db: t.db, now }, { email: "ops@example.com", password: "another long password" })).rejects.toMatchObject({ error: "CONFLICT" });
    await expect(createOperator({ db: t.db, now }, { email: "x@example.com", password: "short" })).rejects.toMatchObject({ error: "VALIDATION_FAILED" });
    await expect(createOperator({ db: t.db, now }, { email: "not-an-address", password: "a long operator password" })).rejects.toMatchObject({ error: "VALIDATION_FAILED" });
    const reset = await createOperator({ db: t.db, now }, { email: "ops@example.com", password: "the new operator password", resetPassword: true });
    expect(reset).toMatchObject({ id: created.id, created: false });
  });

  it("logs in with the right password only, and the cookie alone authenticates until logout or expiry", async () => {
    const ip = "198.51.100.7";
    await expect(logInOperator({ db: t.db, now, authenticator }, { email: "ops@example.com", password: "a long operator password", ip })).rejects.toMatchObject({ error: "UNAUTHENTICATED", message: "invalid email or password" });
    await expect(logInOperator({ db: t.db, now, authenticator }, { email: "nobody@example.com", password: "whatever it is", ip: "198.51.100.8" })).rejects.toMatchObject({ error: "UNAUTHENTICATED", message: "invalid email or password" });
    const session = await logInOperator({ db: t.db, now, authenticator }, { email: "ops@example.com", password: "the new operator password", ip, requestId: "req-1" });
    expect(session.token).toMatch(/^qo_[0-9a-f]{64}$/);
    expect(session.operator.email).toBe("ops@example.com");
    const [stored] = await t.db.select().from(schema.operatorSessions).where(eq(schema.operatorSessions.operatorId, session.operator.id));
    expect(stored!.tokenHash).not.toContain(session.token.slice(3));

    const operator = await authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) });
    expect(operator).toMatchObject({ operatorId: session.operator.id, email: "ops@example.com" });
    // A tenant's session cookie is not an operator's, and a malformed one is nothing.
    await expect(authenticateOperator({ db: t.db, now }, { cookie: `qc_session=qs_${"1".repeat(64)}` })).rejects.toMatchObject({ error: "UNAUTHENTICATED" });
    await expect(authenticateOperator({ db: t.db, now }, { cookie: `${OPERATOR_SESSION_COOKIE}=qo_nothex` })).rejects.toMatchObject({ error: "UNAUTHENTICATED" });

    // Sliding: used after 7 h, still alive at 14 h; idle for 8 h, gone.
    clock = new Date(clock.getTime() + 7 * 3600_000);
    await authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) });
    clock = new Date(clock.getTime() + 7 * 3600_000);
    await authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) });
    clock = new Date(clock.getTime() + 8 * 3600_000 + 1000);
    await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(session.token) })).rejects.toMatchObject({ error: "UNAUTHENTICATED" });

    const second = await logInOperator({ db: t.db, now, authenticator }, { email: "ops@example.com", password: "the new operator password", ip });
    const principal = await authenticateOperator({ db: t.db, now }, { cookie: cookie(second.token) });
    await logOutOperator({ db: t.db, now }, { operator: principal });
    await expect(authenticateOperator({ db: t.db, now }, { cookie: cookie(second.token) })).rejects.toMatchObject({ error: "UNAUTHENTICATED" });

    const audited = await t.db.select().from(schema.auditEvents).where(and(eq(schema.auditEvents.actorType, "operator"), eq(schema.auditEvents.actorId, session.operator.id)));
    expect(audited.map((row) => row.action)).toEqual(expect.arrayContaining(["operator.created", "operator.logged_in", "operator.logged_out"]));
    expect(audited.every((row) => row.tenantId === null)).toBe(true);
  });

  it("counts failures towards the source's lockout, then refuses even the right password", async () => {
    const ip = "203.0.113.9";
    for (let i = 0; i < 3; i++) {
      await expect(logInOperator({ db: t.db, now, authenticator }, { email: "ops@example.com", password: "wrong password here", ip })).rejects.toMatchObject({ error: "UNAUTHENTICATED" });
    }
    await expect(logInOperator({ db: t.db, now, authenticator }, { email: "ops@example.com", password: "the new operator password", ip })).rejects.toMatchObject({ error: "LOCKED_OUT" });
  });
});
