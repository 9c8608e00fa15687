import fc from "fast-check";
import { defaultWebhookConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, type TestResponse, type TestServer } from "../harness";
import { startTransfersDaemon } from "../transfers-front-helpers";
import { callTrpc, contractViolations, fetchRestOperations, fillPath, trpcProcedures, type RestOperation } from "./api-surface";
import {
  hostileBody,
  hostileHeaders,
  hostileId,
  hostileQuery,
  hostileTrpcEnvelope,
  VALID_REQUEST_ID,
  type Credentials,
  type IdPools,
} from "./hostile-requests";
import { createTenantWorld, type TenantWorld } from "./tenant-world";

/**
 * Property-based fuzzing of every /v1 operation of the served document and every procedure of
 * the router over /api/trpc, as an admin key of a verified tenant that owns one resource of each
 * kind (so the examples run deep), with a daemon and a devnet per network behind it: whatever
 * the body, query, path ids and headers, the answer is never a 5xx and every refusal is the
 * contract's flat error body carrying the response's request id.
 *
 * Deterministic: the seed is printed, and QC_FUZZ_SEED replays a run. The case counts are fixed
 * per route, so the run is bounded whatever the number of routes grows to.
 */
const SEED = Number(process.env.QC_FUZZ_SEED ?? 20_261_121);
const CASES_PER_OPERATION = 150;
const CASES_PER_PROCEDURE = 30;
const MIN_TOTAL_CASES = 10_000;
/** Requests in flight at once: the server's database waits overlap, the 2 cores stay busy. */
const CONCURRENCY = 6;

interface Case {
  route: string;
  describe: string;
  send: () => Promise<TestResponse>;
  trpc: boolean;
  sentRequestId?: string;
}

/**
 * The seed of one route's cases: from the run's seed and the route's own name, not its place in the
 * list, so a route added or removed elsewhere leaves every other route's cases as they were.
 */
const seedOf = (route: string) => (SEED + [...route].reduce((hash, char) => Math.imul(hash, 31) + char.charCodeAt(0), 0)) | 0;

/** The 400s the guards and input validation give before any procedure runs (CONTRACT §2). */
const GUARD_400_CODES = new Set(["VALIDATION_FAILED", "KEY_MATERIAL_REJECTED", "IDEMPOTENCY_KEY_REQUIRED"]);

/**
 * A 400 that only the procedure itself gives counts as deep: one of the contract's business codes
 * (an ERC-20 contract not found on the devnet is UNKNOWN_ASSET, a proof that fails
 * INVALID_OWNERSHIP_PROOF, …), or a webhook URL whose host does not resolve (the URL is vetted by
 * the service, past every guard; machines without DNS, such as CI sandboxes, answer every valid
 * POST /v1/webhooks so). Recorded as 299 in the statuses seen.
 */
function reachedProcedure(res: TestResponse): boolean {
  if (res.status !== 400) return false;
  try {
    const body = JSON.parse(res.text) as { error?: unknown; details?: { reason?: unknown } };
    if (body.details?.reason === "HOST_NOT_RESOLVED") return true;
    return typeof body.error === "string" && !GUARD_400_CODES.has(body.error);
  } catch {
    return false;
  }
}

