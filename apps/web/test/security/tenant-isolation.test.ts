import { randomUUID } from "node:crypto";
import { defaultWebhookConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, type TestResponse, type TestServer } from "../harness";
import { devnetConfig, idempotencyKey, nativeTransfer, startTransfersDaemon } from "../transfers-front-helpers";
import { callTrpc, errorName, fetchRestOperations, fillPath, trpcProcedures, type RestOperation } from "./api-surface";
import { createTenantWorld, type ResourceIds, type TenantWorld } from "./tenant-world";

/**
 * Tenant B, with a full admin key, aims every route at tenant A's resources. Generated from the
 * served OpenAPI document: each path parameter names a kind of resource both tenants own, and
 * each `…Id` field of a documented body is either a tenant's resource or declared shared here.
 * A route or a body field the generator cannot drive must be in an exclusion table with the
 * reason, so a new route fails this file until someone decides how it is isolated.
 */

/** Routes with path ids that this matrix does not drive, and why. */
const EXCLUDED_ROUTES: Record<string, string> = {
  "PUT /v1/members/{userId}":
    "driven in members.test.ts (another tenant's member is 404 and keeps its role); a member id here would change the " +
    "fuzz's seeded id pools, which share the world's ids",
  "GET /v1/members/{userId}/passkeys": "driven in passkeys.test.ts (another tenant's member: an empty list)",
  "DELETE /v1/members/{userId}/passkeys/{passkeyId}": "driven in passkeys.test.ts (another tenant's passkey: 404, kept)",
  "DELETE /v1/members/{userId}":
    "driven in members-invitations.test.ts (another tenant's member is 404 and stays); removing the world's member here " +
    "would end the key the rest of this matrix uses",
  "DELETE /v1/members/invitations/{invitationId}":
    "driven in members-invitations.test.ts (another tenant's invitation is 404 and stays pending)",
  "POST /v1/transactions/{transactionId}/approvals":
    "driven in approvals.test.ts (another tenant's transaction is 404 to decide and to export; another member's approval " +
    "key, which is no API key, is 400 INVALID_SIGNATURE): a decision's body must carry an ML-DSA-87 signature by the " +
    "caller's approval key before any lookup",
  "POST /v1/address-book/{entryId}/approvals":
    "driven in address-book-approvals.test.ts (another tenant's entry is 404 to decide, before any check of the body); " +
    "the body's keyId is an approval key, not the API key the matrix swaps in, and the world's own entries await no " +
    "approval (409 CONFLICT)",
  "DELETE /v1/members/me/approval-keys/{keyId}":
    "driven in approval-keys.test.ts (another tenant's or another member's approval key is 404 and stays active); " +
    "enrolling one here needs an ML-DSA-87 proof for the world's member",
};

/** Body fields ending in `Id` that do not name a tenant's resource. */
const SHARED_BODY_IDS: Record<string, string> = {
  assetId: "native assets are the same for every tenant (UUIDv5 of the network); a tenant's tokens are not driven (excluded below)",
  templateId: "audited contract templates ship with the service and are the same for every tenant",
  tenantId: "only in the KYC provider's signed callback, which no tenant calls",
  challengeId:
    "the login's passkey step: a challenge issued to one user after their password, no tenant's resource (an unknown, " +
    "used or expired one is the same 401: passkeys.test.ts)",
};

/** Body ids that would name another tenant's resource, by field name. */
const BODY_ID_KIND: Record<string, (world: TenantWorld) => string> = {
  sourceWalletId: (w) => w.ids.walletId,
  vaultId: (w) => w.mainnetVaultId,
  keyId: (w) => w.keyId,
};

/**
 * Body fields unique per tenant (CONTRACT §6): another tenant's value must be free, never a
 * DUPLICATE_EXTERNAL_ID that would tell B that A uses it.
 */
