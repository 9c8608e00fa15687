import { createTenantFixture } from "@qc/core/testing";
import { inArray, schema } from "@qc/db";
import { TERMINAL_STATUSES } from "@qc/domain";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { NATIVE, Q } from "../custody-helpers";
import { TEST_PEPPER } from "../harness";
import { eventually } from "../identity-helpers";
import { transfersClient, type TransfersClient } from "../transfers-front-helpers";
import { serveHome, startServe, type ServeDecision } from "./signer-serve";
import {
  asTestServer,
  chaosRandom,
  conflictingBroadcasts,
  createOnce,
  destinations,
  expectOnChainExactlyOnce,
  minedOnChain,
  seededRandom,
  sleep,
  useChaosWorld,
  type ChaosWorld,
  type DaemonProcess,
  type SeededRandom,
} from "./world";

const TRANSFERS = 300;
const SOURCES = 3;
const KILLS = 5;
/** Share of the transfers planned above the signer's maxAmountPerTransfer (its rules reject them). */
const OVER_LIMIT_SHARE = 0.1;
const FUNDS = 1_000n * Q;
/** The signer's rules allow at most this per transfer: 1,000,000 Gwei (the plan's largest amount under it). */
const MAX_AMOUNT = 1_000_000n * 10n ** 9n;
const DAEMON_ENV = { DB_POOL_MAX: "5" };
const WEB_ENV = { DB_POOL_MAX: "6" };
const SETTLE_MS = 180_000;

type Row = typeof schema.transactions.$inferSelect;
type Source = { walletId: string; address: Address };
type Planned = { source: Source; body: Record<string, string>; overLimit: boolean; pauseMs: number };

/**
 * Issue 35's chaos test (CONTRACT §17): 300 transfers from 3 wallets, up to NONCE_WINDOW (16)
 * per wallet in flight, signed by `signer serve --rules` — which rejects a seeded ~10 % whose amount
 * is above its maxAmountPerTransfer — while the daemon is SIGKILLed 5 times at seeded moments and
 * restarted. In the end: every transfer in its documented end state (COMPLETED, or REJECTED /
 * REJECTED_BY_SIGNER for the ones over the limit; the service's NONCE_FILL records final too);
 * each wallet's chain nonce equals its mined transactions in the database, their nonces exactly
 * 0..n-1; no (source, nonce) under two hashes, in the database or in what the devnet was sent;
 * balances conserved to the Qwei (fees from receipts); every destination got exactly its amounts.
 * Replay a run with CHAOS_SEED=<seed>.
 */
describe("chaos: one wallet's nonce window under signer rejections and daemon kills", () => {
  const world = useChaosWorld({ devnet: { blockTimeMs: 250 } });

  it("ends every transfer in its state, with no nonce gap, no nonce twice, and balances conserved", { timeout: 480_000 }, async () => {
    const { seed, random } = chaosRandom("nonce-window", 350_035);
    const w = world();
    const web = await w.startWeb("web", { env: WEB_ENV });
    const server = () => asTestServer(web.endpoint);
    const daemons: DaemonProcess[] = [await w.startDaemon(`window-${seed}-0`, { env: DAEMON_ENV })];

    const tenant = await createTenantFixture({ db: w.database.db, pepper: TEST_PEPPER });
    const api = transfersClient(server, tenant.authorization);
    const home = await serveHome({ url: web.url, ca: web.endpoint.tls.cert, tenant, keys: SOURCES });
    const sources = await walletsOf(api, w, SOURCES);
    const targets = destinations(random, 5);
    const plan = transferPlan(sources, targets, random);
    const serve = startServe(home, {
      maxAmountPerTransfer: { [NATIVE.QUANTUM_SANDBOX]: MAX_AMOUNT.toString() },
      dailyLimit: { [NATIVE.QUANTUM_SANDBOX]: (10n ** 30n).toString() },
      destinations: targets,
      types: ["TRANSFER", "NONCE_FILL", "CANCELLATION", "REPLACEMENT"],
    });
    w.children.push(serve);

    const started = performance.now();
    let loadDone = false;
    const load = (async () => {
      const ids: string[] = [];
      for (const step of plan) {
        ids.push(await createOnce(api, step.body, "chaos-window"));
        await sleep(step.pauseMs);
      }
      return ids;
    })().finally(() => (loadDone = true));
    const kills = await killRepeatedly(w, daemons, seed, () => loadDone);
    const ids = await load;
    console.log(
      `[chaos] nonce-window: ${ids.length} transfers created, ${kills} kills in ${Math.round((performance.now() - started) / 1000)} s`,
    );

    const rows = await settled(w, tenant.tenantId);
    serve.kill("SIGTERM");
    await serve.exited;
    const report = await expectWindowEndState(w, { rows, sources, plan, ids, decisions: serve.decisions });
    console.log(
      `[chaos] nonce-window: settled after ${Math.round((performance.now() - started) / 1000)} s`,
      JSON.stringify({ seed, kills, ...report, fees: String(report.fees) }),
    );
    expect(kills).toBe(KILLS);
  });
});