describe("fuzzing every route with hostile input", () => {
  const t = useTestDatabase();
  const sandbox = useDevnet({ blockTimeMs: 0 });
  const mainnet = useDevnet({ blockTimeMs: 0, chainId: 20803 });
  let server: TestServer;
  let daemon: Daemon;
  let own: TenantWorld;
  let other: TenantWorld;
  let operations: RestOperation[];

  beforeAll(async () => {
    const config = {
      rpcUrls: { QUANTUM_SANDBOX: [sandbox().url], QUANTUM_MAINNET: [mainnet().url] },
      // Endpoints on loopback, so test deliveries exist; the production vetting has its own tests.
      webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true },
    };
    server = await startTestServer({
      database: t,
      config,
      // Every request comes from its own address (X-Forwarded-For): garbage credentials would
      // otherwise lock the one test address out, and the fuzz would stop reaching the routes.
      trustProxyHops: 1,
      rateLimits: {
        tenantPerSecond: 1_000_000,
        tenantBurstExtra: 1_000_000,
        signupPerHour: 1_000_000,
        signupLockSeconds: 1,
        resendPerHourPerIp: 1_000_000,
        resendPerHourPerEmail: 1_000_000,
      },
    });
    daemon = await startTransfersDaemon(t.url, config);
    own = await createTenantWorld(() => server, t.db, sandbox());
    other = await createTenantWorld(() => server, t.db, sandbox());
    operations = await fetchRestOperations(server);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  let ipCounter = 0;
  const nextIp = () => {
    ipCounter += 1;
    return `198.18.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
  };

  it(`answers ≥ ${MIN_TOTAL_CASES} hostile requests without a 5xx, always with the contract's error body`, async () => {
    console.log(`fuzz seed ${SEED} (QC_FUZZ_SEED=${SEED} replays this run)`);
    let answered = 0;
    const pools: IdPools = {
      own: [...Object.values(own.ids), own.mainnetVaultId, own.watchOnlyWalletId],
      other: [...Object.values(other.ids), other.mainnetVaultId],
    };
    const credentials: Credentials = {
      admin: own.tenant.authorization,
      session: own.session,
      otherTenant: other.tenant.authorization,
      keyId: own.keyId,
    };
    const cases: Case[] = [];

    operations.forEach((op) => {
      const takesBody = op.method !== "GET" && op.method !== "DELETE";
      const request = fc.record({
        ids: fc.tuple(...op.pathParameters.map(() => hostileId(pools))),
        query: hostileQuery(op.queryParameters),
        body: takesBody ? hostileBody(op.bodyExample, pools) : fc.constant(undefined),
        headers: hostileHeaders(credentials, { takesBody, idempotency: op.headerParameters.some((p) => p.name === "X-Idempotency-Key") }),
      });
      // Every tenth case sends only the documented query examples (the rest of it as sampled): with
      // many optional parameters, each hostile half the time, hardly any sampled query passes
      // validation, and the operation would never be fuzzed past it.
      const documented = new URLSearchParams(
        op.queryParameters.flatMap((p) => (p.example === undefined ? [] : [[p.name, String(p.example)] as [string, string]])),
      ).toString();
      fc.sample(request, { seed: seedOf(op.key), numRuns: CASES_PER_OPERATION }).forEach((sample, i) => {
        const path = fillPath(op.path, Object.fromEntries(op.pathParameters.map((p, i) => [p.name, sample.ids[i]!])));
        const query = i % 10 === 9 && op.queryParameters.length > 0 ? documented : sample.query;
        const url = query ? `${path}?${query}` : path;
        const headers: Record<string, string> = { ...sample.headers, "x-forwarded-for": nextIp() };
        if (sample.body === undefined) delete headers["content-type"];
        cases.push({
          route: op.key,
          describe: `${op.method} ${url.slice(0, 200)} ${JSON.stringify(headers).slice(0, 200)} ${String(sample.body).slice(0, 300)}`,
          send: () => call(server, url, { method: op.method, headers, body: sample.body }),
          trpc: false,
          sentRequestId: VALID_REQUEST_ID.test(headers["x-request-id"] ?? "") ? headers["x-request-id"] : undefined,
        });
      });
    });

    trpcProcedures().forEach((procedure) => {
      const request = fc.record({
        envelope: hostileTrpcEnvelope(procedure, pools),
        headers: hostileHeaders(credentials, {
          takesBody: procedure.type === "mutation",
          idempotency: procedure.meta?.idempotencyKey !== undefined,
        }),
      });
      const samples = fc.sample(request, { seed: seedOf(`tRPC ${procedure.path}`), numRuns: CASES_PER_PROCEDURE });
      samples.forEach((sample, i) => {
        // A query's input travels in the URL: long runs are cut so the head stays under Node's limit.
        const inUrl = sample.envelope?.replace(/(.)\1{199,}/gsu, (run) => run.slice(0, 200));
        const headers: Record<string, string> = { ...sample.headers, "x-forwarded-for": nextIp() };
        // One case in ten calls the procedure with the other transport's method (a query by POST, a mutation by GET).
        const asType = i % 10 === 9 ? (procedure.type === "query" ? "mutation" : "query") : procedure.type;
        const envelope = asType === "query" ? inUrl : sample.envelope;
        cases.push({
          route: `tRPC ${procedure.path}`,
          describe: `${asType} ${procedure.path} ${JSON.stringify(headers).slice(0, 200)} ${String(envelope).slice(0, 300)}`,
          send: () => callTrpc(server, { path: procedure.path, type: asType }, envelope, headers),
          trpc: true,
          sentRequestId: VALID_REQUEST_ID.test(headers["x-request-id"] ?? "") ? headers["x-request-id"] : undefined,
        });
      });
    });

    expect(cases.length).toBeGreaterThanOrEqual(MIN_TOTAL_CASES);
    const failures: string[] = [];
    const statuses = new Map<string, Set<number>>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const current = cases[next++]!;
        let res: TestResponse;
        try {
          res = await current.send();
        } catch (error) {
          failures.push(`${current.route}: the connection failed (${String(error)}): ${current.describe}`);
          continue;
        }
        answered += 1;
        statuses.set(current.route, (statuses.get(current.route) ?? new Set()).add(reachedProcedure(res) ? 299 : res.status));
        const problems = contractViolations(res, { trpc: current.trpc, sentRequestId: current.sentRequestId });
        if (problems.length)
          failures.push(`${current.route}: ${problems.join("; ")} — ${res.status} ${res.text.slice(0, 200)} — for ${current.describe}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // Deep enough: every authenticated REST operation got past the guards and the credentials at
    // least once (a status other than 400/401/403/415), so the fuzz reached the procedures.
    const shallow = operations.filter(
      (op) => op.scope && ![...(statuses.get(op.key) ?? [])].some((s) => s < 400 || s === 404 || s === 409 || s === 422),
    );
    console.log(
      `fuzz: ${answered} answers from ${operations.length} operations and ${trpcProcedures().length} procedures, ${failures.length} failing`,
    );
    expect(answered).toBeGreaterThanOrEqual(MIN_TOTAL_CASES);
    expect(failures.slice(0, 30), `${failures.length} failing cases`).toEqual([]);
    expect(shallow.map((op) => `${op.key}: ${[...(statuses.get(op.key) ?? [])].join(",")}`)).toEqual([]);
  }, 600_000);
});
