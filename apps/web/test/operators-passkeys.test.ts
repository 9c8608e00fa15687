import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createOperator } from "@qc/core/testing";
import { and, eq, isNull, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, type TestResponse, type TestServer } from "./harness";
import { fromIp, postJson } from "./identity-helpers";
import { errorName } from "./security/api-surface";
import { SoftwareAuthenticator, type SoftwarePasskey } from "./passkeys-authenticator";

/**
 * Operators' passkeys over HTTPS (CONTRACT §14: the console's logins follow the members' rule with
 * their own setting): registration (tRPC `operators.*`), `requireOperatorPasskey` refused without
 * a passkey, the login's passkey step, a replayed answer refused; the command line's recovery
 * (`scripts/create-operator.ts --disable-passkey-requirement`, run as a process). The software
 * authenticator is passkeys.test.ts's.
 */
describe("operators' passkeys", () => {
  const t = useTestDatabase();
  let server: TestServer;
  const authenticator = new SoftwareAuthenticator({ rpId: "localhost", origin: "https://localhost" });
  const PASSWORD = "a long operator password";
  beforeAll(async () => {
    server = await startTestServer({ database: t, trustProxyHops: 1 });
  });
  afterAll(() => server?.close());

  const answer = (res: TestResponse) => `${res.status} ${errorName(res) ?? ""}`.trim();
  const data = <T>(res: TestResponse): T => res.json<{ result: { data: { json: T } } }>().result.data.json;
  const trpc = (type: "query" | "mutation", path: string, cookie: string | undefined, input: unknown = {}, ip = "198.51.100.70") => {
    const headers = fromIp(ip, cookie ? { cookie } : {});
    return type === "query"
      ? call(server, `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers })
      : postJson(server, `/api/trpc/${path}`, { json: input }, headers);
  };
  const cookieOf = (res: TestResponse): string => {
    const set = [res.headers["set-cookie"] ?? []].flat();
    const found = set.find((c) => c.startsWith("__Host-qc_operator_session=qo_"));
    if (!found) throw new Error(`no operator cookie in ${res.status} ${res.text}`);
    return found.split(";")[0]!;
  };
  const logIn = (email: string, ip: string) => trpc("mutation", "operators.login", undefined, { email, password: PASSWORD }, ip);

  async function register(cookie: string, name: string): Promise<SoftwarePasskey> {
    const options = await trpc("mutation", "operators.passkeyRegistrationOptions", cookie);
    expect(options.status, options.text).toBe(200);
    const { challengeId, options: creation } = data<{ challengeId: string; options: { challenge: string } }>(options);
    const made = authenticator.register(creation);
    const res = await trpc("mutation", "operators.registerPasskey", cookie, { challengeId, name, response: made.response });
    expect(res.status, res.text).toBe(200);
    return made.passkey;
  }

  it("requires a passkey of the operator to turn the setting on, then the login needs the passkey; a replayed answer is refused", async () => {
    const operator = await createOperator({ db: t.db, now: () => new Date() }, { email: "ops-passkeys@example.com", password: PASSWORD });
    const first = await logIn("ops-passkeys@example.com", "198.51.100.71");
    expect(first.status, first.text).toBe(200);
    const cookie = cookieOf(first);
    expect(data(await trpc("query", "operators.securitySettings", cookie))).toEqual({ requireOperatorPasskey: false });

    // Refused without a passkey.
    const refused = await trpc("mutation", "operators.updateSecuritySettings", cookie, { requireOperatorPasskey: true });
    expect(answer(refused)).toBe("409 PASSKEY_REQUIRED");

    const passkey = await register(cookie, "YubiKey");
    expect(data<{ passkeys: { name: string }[] }>(await trpc("query", "operators.passkeys", cookie)).passkeys.map((p) => p.name)).toEqual([
      "YubiKey",
    ]);
    const on = await trpc("mutation", "operators.updateSecuritySettings", cookie, { requireOperatorPasskey: true });
    expect(on.status, on.text).toBe(200);
    expect(data(on)).toEqual({ requireOperatorPasskey: true });

    // The right password now answers the passkey step, no cookie.
    const stepOne = await logIn("ops-passkeys@example.com", "198.51.100.72");
    expect(stepOne.status, stepOne.text).toBe(200);
    expect(stepOne.headers["set-cookie"]).toBeUndefined();
    const challenge = data<{ passkeyRequired: true; challengeId: string; options: { challenge: string } }>(stepOne);
    expect(challenge).toMatchObject({ passkeyRequired: true, challengeId: expect.any(String) });

    const assertion = authenticator.authenticate(passkey, challenge.options);
    const stepTwo = await trpc("mutation", "operators.loginPasskey", undefined, {
      challengeId: challenge.challengeId,
      response: assertion,
    });
    expect(stepTwo.status, stepTwo.text).toBe(200);
    const passkeyCookie = cookieOf(stepTwo);
    expect(data<{ email: string }>(await trpc("query", "operators.me", passkeyCookie)).email).toBe("ops-passkeys@example.com");

    // The same answer again: its challenge is used up.
    const replayed = await trpc("mutation", "operators.loginPasskey", undefined, {
      challengeId: challenge.challengeId,
      response: assertion,
    });
    expect(answer(replayed)).toBe("401 UNAUTHENTICATED");
    // A fresh challenge answered with an older counter (a clone): refused too.
    const again = data<{ challengeId: string; options: { challenge: string } }>(await logIn("ops-passkeys@example.com", "198.51.100.73"));
    const cloned = authenticator.authenticate(passkey, again.options, passkey.counter - 1);
    expect(answer(await trpc("mutation", "operators.loginPasskey", undefined, { challengeId: again.challengeId, response: cloned }))).toBe(
      "401 UNAUTHENTICATED",
    );

    // Audited in the operators' trail (no tenant).
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(isNull(schema.auditEvents.tenantId), eq(schema.auditEvents.actorId, operator.id)));
    expect(audit.map((r) => r.action)).toEqual(
      expect.arrayContaining(["operator.passkey_added", "operator.settings.require_operator_passkey_changed", "operator.logged_in"]),
    );
    const failures = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "operator.login_failed"));
    expect(failures.map((r) => r.details)).toEqual(
      expect.arrayContaining([
        { reason: "passkey_challenge_unknown", operatorId: null },
        { reason: "passkey_not_verified", operatorId: operator.id },
      ]),
    );

    // The last passkey stays while the setting is on; off again, it can go.
    const [row] = await t.db.select().from(schema.operatorPasskeys).where(eq(schema.operatorPasskeys.operatorId, operator.id));
    expect(answer(await trpc("mutation", "operators.removePasskey", passkeyCookie, { passkeyId: row!.id }))).toBe("409 PASSKEY_REQUIRED");
    expect(answer(await trpc("mutation", "operators.updateSecuritySettings", passkeyCookie, { requireOperatorPasskey: false }))).toBe(
      "200",
    );
    expect(answer(await trpc("mutation", "operators.removePasskey", passkeyCookie, { passkeyId: row!.id }))).toBe("200");
    const plain = await logIn("ops-passkeys@example.com", "198.51.100.74");
    expect(cookieOf(plain)).toMatch(/^__Host-qc_operator_session=qo_/);
  });

  /** scripts/create-operator.ts as an operator runs it on the server, against this test's database. */
  const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
  const createOperatorScript = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "scripts/create-operator.ts", ...args],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: t.url } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it("lets the command line turn the requirement off for an operator locked out without a passkey, audited as system/cli", async () => {
    await createOperator({ db: t.db, now: () => new Date() }, { email: "ops-keyholder@example.com", password: PASSWORD });
    await createOperator({ db: t.db, now: () => new Date() }, { email: "ops-locked@example.com", password: PASSWORD });
    const holder = cookieOf(await logIn("ops-keyholder@example.com", "198.51.100.81"));
    await register(holder, "Only key");
    expect(answer(await trpc("mutation", "operators.updateSecuritySettings", holder, { requireOperatorPasskey: true }))).toBe("200");
    // Without a passkey, the right password is not enough.
    expect(answer(await logIn("ops-locked@example.com", "198.51.100.82"))).toBe("409 PASSKEY_REQUIRED");

    // The recovery switch takes no other option and asks no password.
    const misused = await createOperatorScript("--disable-passkey-requirement", "--email", "ops-locked@example.com");
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain("--disable-passkey-requirement");
    const recovered = await createOperatorScript("--disable-passkey-requirement");
    expect(recovered.stderr).toBe("");
    expect(recovered.code).toBe(0);
    expect(recovered.stdout).toMatch(/^Console logins no longer require a passkey/);
    expect(data(await trpc("query", "operators.securitySettings", holder))).toEqual({ requireOperatorPasskey: false });
    expect(cookieOf(await logIn("ops-locked@example.com", "198.51.100.83"))).toMatch(/^__Host-qc_operator_session=qo_/);

    // Audited as the other changes, with the command line as the actor; a second run changes nothing.
    const again = await createOperatorScript("--disable-passkey-requirement");
    expect(again.stdout).toMatch(/^Console logins did not require a passkey/);
    const changes = await t.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.action, "operator.settings.require_operator_passkey_changed"),
          eq(schema.auditEvents.actorType, "system"),
        ),
      );
    expect(changes.map((r) => ({ actorId: r.actorId, tenantId: r.tenantId, details: r.details }))).toEqual([
      { actorId: "cli", tenantId: null, details: { before: true, after: false } },
    ]);
  }, 60_000);
});
