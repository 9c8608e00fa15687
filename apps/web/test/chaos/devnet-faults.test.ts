/**
 * Chaos: transfers under devnet faults (issue 16 §2). The devnet answers JSON-RPC errors (bursts
 * and a sustained period), stalls (held requests, no blocks), silently drops accepted
 * transactions (`dropNextTx`) and reorganises its chain (`devnet_reorg`, depth 1–3) while
 * transfers are CONFIRMING and right after one COMPLETED, on a seeded schedule, while 72
 * transfers go through the pipeline (real web server, the daemon as its own process, the
 * customer's auto-signer). Afterwards every transfer is COMPLETED or in a documented failure
 * state with its reason, none is left in a non-terminal status, each is on chain exactly once and
 * balances are conserved to the Qwei (world.ts's end-state checks).
 *
 * Reorgs are aimed, not hoped for: the test drives block production (the devnet mines only on
 * `devnet_mine`), pauses it for a reorg, mines a block with pending transfers, waits until the
 * daemon records one CONFIRMING in it and then drops exactly that block (depth 1, 2 or 3, blocks
 * on top mined for the depth), checking that the transaction was mined again in a block with
 * another hash; or lets that transfer reach COMPLETED and drops the blocks above it. The outcome
 * docs/decisions/transfers.md documents is asserted for each: back to BROADCASTING naming the
 * dropped block, re-confirmed under the same hash, COMPLETED in the new block; a COMPLETED
 * transfer untouched by a shallower reorg.
 *
 * Confirmations: the scenario runs with 4 required confirmations, deeper than its deepest reorg
 * (3), which is the rule an operator follows (a reorg deeper than the confirmation depth undoes
 * what COMPLETED promised). What a deeper reorg does to a COMPLETED transfer is pinned separately
 * below, with the sandbox default of 2.
 */
import { DEFAULT_RATE_LIMITS, defaultTransferConfig } from "@qc/core";
import { and, asc, eq, inArray, schema } from "@qc/db";
import type { TestDevnet } from "@qc/devnet/testing";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { Q } from "../custody-helpers";
import { eventually } from "../identity-helpers";
import { waitForRecord } from "../transfers-back-helpers";
import { startTestServer, type TestServer } from "../harness";
import { idempotencyKey, nativeTransfer, transfersClient, type TransfersClient } from "../transfers-front-helpers";
import {
  chaosRandom,
  finishScenario,
  fundedSources,
  sleep,
  startAutoSigner,
  startScenario,
  transferPlan,
  useChaosWorld,
  type ChaosSource,
  type ChaosWorld,
  type SeededRandom,
} from "./world";

const TRANSFERS = 60;
const SOURCES = 20;
const REQUIRED_CONFIRMATIONS = 4;
const BLOCK_TIME_MS = 250;
/** Failure states CONTRACT §6 and docs/decisions/transfers.md name for what these faults can cause. */
const DOCUMENTED_FAILURES = new Set(["FAILED/DROPPED_BY_CHAIN"]);

type FaultEpisode =
  | { kind: "rpcErrorBurst"; count: number }
  | { kind: "rpcErrorSustained"; ms: number }
  | { kind: "stall"; ms: number }
  | { kind: "dropNextTx"; count: number }
  | { kind: "reorg"; depth: 1 | 2 | 3; when: "confirming" | "afterCompleted" };

/**
 * The schedule: every fault at least once (each reorg depth both while a transfer is CONFIRMING
 * and right after one COMPLETED), plus a few drawn at random, shuffled, with random gaps.
 */