const PER_TENANT_UNIQUE: Record<string, (world: TenantWorld) => Promise<string>> = {
  // A fresh one per route: B's first use makes the value B's own for the next route.
  externalId: async (w) => {
    const externalId = `payout-${randomUUID().slice(0, 8)}`;
    const res = await w.api.createTransfer(nativeTransfer({ wallet: { id: w.ids.walletId } as never }, 1n, { externalId }));
    expect(res.status, res.text).toBe(201);
    return externalId;
  },
};

/** Lists that are not tenant data. */
const NOT_TENANT_LISTS: Record<string, string> = {
  "GET /v1/dev/mailbox": "the development outbox, filtered by recipient address; not served in production (docs/security.md)",
};

/** tRPC procedures without a REST route, driven or excluded here since the document cannot name them. */
const TRPC_ONLY: Record<string, string> = {
  "credentials.create": "driven: takes no id; the key it makes belongs to the caller's session tenant (credentials.test.ts)",
  "credentials.revoke": "driven below: B's session revoking A's key id",
  "operators.login": "operators' console: no tenant, no tenant data",
  "operators.logout": "operators' console: no tenant, no tenant data",
  "operators.me": "operators' console: no tenant, no tenant data",
  "operators.queues": "operators' console: queue counts across tenants by design, operator cookie only",
  "operators.daemons": "operators' console: daemon instances, no tenant data",
  "operators.failedJobs": "operators' console: operator cookie only; a tenant credential is refused (scope-matrix.test.ts)",
  "operators.retryJob": "operators' console: operator cookie only",
  "operators.cancelJob": "operators' console: operator cookie only",
  "operators.loginPasskey": "operators' console: no tenant, no tenant data",
  "operators.passkeyRegistrationOptions": "operators' console: the operator's own passkeys, no tenant data",
  "operators.registerPasskey": "operators' console: the operator's own passkeys, no tenant data",
  "operators.passkeys": "operators' console: the operator's own passkeys, no tenant data",
  "operators.removePasskey": "operators' console: the operator's own passkeys, no tenant data",
  "operators.securitySettings": "operators' console: a service-wide setting, no tenant data",
  "operators.updateSecuritySettings": "operators' console: a service-wide setting, no tenant data",
  "passkeys.registrationOptions": "takes no id: the session's own member",
  "passkeys.register": "its challenge id is the session member's own (another member's challenge is INVALID_TOKEN: passkeys.test.ts)",
  "passkeys.listOwn": "takes no id: the session's own member",
  "passkeys.removeOwn": "driven in passkeys.test.ts: another tenant's passkey id is 404 and kept",
  "balances.summary": "takes no id: the session's own tenant's wallets (overview.test.ts in the dashboard tests)",
  "balances.flows": "takes no id: the session's own tenant's transactions (overview.test.ts in the dashboard tests)",
  "balances.walletHistory": "driven below: B's session asking for A's wallet is 404",
  "session.me": "takes no id: the session's own organization and member (members.test.ts in the dashboard tests)",
};

/** Placeholders such as `0x9f3c…(2592 bytes as hex)` in examples, made into well-formed values. */
function wellFormed(value: unknown): unknown {
  if (typeof value === "string") {
    const bytes = /…\((\d+) bytes as hex\)/.exec(value)?.[1];
    return bytes ? `0x${"ab".repeat(Number(bytes))}` : value;
  }
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)]));
  return value;
}

