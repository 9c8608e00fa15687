/**
 * The deposits benchmark's measured process (./deposits.ts starts it; its CPU time is read from
 * /proc by pid, so nothing else runs here). One JSON line on stdout per report.
 *
 *   directory  — the same rows read raw in one query (the baseline), then the wallet directory's
 *                full load, in a fresh process (./deposits.ts runs one per round); the heap the
 *                loaded directory holds; a lookup's cost against a plain Map.get.
 *   read F T   — the raw RPC reads the follower makes for blocks F..T (getBlock with its
 *                transactions, one getLogs of the block's ERC-20 Transfers), nothing else: the
 *                CPU-per-block baseline.
 *   follow     — the chain follower on the network with the directory, until SIGTERM.
 *
 * Environment: DATABASE_URL, RPC_URL, NETWORK_CODE, ROUNDS, FOLLOW_INTERVAL_MS.
 */
import { randomUUID } from "node:crypto";
import { getHeapStatistics } from "node:v8";
import { createQuantumPublicClient, ERC20_ABI, type NetworkCode } from "@qc/chain";
import { createChainFollower, createLogger, createServiceDeps, createWalletDirectory, serviceConfig } from "@qc/core";
import { createDatabase } from "@qc/db";
import { trackedAddress, untrackedAddress } from "./deposits-setup";

const mode = process.argv[2];
const databaseUrl = process.env.DATABASE_URL!;
const networkCode = (process.env.NETWORK_CODE ?? "QUANTUM_SANDBOX") as NetworkCode;
const log = createLogger("bench-deposits", "warn");
const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapUsed = () => {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
};

if (mode === "directory") {
  const database = createDatabase({ url: databaseUrl, poolMax: 2, pipelinedReads: 0 });
  const rounds = Number(process.env.ROUNDS ?? 1);
  // The baseline: the directory's rows, read raw by node-postgres in one query, kept as rows.
  const rawText = `select l.id, l.network_code, w.address, l.tenant_id, l.wallet_id, l.created_at
    from wallet_network_links l join wallets w on w.id = l.wallet_id and w.tenant_id = l.tenant_id`;
  for (let round = 0; round < rounds; round++) {
    const rawStarted = performance.now();
    const { rows } = await database.query(rawText);
    const rawMs = performance.now() - rawStarted;

    const before = heapUsed();
    const directory = createWalletDirectory({ db: database.db, databaseUrl, log });
    const started = performance.now();
    await directory.start();
    const loadMs = performance.now() - started;
    const heapBytes = heapUsed() - before;

    // Lookups: 9 in 10 hit (a tracked address), as in the run's transfers.
    const wallets = directory.size();
    const addresses = Array.from({ length: 100_000 }, (_, i) =>
      i % 10 === 9 ? untrackedAddress(i) : trackedAddress((i * 7919) % wallets),
    );
    const lookups = 2_000_000;
    let found = 0;
    const lookupStarted = performance.now();
    for (let i = 0; i < lookups; i++) found += directory.lookup(networkCode, addresses[i % addresses.length]!).length;
    const lookupNs = ((performance.now() - lookupStarted) * 1e6) / lookups;
    // Lookup's baseline: a Map of the same addresses, one get each.
    const plain = new Map(rows.map((row) => [String(row.address), row]));
    let plainFound = 0;
    const plainStarted = performance.now();
    for (let i = 0; i < lookups; i++) if (plain.get(addresses[i % addresses.length]!)) plainFound++;
    const plainNs = ((performance.now() - plainStarted) * 1e6) / lookups;
    await directory.stop();
    report({
      mode,
      round,
      links: wallets,
      rawRows: rows.length,
      rawMs,
      loadMs,
      heapBytes,
      lookupNs,
      plainMapNs: plainNs,
      found,
      plainFound,
    });
  }
  await database.close();
} else if (mode === "read") {
  const [from, to] = [Number(process.argv[3]), Number(process.argv[4])];
  const client = createQuantumPublicClient(networkCode, process.env.RPC_URL!, { retryCount: 0 });
  const transfer = ERC20_ABI.find((item) => item.type === "event" && item.name === "Transfer")!;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const blocks = [];
  for (let number = from; number <= to; number++) {
    const block = await client.getBlock({ blockNumber: BigInt(number), includeTransactions: true });
    blocks.push({ block, logs: await client.getLogs({ blockHash: block.hash!, event: transfer, strict: true }) });
  }
  const cpu = process.cpuUsage(cpuBefore);
  // Not measured: what the run should have recorded (every tracked address starts 0xdd).
  const tracked = (address: string | null | undefined) => address?.toLowerCase().startsWith("0xdd") ?? false;
  let expectedDeposits = 0;
  for (const { block, logs } of blocks) {
    expectedDeposits += block.transactions.filter((tx) => tx.value > 0n && tracked(tx.to)).length;
    expectedDeposits += logs.filter((log) => log.args.value > 0n && tracked(log.args.to)).length;
  }
  const transactions = blocks.reduce((sum, { block }) => sum + block.transactions.length, 0);
  const logs = blocks.reduce((sum, { logs }) => sum + logs.length, 0);
  report({
    mode,
    blocks: to - from + 1,
    transactions,
    logs,
    expectedDeposits,
    wallMs: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
  });
} else if (mode === "follow") {
  const database = createDatabase({ url: databaseUrl });
  const deps = await createServiceDeps({
    database,
    databaseUrl,
    log,
    config: serviceConfig({ rpcUrls: { [networkCode]: [process.env.RPC_URL!] } }),
    role: "web",
  });
  const directory = createWalletDirectory({ db: database.db, databaseUrl, log });
  await directory.start();
  const follower = createChainFollower(deps, {
    networkCode,
    holder: `bench-${randomUUID()}`,
    matcher: directory,
    intervalMs: Number(process.env.FOLLOW_INTERVAL_MS ?? 1000),
  });
  // Ready once the directory is loaded: the first step (the lease; the head as the cursor when
  // there is none; the blocks since the cursor otherwise) is measured.
  report({ mode, ready: true, links: directory.size() });
  follower.start();
  process.once("SIGTERM", () => {
    void (async () => {
      await follower.stop();
      await directory.stop();
      await deps.close();
      await database.close();
      process.exit(0);
    })();
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}
