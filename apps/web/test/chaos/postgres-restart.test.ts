/**
 * Chaos: PostgreSQL restarted mid-load (issue 16 §2). A dedicated embedded cluster (own data
 * directory, own port: the shared test server is never touched), the web server in process, the
 * daemon as its own process exactly as `./qc start` runs it, a devnet. Under a steady stream of
 * creates and an auto-signer, PostgreSQL is stopped (fast shutdown: sessions terminated, open
 * transactions rolled back), creates keep coming for a few seconds, then it is started again on
 * the same port and data directory. Neither the web server nor the daemon is restarted.
 */
import { randomBytes } from "node:crypto";
import type { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RATE_LIMITS, defaultWebhookConfig } from "@qc/core";
import { createDatabase, eq, runMigrations, schema, type DatabaseHandle } from "@qc/db";
import { ensureDatabaseExists, startEmbeddedPostgres, type EmbeddedPostgresHandle } from "@qc/db/embedded";
import { freePort } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, type TestResponse, type TestServer } from "../harness";
import { eventually } from "../identity-helpers";
import { idempotencyKey, nativeTransfer } from "../transfers-front-helpers";
import { startReceiver, type TestReceiver } from "../webhooks-receiver";
import {
  chaosRandom,
  destinations,
  finishScenario,
  serviceEnvironment,
  sleep,
  startDaemonProcess,
  startScenario,
  type ChaosSource,
  type DaemonProcess,
  type SeededRandom,
} from "./world";

const TEST_HANDLE = "the test's database handle";

/** No request may take longer than this, outage or not (the pool's connect timeout is 5 s). */
const REQUEST_BOUND_MS = 12_000;
const SOURCES = 6;

type Phase = "before" | "outage" | "after";
interface CreateAttempt {
  key: string;
  body: ReturnType<typeof nativeTransfer>;
  phase: Phase;
  status: number | "hang" | "network-error";
  response?: TestResponse;
  elapsedMs: number;
}

/** Polls `probe` until it is true (bounded); `fatal` ends the wait at once with its reason. */
async function until(probe: () => Promise<boolean>, timeoutMs: number, fatal: () => string | undefined, intervalMs = 250): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const reason = fatal();
    if (reason) throw new Error(reason);
    if (await probe().catch(() => false)) return;
    await sleep(intervalMs);
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

/** One HTTPS exchange that must answer within `boundMs`; "hang" otherwise. */
async function boundedCall(server: TestServer, path: string, options: Parameters<typeof call>[2], boundMs = REQUEST_BOUND_MS) {
  let timer: NodeJS.Timeout | undefined;
  const started = performance.now();
  const outcome = await Promise.race([
    call(server, path, options).then(
      (response) => ({ status: response.status as number | "hang" | "network-error", response }),
      () => ({ status: "network-error" as const, response: undefined }),
    ),
    new Promise<{ status: "hang"; response: undefined }>(
      (resolve) => (timer = setTimeout(() => resolve({ status: "hang", response: undefined }), boundMs)),
    ),
  ]);
  clearTimeout(timer);
  return { ...outcome, elapsedMs: Math.round(performance.now() - started) };
}

