import { createMemberFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { MEMBER_ACTIONS, MEMBER_ROLES, roleAllows, type MemberAction, type MemberRole } from "@qc/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "../harness";
import { callTrpc, errorName, trpcProcedures, type TrpcProcedure } from "./api-surface";

/**
 * The role matrix (CONTRACT §14), generated from the router's procedures and their meta like the
 * scope matrix beside it: every procedure a tenant's credential reaches is called over HTTPS by a
 * member of each role, with the member's full-access API key and with their dashboard session, and
 * must answer 403 INSUFFICIENT_ROLE exactly when the permission table (@qc/domain's, held equal to
 * the contract's by packages/domain/src/members.test.ts) denies the role the procedure's action.
 * A procedure that declares no action fails here until it does.
 */

const REFUSED_BY_ROLE = "403 INSUFFICIENT_ROLE";

/**
 * Which row of §14's table each procedure is, written from the contract's rows rather than read
 * from the meta under test: reading is `read` (a dry run of the policy and logging out change
 * nothing of the tenant's either); the signer's routes and every other change to custody
 * (transfers, deployments, vaults, wallets) are `transact`; one's own API keys are `own_keys`;
 * changing members is `manage_members` (the service asks `manage_owners` where an OWNER is made or
 * unmade); one's own passkeys are `own_keys`, another member's passkeys and requiring passkeys at
 * login are `manage_owners`; enrolling and revoking one's approval keys, and deciding an address-book
 * entry awaiting approval, is `approve`; every other
 * change (webhooks, policies, settings, tokens, KYC, approver groups) is `administer`.
 */
function expectedAction(p: TrpcProcedure): MemberAction {
  if (p.path.startsWith("credentials.") && p.type === "mutation") return "own_keys";
  // Deciding approvals (a transfer's, §15, or an address-book addition's, §16), and one's own approval keys that decisions are signed with.
  if (p.path === "addressBook.decide") return "approve";
  if ((p.path.startsWith("members.approvalKeys.") || p.path.startsWith("approvals.")) && p.type === "mutation") return "approve";
  if (p.path.startsWith("members.") && p.type === "mutation") return "manage_members";
  // One's own passkeys are one's own credentials; another member's (recovery) and requiring passkeys are an OWNER's.
  if (p.path === "passkeys.removeForMember" || p.path === "passkeys.updateSecuritySettings") return "manage_owners";
  if (p.path.startsWith("passkeys.") && p.type === "mutation") return "own_keys";
  if (p.scope === "signer") return "transact";
  if (p.type === "query" || p.path === "auth.logout" || p.path === "policies.evaluate") return "read";
  return p.scope === "admin" ? "administer" : "transact";
}

describe("role matrix over every tRPC procedure", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      rateLimits: {
        tenantPerSecond: 100_000,
        tenantBurstExtra: 100_000,
        signupPerHour: 1_000,
        signupLockSeconds: 1,
        resendPerHourPerIp: 1_000,
        resendPerHourPerEmail: 1_000,
      },
    });
  });
  afterAll(() => server?.close());

  const tenantProcedures = () => trpcProcedures().filter((p) => p.access === "authenticated" || p.access === "session");

  it("every procedure a tenant's credential reaches declares its action, and the document shows it as x-action", async () => {
    const procedures = tenantProcedures();
    expect(procedures.length).toBeGreaterThan(50);
    expect(procedures.filter((p) => !p.meta?.action).map((p) => p.path)).toEqual([]);
    for (const p of procedures) expect(MEMBER_ACTIONS, p.path).toContain(p.meta!.action);
    expect(
      procedures
        .filter((p) => p.meta!.action !== expectedAction(p))
        .map((p) => `${p.path}: ${p.meta!.action}, expected ${expectedAction(p)}`),
    ).toEqual([]);
    const byPath = new Map(
      procedures.filter((p) => p.meta?.openapi).map((p) => [`${p.meta!.openapi!.method.toUpperCase()} ${p.meta!.openapi!.path}`, p]),
    );
    const document = (await call(server, "/v1/openapi.json")).json<{ paths: Record<string, Record<string, { "x-action"?: string }>> }>();
    const actions = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => {
        const procedure = byPath.get(`${method.toUpperCase()} ${path}`);
        return procedure ? [[`${method.toUpperCase()} ${path}`, op["x-action"], procedure.meta!.action]] : [];
      }),
    );
    expect(actions.length).toBe(byPath.size);
    expect(actions.filter(([, shown, declared]) => shown !== declared)).toEqual([]);
  });

  it("answers 403 INSUFFICIENT_ROLE exactly where the permission table denies the role, by key and by session", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const members: Record<MemberRole, TenantFixture> = { OWNER: owner } as Record<MemberRole, TenantFixture>;
    for (const role of MEMBER_ROLES)
      if (role !== "OWNER") members[role] = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, role);
    const send = (procedure: TrpcProcedure, authorization: string): Promise<TestResponse> =>
      callTrpc(server, procedure, JSON.stringify({ json: {} }), { authorization });
    const answer = (res: TestResponse) => (res.status < 400 ? String(res.status) : `${res.status} ${errorName(res)}`);

    const wrong: string[] = [];
    let refusals = 0;
    let passes = 0;
    for (const procedure of tenantProcedures()) {
      const action = procedure.meta!.action!;
      for (const role of MEMBER_ROLES) {
        const allowed = roleAllows(role, action);
        const credentials: [string, string][] = [["session", (await createSessionFixture({ db: t.db }, members[role])).authorization]];
        // Session-only procedures refuse every key by scope, whatever its member's role (the scope matrix's part).
        if (procedure.access === "authenticated") credentials.push(["key", members[role].authorization]);
        for (const [kind, authorization] of credentials) {
          const got = answer(await send(procedure, authorization));
          const ok = allowed ? !/^(401|403) /.test(got) : got === REFUSED_BY_ROLE;
          if (!ok)
            wrong.push(`${procedure.path} (${action}) as ${role} ${kind}: ${got}, expected ${allowed ? "no refusal" : REFUSED_BY_ROLE}`);
          if (allowed) passes++;
          else refusals++;
        }
      }
    }
    expect(wrong).toEqual([]);
    // Both sides of the table were exercised.
    expect(refusals).toBeGreaterThan(50);
    expect(passes).toBeGreaterThan(200);
    // Refusals are audited like a missing scope: through the buffer, naming the member's role and the action.
    await server.deps.authenticator.flushAudit();
    const audited = await t.db
      .select({ actorId: schema.auditEvents.actorId, details: schema.auditEvents.details })
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, owner.tenantId), eq(schema.auditEvents.action, "auth.insufficient_role")));
    expect(audited.length).toBeGreaterThan(0);
    expect(audited).toContainEqual({
      actorId: members.VIEWER.keyId,
      details: { action: "transact", role: "VIEWER", path: "/api/trpc/vaults.create" },
    });
  });

  it("answers the same over REST: every operation of the document as each role's key", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const keys: Record<MemberRole, string> = { OWNER: owner.authorization } as Record<MemberRole, string>;
    for (const role of MEMBER_ROLES)
      if (role !== "OWNER") keys[role] = (await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, role)).authorization;
    const document = (await call(server, "/v1/openapi.json")).json<{
      paths: Record<string, Record<string, { "x-action"?: MemberAction }>>;
    }>();
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        op["x-action"] ? [{ method: method.toUpperCase(), path, action: op["x-action"] }] : [],
      ),
    );
    expect(operations.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const op of operations)
      for (const role of MEMBER_ROLES) {
        // A UUID no tenant owns in the path, an empty body: the role is judged before either is looked at.
        const res = await call(server, op.path.replace(/\{[^}]+\}/g, "0194f2c4-0000-7000-8000-00000000abcd"), {
          method: op.method,
          headers: { authorization: keys[role], ...(op.method === "GET" ? {} : { "content-type": "application/json" }) },
          ...(op.method === "GET" ? {} : { body: "{}" }),
        });
        const got = res.status < 400 ? String(res.status) : `${res.status} ${errorName(res)}`;
        const allowed = roleAllows(role, op.action);
        if (allowed ? /^(401|403) /.test(got) : got !== REFUSED_BY_ROLE)
          wrong.push(`${op.method} ${op.path} (${op.action}) as ${role}: ${got}, expected ${allowed ? "no refusal" : REFUSED_BY_ROLE}`);
      }
    expect(wrong).toEqual([]);
  });
});