function faultPlan(random: SeededRandom): { episode: FaultEpisode; gapMs: number }[] {
  const episodes: FaultEpisode[] = [
    { kind: "rpcErrorBurst", count: random.int(3, 12) },
    { kind: "rpcErrorBurst", count: random.int(10, 30) },
    { kind: "rpcErrorSustained", ms: random.int(2_000, 4_000) },
    { kind: "stall", ms: random.int(1_000, 3_000) },
    { kind: "stall", ms: random.int(500, 1_500) },
    { kind: "dropNextTx", count: 1 },
    { kind: "dropNextTx", count: random.int(2, 3) },
    ...([1, 2, 3] as const).flatMap((depth) => [
      { kind: "reorg" as const, depth, when: "confirming" as const },
      { kind: "reorg" as const, depth, when: "afterCompleted" as const },
    ]),
  ];
  for (let extra = 0; extra < 3; extra++) {
    episodes.push(
      random.pick<FaultEpisode>([
        { kind: "rpcErrorBurst", count: random.int(1, 8) },
        { kind: "dropNextTx", count: 1 },
        { kind: "reorg", depth: random.pick([1, 2, 3] as const), when: random.pick(["confirming", "afterCompleted"] as const) },
      ]),
    );
  }
  for (let i = episodes.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [episodes[i], episodes[j]] = [episodes[j]!, episodes[i]!];
  }
  return episodes.map((episode) => ({ episode, gapMs: random.int(300, 1_500) }));
}

const setFault = (devnet: TestDevnet, spec: Record<string, unknown>) => devnet.rpc("devnet_setFault", [spec]);
const clearFaults = (devnet: TestDevnet) => devnet.rpc("devnet_clearFaults", []);

/**
 * Block production driven by the test: the devnet mines only on `devnet_mine` (`blockTimeMs: 0`)
 * and this loop asks for a block every `blockTimeMs`. A reorg episode pauses it, so the block it
 * drops is the one it chose, at the depth it chose; interval production could only be paused by a
 * stall, which also holds every read the daemon makes.
 */