describe("chaos: PostgreSQL restarted mid-load", () => {
  const devnet = useDevnet({ blockTimeMs: 250 });
  const work = mkdtempSync(join(tmpdir(), "qc-chaos-pg-"));
  const dataDir = join(work, "pg");
  const webhookKey = randomBytes(32);
  let port: number;
  let postgres: EmbeddedPostgresHandle | undefined;
  let databaseUrl: string;
  let database: DatabaseHandle;
  let receiver: TestReceiver;
  let server: TestServer;
  let daemon: DaemonProcess | undefined;
  /**
   * Who holds a pooled connection of the test's handle (the web server in this process uses it
   * too). Under load about one run in six once ended with a connection checked out for good, so
   * the handle could not close: drizzle's transaction() did not release a client whose BEGIN failed
   * (patches/drizzle-orm@0.45.4.patch). Should a connection stay out again, what took it is printed.
   */
  const checkedOut = new Map<unknown, string>();

  beforeAll(async () => {
    port = await freePort();
    postgres = await startEmbeddedPostgres({ dataDir, port, persistent: true });
    databaseUrl = await ensureDatabaseExists(postgres.url, "qc_chaos");
    await runMigrations(databaseUrl);
    database = createDatabase({ url: databaseUrl, applicationName: "qc-chaos-test" });
    const pool = database.pool as unknown as EventEmitter;
    pool.on("acquire", (client: unknown) => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      checkedOut.set(client, new Error("checked out").stack ?? "");
      Error.stackTraceLimit = limit;
    });
    pool.on("release", (_error: unknown, client: unknown) => checkedOut.delete(client));
    pool.on("remove", (client: unknown) => checkedOut.delete(client));
    receiver = await startReceiver();
    writeFileSync(join(work, "receiver-ca.pem"), receiver.certificate);
    server = await startTestServer({
      database: Object.assign(database, { url: databaseUrl }),
      config: {
        rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
        webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true, secretKeys: { current: webhookKey, previous: [] } },
      },
      // The load is the point here, not the tenant's rate limit.
      rateLimits: { ...DEFAULT_RATE_LIMITS, tenantPerSecond: 5_000, tenantBurstExtra: 5_000 },
    });
  }, 180_000);

  afterAll(async () => {
    // Each part gets a bounded time to close, so a teardown that hangs names the part that did
    // not close (and the rest is still released) instead of ending as a bare hook timeout.
    const unclosed: string[] = [];
    const close = async (part: string, closing: (() => Promise<unknown>) | undefined) => {
      if (!closing) return;
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        closing().then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 25_000))),
      ]);
      clearTimeout(timer);
      if (!closed) unclosed.push(part);
    };
    daemon?.kill("SIGKILL");
    await close("the daemon process", daemon && (() => daemon!.exited));
    await close("the web server and its services", server && (() => server.close()));
    await close("the webhook receiver", receiver && (() => receiver.close()));
    await close(TEST_HANDLE, database && (() => database.close()));
    await close("the PostgreSQL cluster", postgres && (() => postgres!.stop()));
    rmSync(work, { recursive: true, force: true });
    if (unclosed.includes(TEST_HANDLE)) {
      console.error(
        `[chaos] postgres-restart: ${TEST_HANDLE} did not close within 25 s; connections still checked out:\n${[...checkedOut.values()].join("\n---\n")}`,
      );
    }
    expect(unclosed, "parts that did not close within 25 s").toEqual([]);
  }, 150_000);

  /** The daemon as production runs it, on the dedicated cluster; its job-failure flood during the outage is expected, so only fatal logs. */
  function startDaemon(): Promise<DaemonProcess> {
    return startDaemonProcess({
      databaseUrl,
      instanceId: "chaos-pg",
      db: database.db,
      env: {
        ...serviceEnvironment({
          dataDir: work,
          devnetUrl: devnet().url,
          webhookKey,
          receiverCaFile: join(work, "receiver-ca.pem"),
          logLevel: "fatal",
        }),
        NODE_ENV: "test",
        WEBHOOK_DELIVERY_TIMEOUT_MS: "3000",
      },
    });
  }

  it(
    "answers 503 UNAVAILABLE during the outage, loses no 201, resumes by itself and delivers every status event",
    { timeout: 300_000 },
    async () => {
      const { random } = chaosRandom("postgres-restart", 160_301);
      daemon = await startDaemon();
      const ground = { db: database.db, devnet: devnet(), receiver };
      const scenario = await startScenario(ground, {
        name: "postgres-restart",
        server: () => server,
        sources: SOURCES,
        signerEndpoints: () => [server],
        signerPollIntervalMs: 100,
      });
      const { sources, tenant, signer } = scenario;
      const daemonDied = () => (daemon!.hasExited() ? `the daemon died: ${daemon!.stderr()}` : undefined);

      // The plan, from the seed: load before, outage length, load after.
      const plan = { beforeMs: random.int(2_000, 4_000), outageMs: random.int(3_000, 6_000), afterMs: random.int(2_000, 4_000) };
      console.log(`[chaos] postgres-restart plan: ${JSON.stringify(plan)}`);
      let phase: Phase = "before";
      const load = startLoad(server, tenant.authorization, sources, random, () => phase);
      const readiness: Readiness[] = [];
      try {
        await sleep(plan.beforeMs);
        phase = "outage";
        await postgres!.stop();
        scenario.mark("stopped");
        const outageEnds = performance.now() + plan.outageMs;
        while (performance.now() < outageEnds) {
          const ready = await boundedCall(server, "/readyz", {});
          readiness.push({ phase: "outage", status: ready.status, body: ready.response?.json() });
          await sleep(400);
        }
        postgres = await startEmbeddedPostgres({ dataDir, port, persistent: true });
        scenario.mark("restarted");
        // Ready again without restarting anything: the pools reconnect on their own.
        const back = await eventually(
          async () => {
            const ready = await boundedCall(server, "/readyz", {});
            return ready.status === 200 ? ready : undefined;
          },
          30_000,
          200,
        );
        readiness.push({ phase: "after", status: back.status, body: back.response!.json() });
        scenario.mark("ready");
        phase = "after";
        await sleep(plan.afterMs);
      } finally {
        await load.stop();
      }
      scenario.mark("load stopped");
      console.log("[chaos] postgres-restart creates by phase:", summarise(load.attempts));

      expectOnlyCreatedOrUnavailable(load.attempts);
      expect(
        load.attempts.filter((a) => a.phase === "outage" && a.status === 503).length,
        "creates refused during the outage",
      ).toBeGreaterThan(0);
      expect(load.attempts.filter((a) => a.phase === "before" && a.status === 201).length).toBeGreaterThan(0);
      expect(
        load.attempts.filter((a) => a.phase === "after" && a.status === 201).length,
        "creates accepted after the restart",
      ).toBeGreaterThan(0);

      // /readyz: not ready (503, database failing) during the outage, ready after.
      const down = readiness.filter((r) => r.phase === "outage");
      expect(down.length).toBeGreaterThan(0);
      for (const r of down)
        expect(r).toMatchObject({ status: 503, body: { status: "not_ready", checks: { database: { status: "fail" } } } });
      expect(readiness.at(-1)).toMatchObject({ phase: "after", status: 200, body: { status: "ready" } });

      // A 503'd create stored no answer (CONTRACT §6: failures free the key), so the client's retry
      // with the same key executes exactly once: 201, or the stored 201 replayed if the first did commit.
      const retried = await retryRefused(server, tenant.authorization, load.attempts);
      const accepted = [...load.attempts.filter((a) => a.status === 201), ...retried];
      const createdIds = accepted.map((a) => a.response!.json().id as string);
      expect(new Set(createdIds).size, "one transaction per idempotency key").toBe(new Set(accepted.map((a) => a.key)).size);

      // Every 201 exists and reaches COMPLETED with nobody restarting anything; on chain exactly
      // once, balances conserved, every status event delivered.
      await until(
        async () => await settled(database, tenant.tenantId, createdIds),
        150_000,
        () => daemonDied() ?? signer.fatal?.message,
      );
      scenario.mark("settled");
      await finishScenario(scenario, {
        createdIds,
        transactions: createdIds.length,
        timeoutMs: 60_000,
        figures: () => ({ retriedAfterOutage: retried.length }),
      });
      expect(daemon!.hasExited(), "the daemon kept running").toBe(false);
    },
  );
});

