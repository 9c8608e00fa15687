import { createKeyFixture, createSessionFixture, createTenantFixture } from "@qc/core/testing";
import type { Scope } from "@qc/core";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "../harness";
import { callTrpc, errorName, fetchRestOperations, trpcProcedures, type TrpcProcedure } from "./api-surface";

/**
 * The scope matrix over the tRPC endpoint, generated from the router's procedures and their meta:
 * the REST side of the same matrix is `access.test.ts` (every operation of the OpenAPI document ×
 * anonymous/read/write/admin/signer), whose generator this reuses rather than twins: this file adds what
 * the document cannot show: every procedure over /api/trpc, including those without a REST route
 * (session-only key management, the operators' console), and that the document's `x-scope` is
 * the meta's scope the middleware enforces.
 */

/**
 * What a key of each scope may call, spelled out here rather than imported from @qc/core, so the
 * matrix checks the middleware against the documented rule (docs/decisions/access-control.md):
 * `read` ⊂ `write` ⊂ `admin`, and `signer` beside them with `read`, implied by neither.
 */
const GRANTS: Record<Scope, readonly Scope[]> = {
  read: ["read"],
  write: ["read", "write"],
  admin: ["read", "write", "admin"],
  signer: ["read", "signer"],
};
const SCOPES = Object.keys(GRANTS) as Scope[];

/**
 * The procedures only the signer's key (or full access) reaches: what can fill the key pool
 * `wallets/generate` draws from, add an address as a wallet, answer a signing request, or
 * enroll or revoke the approval keys approvals are signed with, or sign an approval.
 */
const SIGNER_ONLY = [
  "signer.enrollKeys",
  "signer.pendingTransactions",
  "signer.submitSignature",
  "signer.reject",
  "wallets.register",
  // The signer holds its member's approval keys (CONTRACT §15): enrolling and revoking one, and deciding with it.
  "members.approvalKeys.enroll",
  "members.approvalKeys.revoke",
  "approvals.decide",
  "addressBook.decide",
];

/** Public procedures that authenticate the caller by other means than a tenant credential. */
const SIGNED_PUBLIC: Record<string, string> = {
  "onboarding.kycCallback": "the KYC provider signs the raw body (X-KYC-Signature, HMAC-SHA256): unsigned is 401 UNAUTHENTICATED",
};

describe("scope matrix over every tRPC procedure", () => {
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

  it("the document's x-scope of each operation is the scope its procedure's meta declares", async () => {
    const byPath = new Map(
      trpcProcedures()
        .filter((p) => p.meta?.openapi)
        .map((p) => [`${p.meta!.openapi!.method.toUpperCase()} ${p.meta!.openapi!.path}`, p]),
    );
    const mismatches = (await fetchRestOperations(server)).flatMap((op) => {
      const procedure = byPath.get(op.key);
      if (!procedure) return [`${op.key}: no procedure`];
      const expected = procedure.access === "public" ? undefined : procedure.scope;
      return op.scope === expected ? [] : [`${op.key}: x-scope ${op.scope}, meta ${expected}`];
    });
    expect(mismatches).toEqual([]);
  });

  it("the signer's routes need the signer scope, the policy needs admin, and generating a wallet stays write", () => {
    const byPath = new Map(trpcProcedures().map((p) => [p.path, p]));
    expect(
      trpcProcedures()
        .filter((p) => p.access === "authenticated" && p.scope === "signer")
        .map((p) => p.path)
        .sort(),
    ).toEqual([...SIGNER_ONLY].sort());
    expect(byPath.get("policies.get")?.scope).toBe("admin");
    expect(byPath.get("wallets.generate")?.scope).toBe("write");
    expect(byPath.get("signer.keyCounts")?.scope).toBe("read");
  });

  it("a key below the declared scope gets 403 INSUFFICIENT_SCOPE; with it, never a scope or credential refusal", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const keys = Object.fromEntries(
      await Promise.all(
        SCOPES.map(async (s) => [s, (await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, [s])).authorization] as const),
      ),
    ) as Record<Scope, string>;
    const send = (procedure: TrpcProcedure, authorization?: string): Promise<TestResponse> =>
      callTrpc(server, procedure, JSON.stringify({ json: {} }), authorization ? { authorization } : {});
    const answer = (res: TestResponse) => (res.status < 400 ? String(res.status) : `${res.status} ${errorName(res)}`);
    const procedures = trpcProcedures();
    expect(procedures.length).toBeGreaterThan(50);

    const wrong: string[] = [];
    const expectThat = (procedure: TrpcProcedure, caller: string, res: TestResponse, ok: (a: string) => boolean, expected: string) => {
      if (!ok(answer(res))) wrong.push(`${procedure.path} as ${caller}: ${answer(res)}, expected ${expected}`);
    };
    const refused = (a: string) => /^(401|403) /.test(a);
    for (const procedure of procedures) {
      // A session per call: logout ends the one it is given.
      const session = (await createSessionFixture({ db: t.db }, tenant)).authorization;
      switch (procedure.access) {
        case "public":
          if (SIGNED_PUBLIC[procedure.path])
            expectThat(procedure, "anonymous", await send(procedure), (a) => a === "401 UNAUTHENTICATED", "401 UNAUTHENTICATED");
          else expectThat(procedure, "anonymous", await send(procedure), (a) => !refused(a), "no credential or scope refusal");
          break;
        case "operator":
          // Only the operator cookie: a tenant's admin key or session is nothing here.
          expectThat(procedure, "admin key", await send(procedure, keys.admin), (a) => a === "401 UNAUTHENTICATED", "401 UNAUTHENTICATED");
          expectThat(procedure, "session", await send(procedure, session), (a) => a === "401 UNAUTHENTICATED", "401 UNAUTHENTICATED");
          break;
        case "session":
          for (const scope of SCOPES)
            expectThat(
              procedure,
              `${scope} key`,
              await send(procedure, keys[scope]),
              (a) => a === "403 INSUFFICIENT_SCOPE",
              "403 INSUFFICIENT_SCOPE",
            );
          expectThat(
            procedure,
            "full-access key",
            await send(procedure, tenant.authorization),
            (a) => a === "403 INSUFFICIENT_SCOPE",
            "403 INSUFFICIENT_SCOPE",
          );
          expectThat(procedure, "session", await send(procedure, session), (a) => !refused(a), "no credential or scope refusal");
          break;
        case "authenticated":
          expectThat(procedure, "anonymous", await send(procedure), (a) => a === "401 UNAUTHENTICATED", "401 UNAUTHENTICATED");
          for (const scope of SCOPES) {
            const below = !GRANTS[scope].includes(procedure.scope);
            expectThat(
              procedure,
              `${scope} key`,
              await send(procedure, keys[scope]),
              below ? (a) => a === "403 INSUFFICIENT_SCOPE" : (a) => !refused(a),
              below ? "403 INSUFFICIENT_SCOPE" : "no credential or scope refusal",
            );
          }
          // No scopes = full access (CONTRACT §3).
          expectThat(
            procedure,
            "full-access key",
            await send(procedure, tenant.authorization),
            (a) => !refused(a),
            "no credential or scope refusal",
          );
          expectThat(procedure, "session", await send(procedure, session), (a) => !refused(a), "no credential or scope refusal");
          break;
      }
    }
    expect(wrong).toEqual([]);
    // Every access tier is in the matrix, so a change of tier shows up here.
    expect(new Set(procedures.map((p) => p.access))).toEqual(new Set(["public", "operator", "session", "authenticated"]));
  });
});