/** `count` wallets generated from the signer's enrolled keys, in one vault, each funded with FUNDS. */
async function walletsOf(api: TransfersClient, w: ChaosWorld, count: number): Promise<Source[]> {
  const vault = await api.post("/v1/vault/accounts", { name: "hot", networkCode: "QUANTUM_SANDBOX" });
  expect(vault.status, vault.text).toBe(201);
  const sources: Source[] = [];
  for (let i = 0; i < count; i += 1) {
    const generated = await api.post(`/v1/vault/accounts/${vault.json().id}/wallets/generate`, {});
    expect(generated.status, generated.text).toBe(201);
    const wallet = generated.json() as { id: string; address: Address };
    await w.devnet.fund(wallet.address, FUNDS);
    sources.push({ walletId: wallet.id, address: wallet.address.toLowerCase() as Address });
  }
  return sources;
}

/**
 * TRANSFERS native transfers round-robin over the sources to the five destinations, 1–1,000,000
 * Gwei; a seeded OVER_LIMIT_SHARE of them above the signer's limit instead; a pause of 0–150 ms after
 * each (the load spans tens of seconds, so the kills land while transfers are in flight).
 */
function transferPlan(sources: Source[], targets: Address[], random: SeededRandom): Planned[] {
  return Array.from({ length: TRANSFERS }, (_, i) => {
    const source = sources[i % sources.length]!;
    const overLimit = random.next() < OVER_LIMIT_SHARE;
    const amount = overLimit ? MAX_AMOUNT + BigInt(random.int(1, 1_000_000)) * 10n ** 9n : BigInt(random.int(1, 1_000_000)) * 10n ** 9n;
    return {
      source,
      overLimit,
      pauseMs: random.int(0, 150),
      body: {
        networkCode: "QUANTUM_SANDBOX",
        sourceWalletId: source.walletId,
        destinationAddress: random.pick(targets),
        assetId: NATIVE.QUANTUM_SANDBOX,
        amount: amount.toString(),
      },
    };
  });
}

/**
 * Exactly KILLS SIGKILLs of the running daemon at seeded moments (1–5 s apart, the first once the
 * load is under way), each followed by a successor: started before the kill (overlap) or after it,
 * by the seed. Then the last successor keeps running until the end.
 */
async function killRepeatedly(w: ChaosWorld, daemons: DaemonProcess[], seed: number, loadDone: () => boolean): Promise<number> {
  const random = seededRandom(seed + 7919);
  let kills = 0;
  for (let generation = 1; kills < KILLS; generation += 1) {
    await sleep(random.int(1_000, 5_000));
    const overlap = random.next() < 0.5;
    const victim = daemons.at(-1)!;
    const start = async () => void daemons.push(await w.startDaemon(`window-${seed}-${generation}`, { env: DAEMON_ENV }));
    if (overlap) await start();
    victim.kill("SIGKILL");
    await victim.exited;
    if (!overlap) await start();
    kills += 1;
    console.log(
      `[chaos] kill ${kills}: ${victim.instanceId} (${overlap ? "after its successor started" : "then restarted"}; load ${loadDone() ? "created" : "still being created"})`,
    );
  }
  return kills;
}