type Readiness = { phase: Phase; status: number | "hang" | "network-error"; body?: any };

/** A steady stream of creates from `workers` concurrent clients, round-robin over the sources, amounts and pauses from the PRNG. */
function startLoad(
  server: TestServer,
  authorization: string,
  sources: ChaosSource[],
  random: SeededRandom,
  phase: () => Phase,
  workers = 2,
) {
  const attempts: CreateAttempt[] = [];
  const targets = destinations(random, 4);
  let running = true;
  let n = 0;
  const worker = async () => {
    while (running) {
      const source = sources[n++ % sources.length]!;
      const body = nativeTransfer(source, BigInt(random.int(1, 1_000_000)) * 10n ** 9n, { destinationAddress: random.pick(targets) });
      const key = idempotencyKey("chaos-pg");
      const at = phase();
      const res = await boundedCall(server, "/v1/transactions", {
        method: "POST",
        headers: { authorization, "content-type": "application/json", "x-idempotency-key": key },
        body: JSON.stringify(body),
      });
      // A request that straddles a phase change counts as in the outage.
      const during: Phase = at === "outage" || phase() === "outage" ? "outage" : at;
      attempts.push({ key, body, phase: during, status: res.status, response: res.response, elapsedMs: res.elapsedMs });
      // A refused create backs off as a client does (CONTRACT: 503 is retryable), so the outage
      // adds a bounded number of retries to settle rather than one per 100 ms.
      await sleep(res.status === 503 ? random.int(400, 800) : random.int(60, 180));
    }
  };
  const all = Promise.all(Array.from({ length: workers }, worker));
  return {
    attempts,
    stop: async () => {
      running = false;
      await all;
    },
  };
}