function startMiner(devnet: TestDevnet, blockTimeMs: number) {
  let running = true;
  let paused = false;
  let current: Promise<unknown> = Promise.resolve();
  const loop = (async () => {
    while (running) {
      await sleep(blockTimeMs);
      if (!running || paused) continue;
      current = devnet.mine(1).catch((error: unknown) => console.error("[chaos] devnet-faults: mining failed", error));
      await current;
    }
  })();
  return {
    /** Resolves once no block is being mined and none will be until `resume`. */
    async pause() {
      paused = true;
      await current;
    },
    resume() {
      paused = false;
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}
type Miner = ReturnType<typeof startMiner>;

/** A transfer a reorg episode aimed at: the block it was CONFIRMING in when the episode struck. */
interface ReorgTarget {
  id: string;
  chainTxHash: string;
  blockNumber: number;
  blockHash: string;
  depth: number;
  when: "confirming" | "afterCompleted";
}

interface EpisodeContext {
  w: ChaosWorld;
  tenantId: string;
  miner: Miner;
  targets: ReorgTarget[];
  /** Creates one more transfer (when the load has nothing in flight for a reorg to catch). */
  createExtra: () => Promise<string>;
}

/** Runs one episode against the devnet; returns what it did, for the log. */
async function runEpisode(ctx: EpisodeContext, episode: FaultEpisode): Promise<string> {
  const devnet = ctx.w.devnet;
  switch (episode.kind) {
    case "rpcErrorBurst":
      await setFault(devnet, { kind: "rpcError", count: episode.count });
      return `rpcError ×${episode.count}`;
    case "rpcErrorSustained":
      await setFault(devnet, { kind: "rpcError" });
      await sleep(episode.ms);
      await clearFaults(devnet);
      return `rpcError for ${episode.ms} ms`;
    case "stall":
      // No blocks and every chain request held, as with a node that stops answering.
      await ctx.miner.pause();
      try {
        await setFault(devnet, { kind: "stall", ms: episode.ms });
        await sleep(episode.ms);
      } finally {
        ctx.miner.resume();
      }
      return `stall ${episode.ms} ms`;
    case "dropNextTx":
      await setFault(devnet, { kind: "dropNextTx", count: episode.count });
      return `drop next ${episode.count} tx`;
    case "reorg": {
      const target =
        episode.when === "confirming" ? await reorgUnderConfirming(ctx, episode.depth) : await reorgAboveCompleted(ctx, episode.depth);
      ctx.targets.push(target);
      return `reorg depth ${episode.depth} ${episode.when === "confirming" ? "under" : "above"} ${target.id} (block ${target.blockNumber})`;
    }
  }
}

/**
 * Reorg while a transfer is CONFIRMING: its block is mined for the episode (mining paused), the
 * daemon records it CONFIRMING there, `depth − 1` blocks go on top, and `devnet_reorg(depth)`
 * drops exactly the blocks from its block up. The episode checks the block really left the chain
 * and the transaction was mined again in a block with another hash.
 */
async function reorgUnderConfirming(ctx: EpisodeContext, depth: number): Promise<ReorgTarget> {
  const devnet = ctx.w.devnet;
  let target: ReorgTarget;
  await ctx.miner.pause();
  try {
    target = { ...(await confirmingInNewBlock(ctx)), depth, when: "confirming" };
    if (depth > 1) await devnet.mine(depth - 1);
    const reorg = await reorgToOtherBlocks(devnet, depth);
    expect(lower(reorg.removedBlocks), `block ${target.blockNumber} of ${target.id} dropped by a reorg of depth ${depth}`).toContain(
      target.blockHash,
    );
    expect(lower(reorg.returnedTransactions)).toContain(target.chainTxHash);
  } finally {
    ctx.miner.resume();
  }
  const remined = await eventually(async () => devnet.node.getReceipt(target.chainTxHash as Hex), 30_000, 50);
  expect(remined.block.hash.toLowerCase(), `${target.id} mined again in a block with another hash`).not.toBe(target.blockHash);
  return target;
}

/**
 * Reorg right after a transfer COMPLETED: its block is mined for the episode, gets exactly the
 * required confirmations, the daemon completes it, then `devnet_reorg(depth)` with depth below
 * the confirmations replaces the blocks above it and leaves its block alone.
 */
async function reorgAboveCompleted(ctx: EpisodeContext, depth: number): Promise<ReorgTarget> {
  const devnet = ctx.w.devnet;
  await ctx.miner.pause();
  try {
    const target: ReorgTarget = { ...(await confirmingInNewBlock(ctx)), depth, when: "afterCompleted" };
    await devnet.mine(REQUIRED_CONFIRMATIONS - 1);
    await eventually(async () => (await transactionRow(ctx.w, target.id))?.status === "COMPLETED", 30_000, 50);
    const reorg = await reorgToOtherBlocks(devnet, depth);
    expect(reorg.removedBlocks.length).toBe(depth);
    expect(lower(reorg.removedBlocks), `the block ${target.id} completed in stays`).not.toContain(target.blockHash);
    return target;
  } finally {
    ctx.miner.resume();
  }
}

/**
 * With mining paused: mines a block holding pending transfers and waits (bounded) until the
 * daemon records one of them CONFIRMING in it. When the load has nothing in flight, the episode
 * creates a transfer of its own.
 */
async function confirmingInNewBlock(ctx: EpisodeContext): Promise<Omit<ReorgTarget, "depth" | "when">> {
  const { node } = ctx.w.devnet;
  const started = performance.now();
  let ownTransfer = false;
  while (performance.now() - started < 45_000) {
    if (node.pendingTransactions().length === 0) {
      if (!ownTransfer && performance.now() - started > 3_000) {
        ownTransfer = true;
        await ctx.createExtra();
      }
      await sleep(100);
      continue;
    }
    await ctx.w.devnet.mine(1);
    const block = node.head();
    const hashes = new Set(block.transactions.map((tx) => tx.hash.toLowerCase()));
    if (hashes.size === 0) {
      // Nothing executable yet (a nonce gap behind a dropped transaction): the watcher re-sends it.
      await sleep(250);
      continue;
    }
    const row = await eventually(
      async () => {
        const rows = await ctx.w.database.db
          .select()
          .from(schema.transactions)
          .where(and(eq(schema.transactions.tenantId, ctx.tenantId), eq(schema.transactions.status, "CONFIRMING")));
        return rows.find((r) => hashes.has(r.chainTxHash?.toLowerCase() ?? "") && r.blockHash?.toLowerCase() === block.hash.toLowerCase());
      },
      20_000,
      50,
    ).catch(() => undefined);
    if (row)
      return {
        id: row.id,
        chainTxHash: row.chainTxHash!.toLowerCase(),
        blockNumber: row.blockNumber!,
        blockHash: row.blockHash!.toLowerCase(),
      };
  }
  throw new Error("no transfer was recorded CONFIRMING in a block mined for the reorg episode within 45 s");
}

/**
 * A credit to an unrelated address, then `devnet_reorg`: the devnet's blocks have 1 s timestamps,
 * so blocks rebuilt within the same second from the same transactions would get the very same
 * hashes (no visible reorg at all). The reorg re-applies credits made after the dropped blocks
 * to their parent's state, so the rebuilt blocks get another state root and other hashes, as on
 * a real competing branch.
 */
async function reorgToOtherBlocks(devnet: TestDevnet, depth: number) {
  await devnet.fund(`0x${"0f".repeat(19)}${depth.toString(16).padStart(2, "0")}`, 1n);
  return devnet.rpc<{ removedBlocks: string[]; returnedTransactions: string[] }>("devnet_reorg", [`0x${depth.toString(16)}`]);
}

const lower = (hashes: string[]) => hashes.map((hash) => hash.toLowerCase());

async function transactionRow(w: ChaosWorld, id: string) {
  return (await w.database.db.select().from(schema.transactions).where(eq(schema.transactions.id, id)))[0];
}

/** The transfers, spread over the fault period, round-robin over the sources, amounts and pauses from the PRNG. */
function createTransfers(api: TransfersClient, sources: ChaosSource[], random: SeededRandom) {
  const plan = transferPlan(sources, random, TRANSFERS, [50, 400]);
  const stats = { retried: 0 };
  const promise = (async () => {
    const ids: string[] = [];
    for (const step of plan) {
      ids.push(await createOnce(api, step.body, stats));
      await sleep(step.pauseMs);
    }
    return ids;
  })();
  promise.catch(() => {}); // awaited after the fault schedule; a failure is reported there
  return { promise, stats };
}

/**
 * One create. Creating reads no chain, so the devnet's faults never reach it; a 503 (the loaded
 * machine's database pool) is retried with the same idempotency key, as a client does (bounded).
 */
async function createOnce(api: TransfersClient, body: unknown, stats: { retried: number }): Promise<string> {
  const key = idempotencyKey("chaos-faults");
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const res = await api.createTransfer(body, key);
    if (res.status === 201) return res.json().id;
    expect(res.status, res.text).toBe(503);
    expect(res.json()).toMatchObject({ error: "UNAVAILABLE", code: 1070 });
    stats.retried += 1;
    await sleep(250);
  }
  throw new Error(`create ${key} never answered 201`);
}

/** An in-process web server on the world's database with `requiredConfirmations` set (world's startInProcessWeb takes no overrides). */
function startServer(w: ChaosWorld, requiredConfirmations: number): Promise<TestServer> {
  return startTestServer({
    database: w.database,
    config: {
      ...w.serviceConfig(),
      transfers: { ...defaultTransferConfig(), requiredConfirmations: { QUANTUM_SANDBOX: requiredConfirmations, QUANTUM_MAINNET: 12 } },
    },
    rateLimits: { ...DEFAULT_RATE_LIMITS, tenantPerSecond: 5_000, tenantBurstExtra: 5_000 },
  });
}

describe("chaos: transfers under devnet faults", () => {
  // Blocks only on `devnet_mine`: each test drives production with startMiner (a block every 250 ms).
  const world = useChaosWorld({ devnet: { blockTimeMs: 0 } });

  it(
    "ends every transfer COMPLETED or in a documented failure state, none stuck, on chain exactly once",
    { timeout: 240_000 },
    async () => {
      const { seed, random } = chaosRandom("devnet-faults", 160_401);
      const w = world();
      const server = await startServer(w, REQUIRED_CONFIRMATIONS);
      const miner = startMiner(w.devnet, BLOCK_TIME_MS);
      try {
        // Also the daemon of the next test: the world kills it when the file ends.
        await w.startDaemon(`faults-${seed}`, { env: { CONFIRMATIONS_QUANTUM_SANDBOX: String(REQUIRED_CONFIRMATIONS) } });
        const scenario = await startScenario(w.ground, {
          name: "devnet-faults",
          server: () => server,
          sources: SOURCES,
          signerEndpoints: () => [server],
        });
        const { sources, tenant } = scenario;
        const api = transfersClient(() => server, tenant.authorization);

        const load = createTransfers(api, sources, random);
        const extraIds: string[] = [];
        const ctx: EpisodeContext = {
          w,
          tenantId: tenant.tenantId,
          miner,
          targets: [],
          createExtra: async () => {
            const id = await createOnce(api, nativeTransfer(sources[extraIds.length % sources.length]!, Q / 1_000n), load.stats);
            extraIds.push(id);
            return id;
          },
        };
        const done: string[] = [];
        try {
          for (const { episode, gapMs } of faultPlan(random)) {
            await sleep(gapMs);
            done.push(await runEpisode(ctx, episode));
          }
        } finally {
          await sleep(500);
          await clearFaults(w.devnet);
        }
        const createdIds = [...(await load.promise), ...extraIds];
        console.log(`[chaos] devnet-faults: ${done.length} faults in ${scenario.seconds()} s: ${done.join("; ")}`);

        await finishScenario(scenario, {
          createdIds,
          transactions: TRANSFERS + extraIds.length,
          alsoAllowed: ["FAILED"],
          timeoutMs: 120_000,
          figures: () => ({ extraTransfers: extraIds.length, createRetries: load.stats.retried }),
        });
        // A failure is only one the contract documents, with its reason recorded.
        const failed = await w.database.db
          .select()
          .from(schema.transactions)
          .where(and(inArray(schema.transactions.id, createdIds), eq(schema.transactions.status, "FAILED")));
        for (const row of failed) {
          expect(DOCUMENTED_FAILURES, `${row.id} FAILED/${row.subStatus}: ${row.statusReason}`).toContain(`FAILED/${row.subStatus}`);
          expect(row.statusReason, `${row.id} records why it failed`).toMatch(/\S/);
        }
        await expectReorgOutcomes(w, ctx.targets);
      } finally {
        await miner.stop();
        await server.close();
      }
    },
  );

  it(
    "a reorg deeper than the confirmations after COMPLETED: the transfer stays COMPLETED, its transaction is mined " +
      "again (same hash) in a new block, the record keeps the block it completed in",
    { timeout: 120_000 },
    async () => {
      const w = world();
      const server = await startServer(w, 2);
      const miner = startMiner(w.devnet, BLOCK_TIME_MS);
      try {
        const [source] = await fundedSources(() => server, w.database.db, w.devnet, 1, 10n * Q);
        const signer = startAutoSigner({ endpoints: () => [server], tenant: source!.tenant, keys: [source!.key] });
        const api = transfersClient(() => server, source!.tenant.authorization);
        const id = await createOnce(api, nativeTransfer(source!, Q), { retried: 0 });
        const completed = await waitForRecord(api, id, ["COMPLETED", "FAILED"], 90_000);
        await signer.stop();
        expect(completed.status).toBe("COMPLETED");
        // Deep enough to drop the block it completed in, however far the chain has moved since.
        await miner.pause();
        const depth = Number(w.devnet.node.head().number) - completed.blockNumber + 1;
        const reorg = await reorgToOtherBlocks(w.devnet, depth);
        miner.resume();
        expect(lower(reorg.returnedTransactions)).toContain(completed.chainTxHash.toLowerCase());

        // The same bytes are mined again (one transaction, one hash), in another block.
        const client = w.devnet.publicClient();
        const receipt = await eventually(
          () => client.getTransactionReceipt({ hash: completed.chainTxHash }).catch(() => undefined),
          30_000,
          100,
        );
        expect(receipt.status).toBe("success");
        const recorded = (await transactionRow(w, id))!;
        expect(receipt.blockHash.toLowerCase(), "mined again in a block with another hash").not.toBe(recorded.blockHash?.toLowerCase());
        expect(await client.getTransactionCount({ address: source!.wallet.address, blockTag: "latest" })).toBe(1);
        // COMPLETED is terminal: nothing watches it any more, so the record keeps the block it
        // completed in. Finality is the confirmation depth (CONTRACT §6); an operator sets it deeper
        // than the deepest reorg the network can have, as the scenario above does.
        await sleep(2_000);
        const after = (await api.get(`/v1/transactions/${id}`)).json();
        expect(after).toMatchObject({ status: "COMPLETED", chainTxHash: completed.chainTxHash, blockNumber: completed.blockNumber });
        expect((await transactionRow(w, id))!.blockHash).toBe(recorded.blockHash);
        console.log(`[chaos] deep reorg after COMPLETED: recorded block ${after.blockNumber}, mined again in block ${receipt.blockNumber}`);
      } finally {
        await miner.stop();
        await server.close();
      }
    },
  );
});

/**
 * What docs/decisions/transfers.md ("Confirmations") documents for each reorg the schedule aimed:
 * - under a CONFIRMING transfer: back to BROADCASTING with the dropped block named in the reason,
 *   re-confirmed in the block that replaced it (same transaction hash), then COMPLETED there;
 * - above a COMPLETED transfer (shallower than its confirmations): nothing changes, its recorded
 *   block is still the canonical one.
 */
async function expectReorgOutcomes(w: ChaosWorld, targets: ReorgTarget[]) {
  for (const when of ["confirming", "afterCompleted"] as const) {
    expect(new Set(targets.filter((t) => t.when === when).map((t) => t.depth)), `reorg depths aimed ${when}`).toEqual(new Set([1, 2, 3]));
  }
  for (const target of targets) {
    const row = (await transactionRow(w, target.id))!;
    const canonical = w.devnet.node.getBlock(BigInt(row.blockNumber!));
    expect(row.status, `${target.id} after a reorg of depth ${target.depth}`).toBe("COMPLETED");
    expect(row.chainTxHash?.toLowerCase(), "one transaction: re-mined under the same hash").toBe(target.chainTxHash);
    expect(row.blockHash?.toLowerCase(), `${target.id} recorded in a canonical block`).toBe(canonical?.hash.toLowerCase());
    const history = await w.database.db
      .select()
      .from(schema.transactionStatusHistory)
      .where(eq(schema.transactionStatusHistory.transactionId, target.id))
      .orderBy(asc(schema.transactionStatusHistory.createdAt), asc(schema.transactionStatusHistory.id));
    const backToBroadcasting = history.filter((h) => h.fromStatus === "CONFIRMING" && h.toStatus === "BROADCASTING");
    if (target.when === "confirming") {
      expect(row.blockHash?.toLowerCase(), `${target.id} left block ${target.blockHash}`).not.toBe(target.blockHash);
      expect(
        backToBroadcasting.map((h) => h.reason).join("\n"),
        `${target.id} went back to BROADCASTING naming its dropped block`,
      ).toContain(target.blockHash);
      expect(history.at(-1)).toMatchObject({ fromStatus: "CONFIRMING", toStatus: "COMPLETED" });
    } else {
      expect(row).toMatchObject({ blockNumber: target.blockNumber });
      expect(row.blockHash?.toLowerCase()).toBe(target.blockHash);
      expect(backToBroadcasting, `${target.id} was not reorged`).toEqual([]);
    }
  }
}