/** The tenant's transactions once none is left in a non-terminal status (bounded). */
async function settled(w: ChaosWorld, tenantId: string): Promise<Row[]> {
  const all = () =>
    w.database.db
      .select()
      .from(schema.transactions)
      .where(inArray(schema.transactions.tenantId, [tenantId]));
  return eventually(
    async () => {
      const rows = await all();
      return rows.every((row) => (TERMINAL_STATUSES as readonly string[]).includes(row.status)) ? rows : undefined;
    },
    SETTLE_MS,
    500,
  ).catch(async (error: unknown) => {
    const stuck = (await all()).filter((row) => !(TERMINAL_STATUSES as readonly string[]).includes(row.status));
    const sample = stuck.slice(0, 8).map((r) => `${r.id} ${r.type} ${r.status} nonce=${r.nonce} source=${r.sourceWalletId}`);
    throw new Error(`${stuck.length} transactions still not terminal after ${SETTLE_MS} ms: ${sample.join("; ")} (${String(error)})`);
  });
}

/** The end-state checks of this scenario (see the describe block); returns its figures. */
async function expectWindowEndState(
  w: ChaosWorld,
  params: { rows: Row[]; sources: Source[]; plan: Planned[]; ids: string[]; decisions: ServeDecision[] },
) {
  const { rows, sources, plan, ids, decisions } = params;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const describeRow = (row: Row) =>
    `${row.id} ${row.type} ${row.status}/${row.subStatus ?? ""} nonce=${row.nonce}: ${row.statusReason ?? ""}`;

  // 1. Every created transfer in its documented end state; the service's own records final and known.
  ids.forEach((id, i) => {
    const row = byId.get(id);
    expect(row, `transfer ${id} got a 201 but is not in the database`).toBeDefined();
    if (plan[i]!.overLimit) expect([row!.status, row!.subStatus], describeRow(row!)).toEqual(["REJECTED", "REJECTED_BY_SIGNER"]);
    else expect(row!.status, describeRow(row!)).toBe("COMPLETED");
  });
  const created = new Set(ids);
  for (const row of rows.filter((r) => !created.has(r.id))) {
    expect(row.type, `a record the scenario did not create: ${describeRow(row)}`).toBe("NONCE_FILL");
    expect(row.status, describeRow(row)).toBe("COMPLETED");
  }
  const rejected = new Set(decisions.filter((d) => d.decision === "REJECTED").map((d) => d.transactionId));
  for (const [i, id] of ids.entries()) expect(rejected.has(id), `serve's decision on ${id}`).toBe(plan[i]!.overLimit);

  // 2. No (source, nonce) under two hashes: among the mined rows, and in what the devnet was sent.
  const minedRows = rows.filter(minedOnChain);
  const pairs = new Set(minedRows.map((row) => `${row.sourceWalletId}:${row.nonce}`));
  expect(pairs.size, "two mined transactions share a (source, nonce)").toBe(minedRows.length);
  expect(conflictingBroadcasts(w.broadcasts), "a (source, nonce) sent to the devnet under two hashes").toEqual([]);

  // 3. The chain's view: exactly the recorded hashes mined, each once; per source the chain nonce
  // equals its mined rows, nonces 0..n-1; balances conserved to the Qwei; destinations exact.
  const chain = await expectOnChainExactlyOnce(
    w.devnet,
    sources.map((source) => ({ wallet: { id: source.walletId, address: source.address }, funded: FUNDS })),
    rows,
  );

  const count = (predicate: (row: Row) => boolean) => rows.filter(predicate).length;
  return {
    transactions: rows.length,
    completedTransfers: count((r) => r.type === "TRANSFER" && r.status === "COMPLETED"),
    rejected: count((r) => r.status === "REJECTED"),
    nonceFills: count((r) => r.type === "NONCE_FILL"),
    mined: chain.mined,
    fees: chain.fees,
  };
}
