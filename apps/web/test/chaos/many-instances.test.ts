import { and, eq, inArray, schema } from "@qc/db";
import { describe, expect, it } from "vitest";
import type { TestResponse } from "../harness";
import { nativeTransfer, transfersClient, type TransfersClient } from "../transfers-front-helpers";
import {
  asTestServer,
  chaosRandom,
  conflictingBroadcasts,
  destinations,
  finishScenario,
  sleep,
  startScenario,
  useChaosWorld,
  type ChaosSource,
  type SeededRandom,
  type WebProcess,
} from "./world";

const TRANSFERS = 100;
const SOURCES = 15;
/**
 * Pools of the five processes (each also opens its pg-boss pool, 10 + 1 for a daemon, 4 for a
 * web instance, and a listener or two): about 70 connections in all instead of ~100, so that
 * this file fits beside other chaos files (CI's embedded PostgreSQL allows 300, a developer's
 * server often 100). A request that waits too long for a connection answers 503 UNAVAILABLE,
 * which the contract allows and the scenario retries.
 */
const DAEMON_ENV = { DB_POOL_MAX: "5" };
const WEB_ENV = { DB_POOL_MAX: "6" };
/** Bound on waiting for everything to settle and be delivered once every key has its 201. */
const SETTLE_MS = 150_000;

/** What CONTRACT §2/§6 allow for a create racing another with the same key: the result, "still running", or "not executed, retry". */
type CreateAnswer =
  { status: 201; id: string; replayed: boolean } | { status: 409; error: "IDEMPOTENCY_KEY_IN_USE" } | { status: 503; error: "UNAVAILABLE" };

/**
 * Issue 16 §2: two web processes and three daemon processes (each as `./qc start` runs it) on one
 * database under load. Every create is sent twice with the same idempotency key, once to each web
 * instance, at the same moment; the customer's signer uses both instances in turn.
 */
describe("chaos: two web instances and three daemons on one database", () => {
  const world = useChaosWorld({ devnet: { blockTimeMs: 250 } });

  it("never broadcasts twice and never makes two transactions from one idempotency key", { timeout: 300_000 }, async () => {
    const { seed, random } = chaosRandom("many-instances", 160_202);
    const w = world();
    const [webA, webB] = await Promise.all([w.startWeb("a", { env: WEB_ENV }), w.startWeb("b", { env: WEB_ENV })]);
    const webs: WebProcess[] = [webA, webB];
    await Promise.all([0, 1, 2].map((i) => w.startDaemon(`many-${seed}-${i}`, { env: DAEMON_ENV })));

    const scenario = await startScenario(w.ground, {
      name: "many-instances",
      server: () => asTestServer(webA.endpoint),
      sources: SOURCES,
      signerEndpoints: () => webs.map((web) => web.endpoint),
    });
    const { tenant } = scenario;
    const apis = webs.map((web) => transfersClient(() => asTestServer(web.endpoint), tenant.authorization)) as [
      TransfersClient,
      TransfersClient,
    ];

    const plan = planTransfers(scenario.sources, random, seed);
    const outcomes = await runConcurrently(plan, 8, (step) => createTwice(apis, step.key, step.body));
    console.log(`[chaos] many-instances: ${plan.length} keys sent twice in ${scenario.seconds()} s`);

    // Each key: both instances answered with the same transaction (one may have said "in use").
    const createdIds: string[] = [];
    const seen = { inUse: 0, unavailable: 0, replays: 0 };
    for (const [i, sides] of outcomes.entries()) {
      const key = plan[i]!.key;
      const finals = sides.map((side) => side.final!);
      expect(new Set(finals.map((answer) => answer.id)).size, `key ${key}: both instances answer with one transaction`).toBe(1);
      // Exactly one request executed; every other 201 was the stored answer replayed.
      const answers = sides.flatMap((side) => side.answers);
      expect(answers.filter((a) => a.status === 201 && !a.replayed).length, `key ${key}: executed once`).toBe(1);
      seen.inUse += answers.filter((a) => a.status === 409).length;
      seen.unavailable += answers.filter((a) => a.status === 503).length;
      seen.replays += answers.filter((a) => a.status === 201 && a.replayed).length;
      createdIds.push(finals[0]!.id);
    }

    // Each key made exactly one transaction row (the note carries the key), and nothing else was made.
    const rows = await w.database.db
      .select({ id: schema.transactions.id, note: schema.transactions.note })
      .from(schema.transactions)
      .where(eq(schema.transactions.tenantId, tenant.tenantId));
    expect(rows).toHaveLength(plan.length);
    expect(new Set(rows.map((row) => row.note)).size).toBe(plan.length);
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(createdIds));
    const keys = await w.database.db
      .select({ key: schema.idempotencyKeys.key, status: schema.idempotencyKeys.responseStatus })
      .from(schema.idempotencyKeys)
      .where(
        and(
          eq(schema.idempotencyKeys.tenantId, tenant.tenantId),
          inArray(
            schema.idempotencyKeys.key,
            plan.map((step) => step.key),
          ),
        ),
      );
    expect(keys).toHaveLength(plan.length);
    expect(keys.every((key) => key.status === 201)).toBe(true);

    await finishScenario(scenario, {
      createdIds,
      transactions: TRANSFERS,
      timeoutMs: SETTLE_MS,
      figures: () => ({ ...seen, broadcasts: w.broadcasts.length }),
    });

    // The chain's view: no (source, nonce) was ever offered under two hashes; the service's view:
    // one transaction per (source, nonce), one per hash.
    expect(conflictingBroadcasts(w.broadcasts)).toEqual([]);
    const sent = await w.database.db
      .select({ source: schema.transactions.sourceAddress, nonce: schema.transactions.nonce, hash: schema.transactions.chainTxHash })
      .from(schema.transactions)
      .where(eq(schema.transactions.tenantId, tenant.tenantId));
    expect(new Set(sent.map((row) => `${row.source}:${row.nonce}`)).size).toBe(sent.length);
    expect(new Set(sent.map((row) => row.hash)).size).toBe(sent.length);
  });
});

