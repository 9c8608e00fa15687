/**
 * Deposits (issue 34, CONTRACT §21): can the chain follower keep up with a busy chain while it
 * matches every transaction and Transfer log against 100,000 wallets of 1,000 tenants?
 *
 * The run: BENCH_WALLETS wallets over BENCH_TENANTS tenants inserted with SQL
 * (./deposits-setup.ts); every transfer signed beforehand from outside keys and admitted to the
 * devnet's pool (./deposits-load.ts); the devnet (./deposits-devnet.ts) and the follower
 * (packages/core/src/deposits with its wallet directory, as the daemon runs it: ./deposits-follower.ts)
 * in processes of their own. Blocks are mined on request, their gas limit sized for BENCH_PER_BLOCK
 * transfers (3 in 5 native, 2 in 5 ERC-20; 9 in 10 to a tracked wallet).
 *   1. Live: the follower starts at the head, then a block mined every BENCH_BLOCK_MS for
 *      BENCH_LIVE_BLOCKS blocks. Blocks behind (head − the follower's cursor) sampled every
 *      100 ms: p50, p95, max; a deposit's record latency: blocks mined after its block before its
 *      row was written (p50, p95), and ms; CPU per block of the follower's process, of PostgreSQL
 *      (embedded server only: on a shared DATABASE_URL server its other work counts too) and of
 *      the devnet.
 *   2. Revealed: the follower stopped, the rest of the pool mined at once; a follower started again
 *      reads the chain through a proxy that shows one more of those blocks every BENCH_BLOCK_MS
 *      for BENCH_REVEAL_BLOCKS blocks: 1 s blocks with the devnet idle (it mines and answers RPC
 *      on one thread, so live its mining delays the follower's reads). The same figures.
 *   3. Catch-up: the proxy shows every remaining block at once; the same follower's blocks per
 *      second from its cursor to the head (from the moment they are shown: up to one pause of the
 *      follower's interval included), CPU per block. ≥ 1 block/s: it can keep up with 1 s blocks.
 *   The baseline, same run: the follower's RPC reads alone (getBlock with transactions + getLogs of
 *   the block's Transfers) over the same blocks, in a process of their own (`read` in
 *   ./deposits-follower.ts): what any follower must pay; the ratios say what matching and recording
 *   add to it. And the wallet directory: its full load against the same rows read raw in one query,
 *   the heap it holds, a lookup against a plain Map.get (a fresh process per round).
 * The rows written are checked against the deposits the chain holds (counted by the reads process:
 * native value and Transfer logs to a tracked address): the run fails on a missing or extra one.
 *
 *   ./qc pnpm --filter @qc/bench deposits       (./qc exec tsx bench/deposits.ts)
 *   BENCH_BLOCKS=30 BENCH_WALLETS=10000 ./qc exec tsx bench/deposits.ts
 *   BENCH_CPU_PROF=1 ./qc exec tsx bench/deposits.ts     # the follower's CPU profile too
 *
 * Signing (~15 ms a transaction) happens once per plan; the signed transactions are kept in
 * bench/results/. Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL. Writes
 * bench/results/deposits-<time>.json.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { NETWORKS, type NetworkCode } from "@qc/chain";
import { createDatabase } from "@qc/db";
import type { Hex } from "viem";
import { benchDatabase, freePort } from "./database";
import { signedLoad } from "./deposits-load";
import { insertDepositWallets } from "./deposits-setup";
import { jsonRpc } from "./json-rpc";
import { databaseCpuMsBetween, databaseCpuSnapshot, processCpuMs } from "./proc-cpu";
import { median } from "./rounds";
import { startNode, TSX } from "./start-node";
import { stopChild } from "./stop-on-signal";

const WALLETS = Number(process.env.BENCH_WALLETS ?? 100_000);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 1_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 40);
/** Blocks mined at BLOCK_MS with the follower running; the rest are mined at once, then revealed. */
const LIVE_BLOCKS = Number(process.env.BENCH_LIVE_BLOCKS ?? Math.ceil(BLOCKS / 3));
/** Of the rest, blocks revealed one every BLOCK_MS; the others at once (the catch-up). */
const REVEAL_BLOCKS = Number(process.env.BENCH_REVEAL_BLOCKS ?? Math.ceil(BLOCKS / 3));
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 200);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 1_000);
const FOLLOW_INTERVAL_MS = Number(process.env.BENCH_FOLLOW_INTERVAL_MS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NETWORK: NetworkCode = "QUANTUM_SANDBOX";
const CHAIN_ID = NETWORKS[NETWORK].chainId;
// Gas of an ERC-20 transfer to an address holding none of the token yet (almost every deposit
// here), measured on the devnet; a native transfer is 21,000.
const TOKEN_TRANSFER_GAS = 51_500n;
const FOLLOWER = resolve(import.meta.dirname, "deposits-follower.ts");
const DEVNET = resolve(import.meta.dirname, "deposits-devnet.ts");

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/**
 * A JSON-RPC proxy in front of the devnet that shows blocks up to `visible` only: eth_blockNumber
 * answers at most `visible`, eth_getBlockByNumber above it (or "latest") as the chain would.
 */
async function revealingProxy(target: string, visible: number): Promise<{ url: string; visible: number; close(): Promise<void> }> {
  const state = { visible };
  const answer = async (call: { id: unknown; method: string; params?: unknown[] }): Promise<unknown> => {
    const hex = `0x${state.visible.toString(16)}`;
    if (call.method === "eth_blockNumber") return { jsonrpc: "2.0", id: call.id, result: hex };
    if (call.method === "eth_getBlockByNumber") {
      const [tag, full] = call.params ?? [];
      if (tag === "latest" || tag === "pending") call = { ...call, params: [hex, full] };
      else if (typeof tag === "string" && tag.startsWith("0x") && Number(tag) > state.visible)
        return { jsonrpc: "2.0", id: call.id, result: null };
    }
    const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) });
    return res.json();
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Parameters<typeof answer>[0] | Parameters<typeof answer>[0][];
        const out = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
      })().catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${port}`,
    get visible() {
      return state.visible;
    },
    set visible(value: number) {
      state.visible = value;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Runs the follower script in `mode` to its end; its JSON report lines. */
function runFollowerScript(args: string[], env: Record<string, string>, nodeArgs: string[] = []): Promise<Record<string, number>[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeArgs, ...TSX, FOLLOWER, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) =>
      code === 0
        ? done(
            out
              .split("\n")
              .filter((line) => line.startsWith("{"))
              .map((line) => JSON.parse(line) as Record<string, number>),
          )
        : fail(new Error(`deposits-follower ${args.join(" ")} exited ${code}: ${out.slice(-2000)}`)),
    );
  });
}

const nativeSenders = Math.ceil((BLOCKS * PER_BLOCK * 0.6) / 40);
const tokenSenders = Math.ceil((BLOCKS * PER_BLOCK * 0.4) / 40);
const load = await signedLoad(
  { chainId: CHAIN_ID, blocks: BLOCKS, perBlock: PER_BLOCK, wallets: WALLETS, nativeSenders, tokenSenders },
  log,
);

const bench = await benchDatabase("qc-bench-deposits");
const database = createDatabase({ url: bench.url, poolMax: 4 });
const blockGasLimit = (BigInt(PER_BLOCK) * 3n * 21_000n) / 5n + (BigInt(PER_BLOCK) * 2n * TOKEN_TRANSFER_GAS) / 5n + 100_000n;
const devnetPort = await freePort();
const devnetOptions = join(bench.work, "devnet.json");
writeFileSync(
  devnetOptions,
  JSON.stringify({
    chainId: CHAIN_ID,
    port: devnetPort,
    blockGasLimit: blockGasLimit.toString(),
    prefund: Object.fromEntries(Object.entries(load.prefund).map(([address, amount]) => [address, amount.toString()])),
  }),
);
const devnet = await startNode([...TSX, DEVNET], { readyWhen: /devnet listening/, env: { DEVNET_OPTIONS: devnetOptions } });
const rpcUrl = `http://127.0.0.1:${devnetPort}`;
const rpc = <T>(method: string, params: unknown[] = []) => jsonRpc<T>(rpcUrl, method, params);
const mine = async () => Number(await rpc<string>("devnet_mine", ["0x1"]));
const pending = async () => (await rpc<{ pending: string[] }>("devnet_status")).pending.length;
const head = async () => Number(await rpc<string>("eth_blockNumber"));
let follower: Awaited<ReturnType<typeof startNode>> | undefined;
try {
  const env = { DATABASE_URL: bench.url, RPC_URL: rpcUrl, NETWORK_CODE: NETWORK };
  log(`inserting ${WALLETS} wallets over ${TENANTS} tenants…`);
  const insertStarted = performance.now();
  await insertDepositWallets(database.db, { networkCode: NETWORK, tenants: TENANTS, wallets: WALLETS, tokenAddress: load.token });
  const insertMs = performance.now() - insertStarted;

  // 1. The directory: full load ÷ the same rows read raw, heap, lookups (rounds in one process).
  log("the wallet directory: load, heap, lookups…");
  const directoryRounds: Record<string, number>[] = [];
  for (let i = 0; i < ROUNDS; i++)
    directoryRounds.push(...(await runFollowerScript(["directory"], { ...env, ROUNDS: "1" }, ["--expose-gc"])));

  // 2. The chain: the token and its senders' shares, then every measured transfer into the pool.
  const send = (raw: Hex) => rpc("eth_sendRawTransaction", [raw]);
  const admit = async (raws: Hex[]) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < raws.length) await send(raws[next++]!);
      }),
    );
  };
  await send(load.setup[0]!);
  await mine();
  // The owner's shares, within the pool's nonce gap per sender.
  for (let at = 1; at < load.setup.length; at += 60) {
    await admit(load.setup.slice(at, at + 60));
    while ((await pending()) > 0) await mine();
  }
  log(`admitting ${load.transfers.length} transfers…`);
  await admit(load.transfers);
  if ((await pending()) !== load.transfers.length) throw new Error("not every transfer was admitted");

  // 3. The follower, from the head; then a block every BLOCK_MS for LIVE_BLOCKS blocks.
  // BENCH_CPU_PROF=1: a CPU profile of the follower's process in bench/results/.
  const profile = process.env.BENCH_CPU_PROF === "1" ? ["--cpu-prof", `--cpu-prof-dir=${resolve(import.meta.dirname, "results")}`] : [];
  const startFollower = (extra: Record<string, string> = {}) =>
    startNode([...profile, ...TSX, FOLLOWER, "follow"], {
      readyWhen: /"ready":true/,
      env: { ...env, FOLLOW_INTERVAL_MS: String(FOLLOW_INTERVAL_MS), ...extra },
    });
  const cursor = async () => {
    const { rows } = await database.query<{ block_number: string | null }>(
      "select block_number from chain_followers where network_code = $1",
      [NETWORK],
    );
    return Number(rows[0]?.block_number ?? NaN);
  };
  const until = async (done: () => Promise<boolean>, ms: number) => {
    const by = performance.now() + ms;
    while (!(await done()) && performance.now() < by) await sleep(50);
  };
  follower = await startFollower();
  await until(async () => (await cursor()) === (await head()), 30_000);
  const firstBlock = (await head()) + 1;
  const behind: number[] = [];
  const minedAt = new Map<number, number>();
  const transactionsIn = new Map<number, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      behind.push((await head()) - (await cursor()));
      await sleep(100);
    }
  })();
  const mineCounted = async () => {
    const number = await mine();
    minedAt.set(number, Date.now());
    const count = Number(await rpc<string>("eth_getBlockTransactionCountByNumber", [`0x${number.toString(16)}`]));
    if (count > 0) transactionsIn.set(number, count);
    return count;
  };
  const cpu0 = { follower: processCpuMs(follower.pid), database: databaseCpuSnapshot(), devnet: processCpuMs(devnet.pid) };
  const wall0 = performance.now();
  log(`mining a block every ${BLOCK_MS} ms, ${LIVE_BLOCKS} blocks…`);
  for (let i = 0; i < LIVE_BLOCKS; i++) {
    await sleep(Math.max(0, wall0 + (i + 1) * BLOCK_MS - performance.now()));
    if ((await mineCounted()) === 0) break;
  }
  const lastLive = await head();
  const liveWallS = (performance.now() - wall0) / 1000;
  await until(async () => (await cursor()) >= lastLive, 120_000);
  sampling = false;
  await sampler;
  const cpu1 = { follower: processCpuMs(follower.pid), database: databaseCpuSnapshot(), devnet: processCpuMs(devnet.pid) };
  const measuredBlocks = lastLive - firstBlock + 1;
  await stopChild(follower);
  follower = undefined;

  // 4. Revealed: the rest of the pool mined at once while no follower runs; a follower started
  // again reads the chain through a proxy that shows one more of those blocks every BLOCK_MS
  // (eth_blockNumber capped, blocks above it not found): 1 s blocks with the devnet idle.
  log("the rest mined at once; then revealed one a second, then all at once (catch-up)…");
  while ((await mineCounted()) > 0);
  const lastBlock = await head();
  const revealBlocks = Math.min(REVEAL_BLOCKS, lastBlock - lastLive - 1);
  const proxy = await revealingProxy(rpcUrl, lastLive);
  follower = await startFollower({ RPC_URL: proxy.url });
  await until(async () => (await cursor()) >= lastLive, 30_000);
  const revealedAt = new Map<number, number>();
  const revealBehind: number[] = [];
  let revealing = true;
  const revealSampler = (async () => {
    while (revealing) {
      revealBehind.push(proxy.visible - (await cursor()));
      await sleep(100);
    }
  })();
  const reveal0 = { follower: processCpuMs(follower.pid), database: databaseCpuSnapshot() };
  const revealWall0 = performance.now();
  for (let i = 1; i <= revealBlocks; i++) {
    await sleep(Math.max(0, revealWall0 + i * BLOCK_MS - performance.now()));
    proxy.visible = lastLive + i;
    revealedAt.set(proxy.visible, Date.now());
  }
  const lastRevealed = proxy.visible;
  await until(async () => (await cursor()) >= lastRevealed, 60_000);
  revealing = false;
  await revealSampler;
  const reveal1 = { follower: processCpuMs(follower.pid), database: databaseCpuSnapshot() };

  // 5. Catching up: the proxy shows every block at once; the same follower reads them from its
  // cursor as fast as it can.
  const catchUp0 = { at: performance.now(), follower: processCpuMs(follower.pid), database: databaseCpuSnapshot() };
  proxy.visible = lastBlock;
  await until(async () => (await cursor()) >= lastBlock, 300_000);
  const catchUp1 = { at: performance.now(), follower: processCpuMs(follower.pid), database: databaseCpuSnapshot() };
  const catchUpBlocks = lastBlock - lastRevealed;
  if ((await cursor()) < lastBlock) throw new Error(`the follower did not catch up: cursor ${await cursor()}, head ${lastBlock}`);
  await stopChild(follower);
  follower = undefined;
  await proxy.close();

  // 6. What was recorded, against what was expected; the latency of the live and revealed parts' deposits.
  const { rows: deposits } = await database.query<{ block_number: string; created_at: Date; chain_tx_hash: string }>(
    "select block_number, created_at, chain_tx_hash from transactions where type = 'DEPOSIT'",
  );
  /** Per deposit in `from..to`: blocks shown after its own before its row was written, and ms from its own. */
  const latencies = (from: number, to: number, shownAt: Map<number, number>) => {
    const blocks: number[] = [];
    const ms: number[] = [];
    for (const row of deposits) {
      const included = Number(row.block_number);
      if (included < from || included > to) continue;
      const writtenAt = new Date(row.created_at).getTime();
      let after = 0;
      for (let n = included + 1; n <= to; n++) if ((shownAt.get(n) ?? Infinity) <= writtenAt) after++;
      blocks.push(after);
      ms.push(writtenAt - shownAt.get(included)!);
    }
    return {
      blocks: { p50: percentile(blocks, 50), p95: percentile(blocks, 95), max: Math.max(...blocks) },
      ms: { p50: Math.round(percentile(ms, 50)), p95: Math.round(percentile(ms, 95)) },
    };
  };
  const liveLatency = latencies(firstBlock, lastLive, minedAt);
  const revealLatency = latencies(lastLive + 1, lastRevealed, revealedAt);
  const perBlock = [...transactionsIn.values()];

  // 6. The baseline: the same blocks' RPC reads alone, in a process of their own.
  log("baseline: the follower's RPC reads alone over the same blocks…");
  // It counts the deposits expected too: native value and Transfer logs to a tracked address.
  const [reads] = await runFollowerScript(["read", String(firstBlock), String(lastBlock)], env);
  const expected = reads!.expectedDeposits!;

  const followerCpuMs = cpu1.follower !== null && cpu0.follower !== null ? cpu1.follower - cpu0.follower : null;
  const databaseCpuMs = databaseCpuMsBetween(cpu0.database, cpu1.database);
  const followerPerBlock = followerCpuMs === null ? null : followerCpuMs / measuredBlocks;
  const readsPerBlock = reads!.cpuMs! / reads!.blocks!;
  const results = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version, loadavg: loadavg().map((l) => round(l)) },
    database: process.env.DATABASE_URL ? "DATABASE_URL (shared: its CPU includes other work)" : "embedded PostgreSQL",
    plan: {
      liveBlocks: LIVE_BLOCKS,
      revealBlocks: REVEAL_BLOCKS,
      wallets: WALLETS,
      tenants: TENANTS,
      blocks: BLOCKS,
      perBlock: PER_BLOCK,
      blockMs: BLOCK_MS,
      followIntervalMs: FOLLOW_INTERVAL_MS,
      nativeSenders,
      tokenSenders,
    },
    setup: { insertWalletsMs: Math.round(insertMs) },
    directory: {
      rounds: directoryRounds,
      loadMs: round(median(directoryRounds.map((r) => r.loadMs!)), 0),
      rawReadMs: round(median(directoryRounds.map((r) => r.rawMs!)), 0),
      loadOverRawRead: round(median(directoryRounds.map((r) => r.loadMs! / r.rawMs!))),
      heapMB: round(median(directoryRounds.map((r) => r.heapBytes!)) / 2 ** 20, 1),
      heapBytesPerLink: Math.round(median(directoryRounds.map((r) => r.heapBytes! / r.links!))),
      lookupNs: round(median(directoryRounds.map((r) => r.lookupNs!)), 0),
      plainMapNs: round(median(directoryRounds.map((r) => r.plainMapNs!)), 0),
    },
    chain: {
      blocks: measuredBlocks,
      transactionsPerBlock: {
        mean: round(perBlock.reduce((a, b) => a + b, 0) / perBlock.length, 1),
        min: Math.min(...perBlock),
        max: Math.max(...perBlock),
      },
      liveBlocks: measuredBlocks,
      liveWallS: round(liveWallS, 1),
      revealedBlocks: revealBlocks,
      catchUpBlocks,
    },
    follower: {
      blocksBehind: { samples: behind.length, p50: percentile(behind, 50), p95: percentile(behind, 95), max: Math.max(...behind) },
      depositsRecorded: deposits.length,
      depositsExpected: expected,
      recordLatencyBlocks: liveLatency.blocks,
      recordLatencyMs: liveLatency.ms,
      revealed: {
        blocks: revealBlocks,
        blocksBehind: {
          samples: revealBehind.length,
          p50: percentile(revealBehind, 50),
          p95: percentile(revealBehind, 95),
          max: Math.max(...revealBehind),
        },
        recordLatencyBlocks: revealLatency.blocks,
        recordLatencyMs: revealLatency.ms,
        cpuMsPerBlock:
          reveal0.follower === null || reveal1.follower === null ? null : round((reveal1.follower - reveal0.follower) / revealBlocks),
        databaseCpuMsPerBlock: ((ms) => (ms === null ? null : round(ms / revealBlocks)))(
          databaseCpuMsBetween(reveal0.database, reveal1.database),
        ),
      },
      cpuMsPerBlock: followerPerBlock === null ? null : round(followerPerBlock),
      databaseCpuMsPerBlock: databaseCpuMs === null ? null : round(databaseCpuMs / measuredBlocks),
      catchUp: {
        blocks: catchUpBlocks,
        wallS: round((catchUp1.at - catchUp0.at) / 1000, 1),
        blocksPerSecond: round(catchUpBlocks / ((catchUp1.at - catchUp0.at) / 1000)),
        cpuMsPerBlock:
          catchUp0.follower === null || catchUp1.follower === null ? null : round((catchUp1.follower - catchUp0.follower) / catchUpBlocks),
        databaseCpuMsPerBlock: ((ms) => (ms === null ? null : round(ms / catchUpBlocks)))(
          databaseCpuMsBetween(catchUp0.database, catchUp1.database),
        ),
      },
      devnetCpuMsPerBlock: cpu0.devnet === null || cpu1.devnet === null ? null : round((cpu1.devnet - cpu0.devnet) / measuredBlocks),
    },
    baseline: { readsCpuMsPerBlock: round(readsPerBlock), readsWallMsPerBlock: round(reads!.wallMs! / reads!.blocks!), ...reads },
    ratios: {
      followerCpuPerBlockOverReads: followerPerBlock === null ? null : round(followerPerBlock / readsPerBlock),
      followerAndDatabaseCpuPerBlockOverReads:
        followerPerBlock === null || databaseCpuMs === null
          ? null
          : round((followerPerBlock + databaseCpuMs / measuredBlocks) / readsPerBlock),
      directoryLoadOverRawRead: round(median(directoryRounds.map((r) => r.loadMs! / r.rawMs!))),
      catchUpWallPerBlockOverReads: round((catchUp1.at - catchUp0.at) / catchUpBlocks / (reads!.wallMs! / reads!.blocks!)),
      lookupOverPlainMap: round(median(directoryRounds.map((r) => r.lookupNs! / r.plainMapNs!))),
    },
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/deposits-${Date.now()}.json`, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  if (deposits.length !== expected) throw new Error(`deposits recorded ${deposits.length}, expected ${expected}`);
} finally {
  if (follower) await stopChild(follower);
  await stopChild(devnet);
  await database.close();
  await bench.dispose();
}