describe("tenant isolation matrix, generated from the OpenAPI document", () => {
  const t = useTestDatabase();
  const sandbox = useDevnet({ blockTimeMs: 0 });
  let server: TestServer;
  let daemon: Daemon;
  let a: TenantWorld;
  let b: TenantWorld;
  let operations: RestOperation[];

  beforeAll(async () => {
    const config = devnetConfig(sandbox(), { webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true } });
    server = await startTestServer({
      database: t,
      config,
      rateLimits: {
        tenantPerSecond: 100_000,
        tenantBurstExtra: 100_000,
        signupPerHour: 1_000,
        signupLockSeconds: 1,
        resendPerHourPerIp: 1_000,
        resendPerHourPerEmail: 1_000,
      },
    });
    daemon = await startTransfersDaemon(t.url, config);
    a = await createTenantWorld(() => server, t.db, sandbox());
    b = await createTenantWorld(() => server, t.db, sandbox());
    operations = await fetchRestOperations(server);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  /** B's request: B's own valid body (ids swapped to B's), with the given path ids and body overrides. */
  const asB = (op: RestOperation, pathIds: Record<string, string>, bodyOverrides: Record<string, unknown> = {}) => {
    const body = op.takesBody
      ? JSON.stringify({ ...(wellFormed(op.bodyExample ?? {}) as Record<string, unknown>), ...ownBodyIds(op, b), ...bodyOverrides })
      : undefined;
    const headers: Record<string, string> = { authorization: b.tenant.authorization };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (op.headerParameters.some((p) => p.name === "X-Idempotency-Key")) headers["x-idempotency-key"] = idempotencyKey("isolation");
    return call(server, fillPath(op.path, pathIds), { method: op.method, headers, body });
  };
  const ownBodyIds = (op: RestOperation, world: TenantWorld) =>
    Object.fromEntries(
      Object.keys(op.bodyExample ?? {}).flatMap((field) => (BODY_ID_KIND[field] ? [[field, BODY_ID_KIND[field]!(world)]] : [])),
    );

  const leaks = (res: TestResponse, owner: TenantWorld) => owner.allIds().filter((id) => res.text.toLowerCase().includes(id.toLowerCase()));

  it("every route with another tenant's id in its path answers 404 NOT_FOUND, never 403, never data", async () => {
    const undriven: string[] = [];
    const wrong: string[] = [];
    let driven = 0;
    for (const op of operations.filter((o) => o.pathParameters.length > 0)) {
      if (EXCLUDED_ROUTES[op.key]) continue;
      const names = op.pathParameters.map((p) => p.name);
      const unknown = names.filter((name) => !(name in a.ids));
      if (unknown.length) {
        undriven.push(`${op.key}: path parameter ${unknown.join(", ")} names no resource kind of the matrix`);
        continue;
      }
      const pathIds = Object.fromEntries(names.map((name) => [name, a.ids[name as keyof ResourceIds]]));
      const res = await asB(op, pathIds);
      driven += 1;
      if (res.status !== 404 || errorName(res) !== "NOT_FOUND")
        wrong.push(`${op.key}: ${res.status} ${errorName(res) ?? res.text.slice(0, 120)}`);
      else if (leaks(res, a).some((id) => id !== pathIds[names[0]!] && !Object.values(pathIds).includes(id)))
        wrong.push(`${op.key}: the 404 names other ids of A`);
    }
    expect(undriven).toEqual([]);
    expect(wrong).toEqual([]);
    expect(driven).toBeGreaterThanOrEqual(20);
  });

  it("every tenant resource id in a body (another tenant's wallet, vault, key) answers 404 NOT_FOUND", async () => {
    const unclassified: string[] = [];
    const wrong: string[] = [];
    let driven = 0;
    for (const op of operations.filter((o) => o.bodyExample && !EXCLUDED_ROUTES[o.key])) {
      for (const field of Object.keys(op.bodyExample!).filter((f) => /Id$/.test(f))) {
        if (SHARED_BODY_IDS[field] || PER_TENANT_UNIQUE[field]) continue;
        if (!BODY_ID_KIND[field]) {
          unclassified.push(`${op.key}: body field ${field}`);
          continue;
        }
        // B's own ids in the path (B may act there), A's id in the body.
        const pathIds = Object.fromEntries(op.pathParameters.map((p) => [p.name, b.ids[p.name as keyof ResourceIds]]));
        const res = await asB(op, pathIds, { [field]: BODY_ID_KIND[field]!(a) });
        driven += 1;
        if (res.status !== 404 || errorName(res) !== "NOT_FOUND")
          wrong.push(`${op.key} with A's ${field}: ${res.status} ${errorName(res) ?? res.text.slice(0, 120)}`);
      }
    }
    expect(unclassified).toEqual([]);
    expect(wrong).toEqual([]);
    expect(driven).toBeGreaterThanOrEqual(4);
  });

  it("a value unique per tenant (externalId) that A uses is free for B: no existence leak", async () => {
    const wrong: string[] = [];
    let driven = 0;
    let lastTaken = "";
    for (const op of operations.filter((o) => o.bodyExample && !EXCLUDED_ROUTES[o.key])) {
      for (const field of Object.keys(op.bodyExample!).filter((f) => PER_TENANT_UNIQUE[f])) {
        const taken = await PER_TENANT_UNIQUE[field]!(a);
        const res = await asB(op, {}, { [field]: taken });
        lastTaken = taken;
        driven += 1;
        if (res.status >= 500 || errorName(res) === "DUPLICATE_EXTERNAL_ID")
          wrong.push(`${op.key} with A's ${field}: ${res.status} ${errorName(res)}`);
        if (leaks(res, a).length) wrong.push(`${op.key} with A's ${field} shows A's ${leaks(res, a).join(", ")}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(driven).toBeGreaterThanOrEqual(1);
    // B's own transaction with A's externalId exists now: the value really was free for B.
    const mine = await b.api.get(`/v1/transactions?externalId=${encodeURIComponent(lastTaken)}`);
    expect(mine.json<{ transactions: { tenantId: string }[] }>().transactions.map((tx) => tx.tenantId)).toEqual([b.tenant.tenantId]);
  });

  it("no list or read of B shows any of A's rows or ids", async () => {
    const wrong: string[] = [];
    let listed = 0;
    for (const op of operations.filter((o) => o.method === "GET")) {
      // A route whose path ids this matrix does not drive has no B's own to read either.
      if (NOT_TENANT_LISTS[op.key] || EXCLUDED_ROUTES[op.key]) continue;
      const pathIds = Object.fromEntries(op.pathParameters.map((p) => [p.name, b.ids[p.name as keyof ResourceIds]]));
      const res = await asB(op, pathIds);
      listed += 1;
      if (res.status !== 200) wrong.push(`${op.key} of B's own: ${res.status} ${errorName(res)}`);
      const seen = leaks(res, a);
      if (seen.length) wrong.push(`${op.key} shows A's ${seen.join(", ")}`);
      // The list must show B's own rows, or the check above proves nothing.
      if (
        res.status === 200 &&
        op.pathParameters.length === 0 &&
        /\/(vault\/accounts|transactions|webhooks)$/.test(op.path) &&
        leaks(res, b).length === 0
      )
        wrong.push(`${op.key} shows none of B's own rows`);
    }
    expect(wrong).toEqual([]);
    expect(listed).toBeGreaterThanOrEqual(15);
  });

  it("covers every tRPC-only procedure: B's session cannot revoke A's key", async () => {
    const restPaths = new Set(
      trpcProcedures()
        .filter((p) => p.meta?.openapi)
        .map((p) => p.path),
    );
    const trpcOnly = trpcProcedures()
      .filter((p) => !restPaths.has(p.path))
      .map((p) => p.path)
      .sort();
    expect(trpcOnly).toEqual(Object.keys(TRPC_ONLY).sort());
    const res = await callTrpc(server, { path: "credentials.revoke", type: "mutation" }, JSON.stringify({ json: { keyId: a.keyId } }), {
      authorization: b.session,
    });
    expect({ status: res.status, error: errorName(res) }).toEqual({ status: 404, error: "NOT_FOUND" });
    const stillWorks = await a.api.get("/v1/credentials");
    expect(stillWorks.status).toBe(200);
    const history = await callTrpc(
      server,
      { path: "balances.walletHistory", type: "query" },
      JSON.stringify({ json: { walletId: a.watchOnlyWalletId } }),
      { authorization: b.session },
    );
    expect({ status: history.status, error: errorName(history) }).toEqual({ status: 404, error: "NOT_FOUND" });
  });
});