function planTransfers(sources: ChaosSource[], random: SeededRandom, seed: number) {
  const targets = destinations(random, 5);
  return Array.from({ length: TRANSFERS }, (_, i) => {
    const key = `many-${seed}-${i}`;
    return {
      key,
      body: nativeTransfer(sources[i % sources.length]!, BigInt(random.int(1, 1_000_000)) * 10n ** 9n, {
        destinationAddress: random.pick(targets),
        note: key,
      }),
    };
  });
}

/**
 * The same create (same key, same body) to both instances at once; each side is asked again with
 * the same key until it gets the 201 (bounded). CONTRACT §6 allows, before that: 409
 * IDEMPOTENCY_KEY_IN_USE while the other runs, and 503 UNAVAILABLE (the database pool could not
 * serve it in time on this loaded machine): a request that did not execute, nothing stored.
 * Anything else fails the test.
 */
async function createTwice(apis: [TransfersClient, TransfersClient], key: string, body: unknown): Promise<CreateSide[]> {
  return Promise.all(
    apis.map(async (api) => {
      const side: CreateSide = { answers: [], final: undefined };
      for (let attempt = 0; attempt < 100 && !side.final; attempt += 1) {
        if (attempt > 0) await sleep(100);
        const answer = readAnswer(await api.createTransfer(body, key));
        side.answers.push(answer);
        if (answer.status === 201) side.final = answer;
      }
      expect(side.final, `key ${key}: a 201 after ${side.answers.map((a) => a.status).join(",")}`).toBeDefined();
      return side;
    }),
  );
}

interface CreateSide {
  answers: CreateAnswer[];
  final: Extract<CreateAnswer, { status: 201 }> | undefined;
}

function readAnswer(res: TestResponse): CreateAnswer {
  if (res.status === 201) return { status: 201, id: res.json().id, replayed: res.headers["idempotent-replayed"] === "true" };
  if (res.status === 503) {
    expect(res.json(), res.text).toMatchObject({ error: "UNAVAILABLE", code: 1070 });
    return { status: 503, error: "UNAVAILABLE" };
  }
  expect({ status: res.status, body: res.json() }, res.text).toMatchObject({
    status: 409,
    body: { error: "IDEMPOTENCY_KEY_IN_USE", code: 1041 },
  });
  return { status: 409, error: "IDEMPOTENCY_KEY_IN_USE" };
}

/** Runs `work` over `items` with at most `limit` in flight, results in item order. */
async function runConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}