/** Never a 500, never a hang, never a dropped connection: a 201, or the contract's 503 with its flat body. */
function expectOnlyCreatedOrUnavailable(attempts: CreateAttempt[]) {
  for (const attempt of attempts) {
    expect([201, 503], `${attempt.key} (${attempt.phase}, ${attempt.elapsedMs} ms): ${attempt.response?.text ?? attempt.status}`).toContain(
      attempt.status,
    );
    if (attempt.status !== 503) continue;
    expect(attempt.response!.json()).toEqual({
      error: "UNAVAILABLE",
      code: 1070,
      message: expect.any(String),
      requestId: attempt.response!.headers["x-request-id"],
    });
  }
}

/** The client's retry of every refused create, same key and body, once the database is back. */
async function retryRefused(server: TestServer, authorization: string, attempts: CreateAttempt[]): Promise<CreateAttempt[]> {
  const retried: CreateAttempt[] = [];
  for (const attempt of attempts.filter((a) => a.status === 503)) {
    const res = await boundedCall(server, "/v1/transactions", {
      method: "POST",
      headers: { authorization, "content-type": "application/json", "x-idempotency-key": attempt.key },
      body: JSON.stringify(attempt.body),
    });
    expect(res.status, res.response?.text).toBe(201);
    retried.push({ ...attempt, status: res.status, response: res.response, elapsedMs: res.elapsedMs });
  }
  return retried;
}

async function settled(database: DatabaseHandle, tenantId: string, ids: string[]): Promise<boolean> {
  const rows = await database.db
    .select({ id: schema.transactions.id, status: schema.transactions.status })
    .from(schema.transactions)
    .where(eq(schema.transactions.tenantId, tenantId));
  const status = new Map(rows.map((r) => [r.id, r.status]));
  return ids.every((id) => status.get(id) === "COMPLETED");
}

function summarise(attempts: CreateAttempt[]) {
  const count = (phase: Phase) =>
    attempts
      .filter((a) => a.phase === phase)
      .reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});
  return {
    before: count("before"),
    outage: count("outage"),
    after: count("after"),
    slowestMs: Math.max(...attempts.map((a) => a.elapsedMs)),
  };
}
