/**
 * The world the chaos scenarios run in (issue 16 §2): real processes over one real database and
 * one real devnet, a customer-side auto-signer, a webhook receiver, and the end-state checks
 * every scenario ends with. Nothing here is mocked: the daemon and the web server are spawned
 * exactly as `./qc start` spawns them (`node --import tsx <entry>`), configured only by env.
 *
 * Shared by daemon-kill, many-instances, postgres-restart and devnet-faults, which start with
 * startScenario (the customer: tenant, funded sources, webhook sink, auto-signer) and end with
 * finishScenario (the end-state checks and the closing log line): keep the exported API stable.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseQuantumTransaction, signQuantumSigningHash } from "@qc/chain";
import { DEFAULT_RATE_LIMITS, defaultWebhookConfig } from "@qc/core";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, inArray, schema, type Database } from "@qc/db";
import { freePort, useTestDatabase, type TestDatabase } from "@qc/db/testing";
import { useDevnet, type TestDevnet } from "@qc/devnet/testing";
import { TERMINAL_STATUSES } from "@qc/domain";
import { keccak256, type Address, type Hex } from "viem";
import { afterAll, beforeAll, expect } from "vitest";
// The signer's library, as a customer's signer uses it (reached by path: apps/signer exports no
// package entry for @qc/web to depend on; the dashboard test does the same).
import {
  createServiceClient,
  readTransfer,
  ReviewRefusedError,
  ServiceError,
  signerApi,
  verifySigningRequest,
  type Asset,
  type StoredKey,
} from "../../../signer/src/lib";
import { Q } from "../custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "../harness";
import { eventually } from "../identity-helpers";
import {
  fundedSource,
  idempotencyKey,
  nativeTransfer,
  transfersClient,
  type FundedSource,
  type TransfersClient,
} from "../transfers-front-helpers";
import { startReceiver, type ReceivedRequest, type TestReceiver } from "../webhooks-receiver";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const DAEMON_MAIN = fileURLToPath(new URL("../../../daemon/src/main.ts", import.meta.url));
const WEB_MAIN = fileURLToPath(new URL("../../server.ts", import.meta.url));

/** Statuses a transaction never leaves (CONTRACT §6): @qc/domain's, kept exported for the scenarios. */
export { TERMINAL_STATUSES };

// ------------------------------------------------------------------------------ seeds

/** The scenario's seed: `CHAOS_SEED` when set (to replay a failure), else `fallback`; printed. */
export function chaosSeed(scenario: string, fallback: number = Date.now() % 2 ** 31): number {
  const configured = process.env.CHAOS_SEED;
  const seed = configured !== undefined && configured.trim() !== "" ? Number(configured) : fallback;
  if (!Number.isSafeInteger(seed)) throw new Error(`CHAOS_SEED must be an integer, got ${configured}`);
  console.log(`[chaos] ${scenario}: seed ${seed} (replay with CHAOS_SEED=${seed})`);
  return seed;
}

/** The scenario's seed (chaosSeed) and the PRNG seeded with it, which its whole plan is drawn from. */
export function chaosRandom(scenario: string, fallback: number): { seed: number; random: SeededRandom } {
  const seed = chaosSeed(scenario, fallback);
  return { seed, random: seededRandom(seed) };
}

/** mulberry32: a small, fast, seeded PRNG in [0, 1); the same seed gives the same run plan. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    bytes: (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)),
  };
}
export type SeededRandom = ReturnType<typeof seededRandom>;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------------------ processes

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process of the scenario: killable, awaitable, its stderr kept (last 4 KB) for errors. */
export interface ChildHandle {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Resolves when the process has exited, however it ended. */
  exited: Promise<ProcessExit>;
  /** True once it has exited. */
  hasExited(): boolean;
  kill(signal?: NodeJS.Signals): void;
  /** The last 4 KB it wrote to stderr. */
  stderr(): string;
}

const STDERR_TAIL = 4096;

function spawnTsx(name: string, entry: string, env: Record<string, string>): ChildHandle {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return childHandle(name, child);
}

/** The handle of a spawned child whose stderr is a pipe: killable, awaitable, its stderr's tail kept. */
export function childHandle(name: string, child: ChildProcess): ChildHandle {
  // Drained so a chatty child never blocks on a full pipe.
  let tail = "";
  child.stderr!.on("data", (chunk: Buffer) => (tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL)));
  let done = false;
  const exited = new Promise<ProcessExit>((resolve) =>
    child.on("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  return {
    name,
    pid: child.pid ?? -1,
    child,
    exited,
    hasExited: () => done,
    kill: (signal = "SIGKILL") => {
      if (!done) child.kill(signal);
    },
    stderr: () => tail,
  };
}

/** Waits for `ready`, failing with the child's stderr if it dies first or the wait runs out. */
async function untilUp<T>(handle: ChildHandle, ready: () => Promise<T>): Promise<T> {
  const died = handle.exited.then((exit) => {
    throw new Error(`${handle.name} exited (${exit.signal ?? exit.code}) before it was up:\n${handle.stderr()}`);
  });
  died.catch(() => {}); // a later, intended kill is not a failure
  try {
    return await Promise.race([died, ready()]);
  } catch (error) {
    handle.kill("SIGKILL");
    throw error;
  }
}

export interface DaemonProcessOptions {
  databaseUrl: string;
  /** Must be unique per process: heartbeats and job ownership are keyed by it. */
  instanceId: string;
  /** Environment of the service (see ChaosWorld.serviceEnv) plus anything scenario-specific. */
  env: Record<string, string>;
  /** `DAEMON_CRASH_AFTER`: the daemon SIGKILLs itself at that point (apps/daemon/src/crash-points.ts). */
  crashAfter?: "transfers.broadcast:sent";
  /** Wait for its heartbeat row before returning (default true). */
  waitUntilUp?: boolean;
  /** Bound on that wait (default 90 s: tsx compiles the daemon on a loaded machine). */
  upTimeoutMs?: number;
  /** Where to read its heartbeat row from (the test's own pool on the same database). */
  db: Database;
}

export type DaemonProcess = ChildHandle & {
  instanceId: string;
  /** From spawn to its first heartbeat row (undefined when not waited for): the cost of a restart. */
  upMs?: number;
  /** From spawn to the start its heartbeat row records: the part of upMs the daemon itself took. */
  selfUpMs?: number;
};

/** The daemon as production runs it (apps/daemon/src/main.ts), configured only by its environment. */
export async function startDaemonProcess(options: DaemonProcessOptions): Promise<DaemonProcess> {
  const spawnedAt = performance.now();
  const spawnedAtEpoch = Date.now();
  const handle = spawnTsx(`daemon ${options.instanceId}`, DAEMON_MAIN, {
    ...options.env,
    DATABASE_URL: options.databaseUrl,
    DAEMON_INSTANCE_ID: options.instanceId,
    ...(options.crashAfter ? { DAEMON_CRASH_AFTER: options.crashAfter } : {}),
  });
  const daemon: DaemonProcess = { ...handle, instanceId: options.instanceId };
  if (options.waitUntilUp === false) return daemon;
  const heartbeat = await untilUp(handle, () =>
    eventually(
      async () =>
        (await options.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, options.instanceId)))[0],
      options.upTimeoutMs ?? 90_000,
      100,
    ),
  );
  daemon.upMs = performance.now() - spawnedAt;
  daemon.selfUpMs = heartbeat.startedAt.getTime() - spawnedAtEpoch;
  return daemon;
}

/**
 * What the test helpers need to call a web server (`call`, `client`, `transfersClient` read only
 * these fields), whether it runs in this process or in a child.
 */
export type WebEndpoint = Pick<TestServer, "httpsPort" | "httpPort" | "tls">;
/** A web endpoint typed for the shared helpers (they take `() => TestServer` but read only WebEndpoint's fields). */
export const asTestServer = (endpoint: WebEndpoint) => endpoint as TestServer;

export type WebProcess = ChildHandle & { endpoint: WebEndpoint; url: string };

export interface WebProcessOptions {
  databaseUrl: string;
  name: string;
  env: Record<string, string>;
  /** The certificate the process serves (ChaosWorld writes one under its work dir). */
  tls: { certFile: string; keyFile: string; cert: string };
  upTimeoutMs?: number;
}

/**
 * The web process as `./qc start` runs it (apps/web/server.ts), API only (WEB_DASHBOARD=false:
 * the chaos scenarios exercise /v1, not the pages), on free ports, up once /healthz answers.
 */
export async function startWebProcess(options: WebProcessOptions): Promise<WebProcess> {
  const httpsPort = await freePort();
  const httpPort = await freePort();
  const handle = spawnTsx(`web ${options.name}`, WEB_MAIN, {
    ...options.env,
    DATABASE_URL: options.databaseUrl,
    HOST: "127.0.0.1",
    HTTPS_PORT: String(httpsPort),
    HTTP_PORT: String(httpPort),
    PUBLIC_URL: `https://localhost:${httpsPort}`,
    TLS_CERT_FILE: options.tls.certFile,
    TLS_KEY_FILE: options.tls.keyFile,
    WEB_DASHBOARD: "false",
  });
  const endpoint: WebEndpoint = { httpsPort, httpPort, tls: { cert: options.tls.cert, key: "", selfSigned: true } };
  await untilUp(handle, () => eventually(() => healthy(httpsPort, options.tls.cert), options.upTimeoutMs ?? 90_000, 200));
  return { ...handle, endpoint, url: `https://127.0.0.1:${httpsPort}` };
}

function healthy(port: number, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpsRequest({ host: "127.0.0.1", port, path: "/healthz", ca, servername: "localhost", timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

// ------------------------------------------------------------------------------ the world

export interface ChaosWorld {
  database: TestDatabase;
  devnet: TestDevnet;
  /** DATA_DIR of every child process (TLS certificate, receiver CA). */
  work: string;
  receiver: TestReceiver;
  /** Raw transactions the devnet was asked to admit, in order (its view of eth_sendRawTransaction). */
  broadcasts: BroadcastRecord[];
  /** The environment web and daemon processes share (RPC URL, webhook key, receiver CA, pepper). */
  serviceEnv(): Record<string, string>;
  /** The same configuration for an in-process server (startTestServer's `config`). */
  serviceConfig(): NonNullable<Parameters<typeof startTestServer>[0]["config"]>;
  /** A daemon process; `env` adds to (or overrides) the service environment. */
  startDaemon(
    instanceId: string,
    options?: Partial<Omit<DaemonProcessOptions, "db" | "instanceId" | "databaseUrl">>,
  ): Promise<DaemonProcess>;
  /** A web process (apps/web/server.ts) on this database. */
  startWeb(name: string, options?: { env?: Record<string, string> }): Promise<WebProcess>;
  /** An in-process web server (own deps and pool) on this database, rate limits raised for load. */
  startInProcessWeb(): Promise<TestServer>;
  /** Every child started through the world; all are SIGKILLed when the file ends. */
  children: ChildHandle[];
  /** Its database, devnet and receiver: what startScenario runs on. */
  ground: ScenarioGround;
}

export interface ChaosWorldOptions {
  /** Devnet options; the scenarios use interval blocks (e.g. `blockTimeMs: 250`). */
  devnet?: Parameters<typeof useDevnet>[0];
  /** Per-tenant rate limit of every web server (default 5,000/s: load, not the limiter, is under test). */
  rateLimitPerSecond?: number;
}

/**
 * Vitest: registers the file's database, devnet and webhook receiver (call at module level) and
 * returns the world's getter for use inside tests. Every child still running at the end is killed.
 */
export function useChaosWorld(options: ChaosWorldOptions = {}): () => ChaosWorld {
  const database = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 250, ...options.devnet });
  const rate = options.rateLimitPerSecond ?? 5_000;
  let world: ChaosWorld | undefined;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), "qc-chaos-"));
    const receiver = await startReceiver();
    const receiverCa = join(work, "receiver-ca.pem");
    writeFileSync(receiverCa, receiver.certificate);
    const tls = await writeServerCertificate(work);
    const webhookKey = randomBytes(32);
    const broadcasts = recordBroadcasts(devnet());
    const children: ChildHandle[] = [];
    const serviceEnv = () => ({
      ...serviceEnvironment({ dataDir: work, devnetUrl: devnet().url, webhookKey, receiverCaFile: receiverCa, logLevel: "warn" }),
      RATE_LIMIT_PER_SECOND: String(rate),
      RATE_LIMIT_BURST: String(rate),
    });
    world = {
      database,
      devnet: devnet(),
      work,
      receiver,
      broadcasts,
      children,
      ground: { db: database.db, devnet: devnet(), receiver },
      serviceEnv,
      serviceConfig: () => ({
        rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
        webhooks: {
          ...defaultWebhookConfig(),
          allowPrivateUrls: true,
          secretKeys: { current: webhookKey, previous: [] },
          sweepIntervalMs: 500,
        },
      }),
      async startDaemon(instanceId, extra = {}) {
        const daemon = await startDaemonProcess({
          ...extra,
          env: { ...serviceEnv(), ...extra.env },
          databaseUrl: database.url,
          instanceId,
          db: database.db,
        });
        children.push(daemon);
        return daemon;
      },
      async startWeb(name, extra = {}) {
        const web = await startWebProcess({ databaseUrl: database.url, name, env: { ...serviceEnv(), ...extra.env }, tls });
        children.push(web);
        return web;
      },
      async startInProcessWeb() {
        const server = await startTestServer({
          database,
          config: world!.serviceConfig(),
          rateLimits: { ...DEFAULT_RATE_LIMITS, tenantPerSecond: rate, tenantBurstExtra: rate },
        });
        servers.push(server);
        return server;
      },
    };
  });

  afterAll(async () => {
    if (!world) return;
    for (const child of world.children) child.kill("SIGKILL");
    await Promise.all(world.children.map((child) => child.exited));
    for (const server of servers) await server.close().catch(() => {});
    await world.receiver.close();
  });

  return () => {
    if (!world) throw new Error("useChaosWorld(): the world starts in beforeAll; call the getter inside a test");
    return world;
  };
}

export interface ServiceEnvironmentOptions {
  /** DATA_DIR of the process (TLS certificate, generated secrets). */
  dataDir: string;
  devnetUrl: string;
  /** WEBHOOK_SECRET_KEY: 32 bytes. */
  webhookKey: Buffer;
  /** The webhook receiver's certificate (PEM file). */
  receiverCaFile: string;
  /** LOG_LEVEL unless CHAOS_LOG_LEVEL is set. */
  logLevel: string;
}

/**
 * The environment a scenario's web and daemon processes share: development mode (for private
 * webhook URLs and the sandbox KYC), the devnet, the test pepper, the webhook key, private webhook
 * URLs allowed, the receiver's certificate trusted.
 */
export function serviceEnvironment(options: ServiceEnvironmentOptions): Record<string, string> {
  return {
    QC_DEV_MODE: "true",
    DATA_DIR: options.dataDir,
    LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? options.logLevel,
    QUANTUM_SANDBOX_RPC_URL: options.devnetUrl,
    API_KEY_PEPPER: TEST_PEPPER.toString("hex"),
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_SECRET_KEY: options.webhookKey.toString("hex"),
    // WEBHOOK_DELIVERY_TIMEOUT_MS stays at the contract's 15 s attempt limit: on a loaded machine a
    // shorter one turns slow answers into retries scheduled minutes later (CONTRACT §7), which no
    // bounded scenario can wait for.
    WEBHOOK_SWEEP_INTERVAL_MS: "500",
    // The receiver's self-signed certificate, trusted the way an operator adds a private CA.
    NODE_EXTRA_CA_CERTS: options.receiverCaFile,
  };
}

/** The development certificate every web process of the world serves (written once, shared). */
async function writeServerCertificate(work: string) {
  const { loadTlsMaterial } = await import("../../src/tls");
  const material = await loadTlsMaterial({ dataDir: work });
  return { certFile: join(work, "tls", "localhost-cert.pem"), keyFile: join(work, "tls", "localhost-key.pem"), cert: material.cert };
}

// ------------------------------------------------------------------------------ the chain's view

/** One `eth_sendRawTransaction` the devnet received (admitted or not). */
export interface BroadcastRecord {
  hash: Hex;
  from: Address;
  nonce: number;
  /** The node's answer: admitted, or the error it gave. */
  outcome: "admitted" | string;
}

/**
 * Records every raw transaction the devnet's RPC hands to its node, decoded to (sender, nonce,
 * hash): the chain's own view of what was broadcast, independent of the service's database.
 */
export function recordBroadcasts(devnet: TestDevnet): BroadcastRecord[] {
  const records: BroadcastRecord[] = [];
  const node = devnet.node;
  const admit = node.submitRawTransaction.bind(node);
  node.submitRawTransaction = async (raw: Hex) => {
    const record = decodeBroadcast(raw);
    try {
      const hash = await admit(raw);
      records.push({ ...record, outcome: "admitted" });
      return hash;
    } catch (error) {
      records.push({ ...record, outcome: (error as Error).message.slice(0, 200) });
      throw error;
    }
  };
  return records;
}

function decodeBroadcast(raw: Hex): Omit<BroadcastRecord, "outcome"> {
  const hash = keccak256(raw);
  try {
    const tx = parseQuantumTransaction(raw);
    return { hash, from: ("from" in tx ? tx.from.toLowerCase() : "0x") as Address, nonce: Number(tx.nonce) };
  } catch {
    return { hash, from: "0x" as Address, nonce: -1 };
  }
}

/** (source, nonce) pairs the devnet was asked to admit under more than one transaction hash. */
export function conflictingBroadcasts(records: readonly BroadcastRecord[]): { from: Address; nonce: number; hashes: Hex[] }[] {
  const byPair = new Map<string, Set<Hex>>();
  for (const record of records) {
    const key = `${record.from}:${record.nonce}`;
    byPair.set(key, (byPair.get(key) ?? new Set()).add(record.hash));
  }
  return [...byPair]
    .filter(([, hashes]) => hashes.size > 1)
    .map(([key, hashes]) => {
      const [from, nonce] = key.split(":");
      return { from: from as Address, nonce: Number(nonce), hashes: [...hashes] };
    });
}

// ------------------------------------------------------------------------------ customers

export interface ChaosSource extends FundedSource {
  /** Qwei put on the wallet by devnet_fund. */
  funded: bigint;
}

/**
 * `count` funded source wallets of ONE tenant (each with its enrolled signer key), created with
 * the shared `fundedSource` helper; one tenant lets one signer and one webhook endpoint serve
 * them all.
 */
export async function fundedSources(
  server: () => TestServer,
  db: Database,
  devnet: TestDevnet,
  count: number,
  funds: bigint,
  options: { tenant?: TenantFixture } = {},
): Promise<ChaosSource[]> {
  const tenant = options.tenant ?? (await createTenantFixture({ db, pepper: TEST_PEPPER }));
  const sources: ChaosSource[] = [];
  for (let i = 0; i < count; i += 1) sources.push({ ...(await fundedSource(server, db, devnet, funds, { tenant })), funded: funds });
  return sources;
}

/** Fresh destination addresses (no balance, no history) from the scenario's PRNG. */
export function destinations(random: SeededRandom, count: number): Address[] {
  return Array.from({ length: count }, () => `0x${Buffer.from(random.bytes(20)).toString("hex")}` as Address);
}

export interface PlannedTransfer {
  /** A native transfer's create body. */
  body: ReturnType<typeof nativeTransfer>;
  /** The pause after sending it. */
  pauseMs: number;
}

/**
 * `count` native transfers round-robin over the sources, each to one of five fresh destinations,
 * 1–1,000,000 Gwei, with a pause after it in `pauseMs` (inclusive): all drawn from the PRNG, in an
 * order a replay (CHAOS_SEED) depends on.
 */
export function transferPlan(
  sources: ChaosSource[],
  random: SeededRandom,
  count: number,
  pauseMs: [min: number, max: number],
): PlannedTransfer[] {
  const targets = destinations(random, 5);
  return Array.from({ length: count }, (_, i) => {
    const source = sources[i % sources.length]!;
    const to = random.pick(targets);
    const amount = BigInt(random.int(1, 1_000_000)) * 10n ** 9n;
    return { body: nativeTransfer(source, amount, { destinationAddress: to }), pauseMs: random.int(...pauseMs) };
  });
}

/**
 * One create, retried with the same idempotency key (made with `prefix`) on a transport error, a
 * 5xx or a 409 (the first still running), a bounded number of times.
 */
export async function createOnce(api: TransfersClient, body: unknown, prefix: string): Promise<string> {
  const key = idempotencyKey(prefix);
  let last = "";
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      const res = await api.createTransfer(body, key);
      if (res.status === 201) return res.json().id;
      last = `${res.status} ${res.text}`;
      if (res.status < 500 && res.status !== 409) throw new Error(`create refused: ${last}`);
    } catch (error) {
      if (String(error).includes("create refused")) throw error;
      last = String(error);
    }
    await sleep(250);
  }
  throw new Error(`create never answered 201: ${last}`);
}

// ------------------------------------------------------------------------------ the signer

export interface AutoSigner {
  /** Transactions it signed and the service accepted. */
  signed: Set<string>;
  /** Refusals to sign (the rebuilt transaction differed): always a test failure. */
  refusals: string[];
  /** Transport errors and 5xx it rode out (retried). */
  transientErrors: number;
  /** Set when it gave up (too many consecutive failures). */
  fatal: Error | undefined;
  stop(): Promise<void>;
}

export interface AutoSignerOptions {
  /** The web servers to call, used in turn (a dead one is just a transient error). */
  endpoints: () => WebEndpoint[];
  tenant: TenantFixture;
  /** The signer keys of the sources it signs for. */
  keys: FundedSource["key"][];
  pollIntervalMs?: number;
  /** Consecutive failed polls before it gives up (default 1,200 ≈ 2 min at the default interval). */
  maxConsecutiveFailures?: number;
}

/**
 * The customer's signer, automated: polls `GET /v1/signer/transactions?status=PENDING_SIGNATURE`,
 * rebuilds and compares every signing request with the reference signer's library
 * (`readTransfer` + `verifySigningRequest`), signs the hash it computed itself with ML-DSA-87
 * (`signQuantumSigningHash`: the fixtures hold secret keys, not the seeds `signTransfer` derives
 * them from) and submits it. 5xx and connection errors are retried, boundedly.
 */
export function startAutoSigner(options: AutoSignerOptions): AutoSigner {
  const interval = options.pollIntervalMs ?? 100;
  const maxFailures = options.maxConsecutiveFailures ?? 1_200;
  const secretKeys = new Map(options.keys.map((key) => [key.address.toLowerCase(), key]));
  const storedKey = (address: Address): StoredKey | undefined => {
    const key = secretKeys.get(address.toLowerCase());
    // readTransfer only looks a key up by address; the seed is never read on this path.
    return key
      ? ({ address: key.address.toLowerCase(), publicKey: key.publicKey, tenantId: options.tenant.tenantId } as StoredKey)
      : undefined;
  };
  const apiKey = `${options.tenant.keyId}:${options.tenant.secret}`;
  const state: AutoSigner = { signed: new Set(), refusals: [], transientErrors: 0, fatal: undefined, stop: async () => {} };
  let running = true;
  let turn = 0;
  let assets: Asset[] | undefined;

  const signOnce = async () => {
    const endpoints = options.endpoints();
    const endpoint = endpoints[turn++ % endpoints.length]!;
    const api = signerApi(
      createServiceClient({ url: `https://127.0.0.1:${endpoint.httpsPort}`, apiKey, ca: endpoint.tls.cert, timeoutMs: 10_000 }),
    );
    assets ??= await api.assets("QUANTUM_SANDBOX");
    const { transactions } = await api.pendingTransactions();
    for (const transaction of transactions) {
      if (!running) return;
      let verified;
      try {
        verified = verifySigningRequest(readTransfer({ transaction, assets, findKey: storedKey }));
      } catch (error) {
        if (!(error instanceof ReviewRefusedError)) throw error;
        state.refusals.push(`${transaction.id}: ${error.message}`);
        continue;
      }
      const key = secretKeys.get(verified.sourceAddress)!;
      const signature = signQuantumSigningHash({ signingHash: verified.signingHash, secretKey: key.secretKey });
      try {
        await api.submitSignature(verified.id, signature);
        state.signed.add(verified.id);
      } catch (error) {
        // Signed meanwhile through another pass (or cancelled): the state moved on, nothing to do.
        if (error instanceof ServiceError && error.error === "INVALID_TRANSACTION_STATE") continue;
        throw error;
      }
    }
  };

  const loop = (async () => {
    let failures = 0;
    while (running) {
      try {
        await signOnce();
        failures = 0;
      } catch (error) {
        if (error instanceof ServiceError && error.status < 500 && error.status !== 429) {
          state.fatal = error;
          return;
        }
        state.transientErrors += 1;
        failures += 1;
        if (failures >= maxFailures) {
          state.fatal = new Error(`auto-signer gave up after ${failures} consecutive failures: ${String(error)}`);
          return;
        }
      }
      await sleep(interval);
    }
  })();

  state.stop = async () => {
    running = false;
    await loop;
  };
  return state;
}

// ------------------------------------------------------------------------------ webhooks

export interface WebhookSink {
  endpointId: string;
  /** Every request the receiver got on this sink's path. */
  requests(): ReceivedRequest[];
  /** The same, grouped by `webhook-id`. */
  byWebhookId(): Map<string, ReceivedRequest[]>;
}

/** Subscribes the tenant to every event, delivered to the world's receiver on its own path. */
export async function startWebhookSink(
  server: () => TestServer,
  tenant: TenantFixture,
  receiver: TestReceiver,
  path = "/chaos",
): Promise<WebhookSink> {
  const api = transfersClient(server, tenant.authorization);
  const created = await api.post("/v1/webhooks", { url: receiver.url(path) });
  expect(created.status, created.text).toBe(201);
  const requests = () => receiver.received.filter((request) => request.path === path);
  return {
    endpointId: created.json().id,
    requests,
    byWebhookId() {
      const grouped = new Map<string, ReceivedRequest[]>();
      for (const request of requests()) {
        const id = String(request.headers["webhook-id"]);
        grouped.set(id, [...(grouped.get(id) ?? []), request]);
      }
      return grouped;
    },
  };
}

// ------------------------------------------------------------------------------ a scenario's start and close

/** What a scenario runs on: the world's database, devnet and receiver, or postgres-restart's own cluster. */
export interface ScenarioGround {
  db: Database;
  devnet: TestDevnet;
  receiver: TestReceiver;
}

export interface ScenarioOptions {
  /** As the log lines name it (`[chaos] <name>: …`). */
  name: string;
  /** The web server the customer is set up through (tenant, wallets, signer keys, webhook endpoint). */
  server: () => TestServer;
  /** Funded source wallets of the one tenant. */
  sources: number;
  /** Qwei put on each source (default 1,000 Q: far more than a scenario's transfers spend). */
  funds?: bigint;
  /** The web servers the auto-signer calls, in turn. */
  signerEndpoints: () => WebEndpoint[];
  signerPollIntervalMs?: number;
}

/** A scenario under way: its customer (one tenant, its sources, webhook sink and auto-signer), its progress log and clock. */
export interface ChaosScenario {
  name: string;
  ground: ScenarioGround;
  sources: ChaosSource[];
  tenant: TenantFixture;
  sink: WebhookSink;
  signer: AutoSigner;
  /** Whole seconds since the scenario started (the load begins then). */
  seconds(): number;
  /** Notes a moment of the run for the closing log line's timeline. */
  mark(what: string): void;
  /** The moments noted so far, in ms since the start. */
  timeline: Record<string, number>;
  /** Ends the progress log (finishScenario does). */
  stopProgress(): void;
}

/**
 * The start every scenario shares, once its processes are up: funded sources of one tenant, a
 * webhook endpoint for every event on the receiver, the customer's auto-signer, the progress log
 * and the scenario's clock. The load is the scenario's own.
 */
export async function startScenario(ground: ScenarioGround, options: ScenarioOptions): Promise<ChaosScenario> {
  const { db, devnet, receiver } = ground;
  const sources = await fundedSources(options.server, db, devnet, options.sources, options.funds ?? 1_000n * Q);
  const tenant = sources[0]!.tenant;
  const sink = await startWebhookSink(options.server, tenant, receiver);
  const signer = startAutoSigner({
    endpoints: options.signerEndpoints,
    tenant,
    keys: sources.map((source) => source.key),
    pollIntervalMs: options.signerPollIntervalMs,
  });
  const stopProgress = logProgress(options.name, db, [tenant.tenantId], sink);
  const started = performance.now();
  const sinceStart = () => performance.now() - started;
  const timeline: Record<string, number> = {};
  return {
    name: options.name,
    ground,
    sources,
    tenant,
    sink,
    signer,
    seconds: () => Math.round(sinceStart() / 1000),
    mark: (what) => void (timeline[what] = Math.round(sinceStart())),
    timeline,
    stopProgress,
  };
}

export interface FinishScenarioOptions {
  /** Transactions the scenario got a 201 for. */
  createdIds: string[];
  /** How many transactions the tenant holds in the end: none beyond the created ones. */
  transactions: number;
  /** End statuses allowed besides COMPLETED (the scenario checks their reasons); without, every transaction ends COMPLETED. */
  alsoAllowed?: readonly string[];
  /** Bound on the wait for everything to settle and be delivered. */
  timeoutMs: number;
  /** The scenario's own figures for the closing log line, read once everything has settled. */
  figures?: () => Record<string, unknown>;
}

/**
 * The close every scenario shares: the end-state checks (expectEndState) on its tenant, the
 * progress log and the auto-signer stopped, the signer having never refused a signing request nor
 * given up, the closing log line, and the count: exactly `transactions`, every one COMPLETED unless
 * other end statuses are allowed. Returns the report for the scenario's own checks.
 */
export async function finishScenario(scenario: ChaosScenario, options: FinishScenarioOptions): Promise<EndStateReport> {
  const { ground, signer } = scenario;
  const allowed = ["COMPLETED", ...(options.alsoAllowed ?? [])];
  const report = await expectEndState({
    db: ground.db,
    devnet: ground.devnet,
    tenantIds: [scenario.tenant.tenantId],
    sources: scenario.sources,
    createdIds: options.createdIds,
    allowed,
    sink: scenario.sink,
    timeoutMs: options.timeoutMs,
  });
  scenario.mark("end state checked");
  scenario.stopProgress();
  await signer.stop();
  expect(signer.refusals).toEqual([]);
  expect(signer.fatal).toBeUndefined();
  console.log(
    `[chaos] ${scenario.name}: settled after ${scenario.seconds()} s`,
    JSON.stringify({
      ...report,
      fees: String(report.fees),
      ...options.figures?.(),
      signerRetries: signer.transientErrors,
      timeline: scenario.timeline,
    }),
  );
  expect(report.transactions, "no transaction beyond the created ones").toBe(options.transactions);
  if (!options.alsoAllowed?.length) expect(report.byStatus).toEqual({ COMPLETED: options.transactions });
  return report;
}

// ------------------------------------------------------------------------------ end state

export interface EndStateOptions {
  db: Database;
  devnet: TestDevnet;
  tenantIds: string[];
  sources: ChaosSource[];
  /** Transactions the scenario got a 201 for: each must exist and end in an allowed status. */
  createdIds: string[];
  /** Allowed end statuses (default COMPLETED only). */
  allowed?: readonly string[];
  sink: WebhookSink;
  /** Bound on the wait for every transaction to settle and every event to be delivered. */
  timeoutMs?: number;
}

export interface EndStateReport {
  transactions: number;
  byStatus: Record<string, number>;
  mined: number;
  fees: bigint;
  events: number;
  deliveries: number;
  duplicateDeliveries: number;
}

type TransactionRow = typeof schema.transactions.$inferSelect;

/**
 * The checks every scenario ends with: nothing left non-terminal, every created transfer in an
 * allowed end state, each on chain exactly once (account nonces, one mined transaction per
 * COMPLETED row and none besides), balances conserved to the Qwei (fees from receipts), and every
 * `transaction.status_changed` event delivered at least once, repeats only with the same
 * `webhook-id` and identical bytes.
 */
export async function expectEndState(options: EndStateOptions): Promise<EndStateReport> {
  const allowed = options.allowed ?? ["COMPLETED"];
  const timeoutMs = options.timeoutMs ?? 90_000;
  const deadline = performance.now() + timeoutMs;
  const remaining = () => Math.max(1_000, deadline - performance.now());

  // 1. Everything settles (bounded): no transaction left in a non-terminal status.
  const rows = await eventually(
    async () => {
      const all = await options.db.select().from(schema.transactions).where(inArray(schema.transactions.tenantId, options.tenantIds));
      return all.every((row) => (TERMINAL_STATUSES as readonly string[]).includes(row.status)) ? all : undefined;
    },
    remaining(),
    250,
  ).catch(async (error: unknown) => {
    const stuck = (
      await options.db.select().from(schema.transactions).where(inArray(schema.transactions.tenantId, options.tenantIds))
    ).filter((row) => !(TERMINAL_STATUSES as readonly string[]).includes(row.status));
    const sample = stuck
      .slice(0, 5)
      .map((row) => `${row.id} ${row.status} nonce=${row.nonce} hash=${row.chainTxHash} updated=${row.updatedAt.toISOString()}`);
    throw new Error(
      `${stuck.length} transactions still not terminal: ${JSON.stringify(await statusCounts(options.db, options.tenantIds))}; e.g. ${sample.join("; ")} (${String(error)})`,
    );
  });
  const byStatus = countBy(rows, (row) => (row.subStatus ? `${row.status}/${row.subStatus}` : row.status));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of options.createdIds) {
    const row = byId.get(id);
    expect(row, `transaction ${id} got a 201 but is not in the database`).toBeDefined();
    expect(allowed, `transaction ${id} ended ${row!.status}/${row!.subStatus ?? ""}: ${row!.statusReason ?? ""}`).toContain(row!.status);
  }
  for (const row of rows)
    expect(allowed, `transaction ${row.id} ended ${row.status}/${row.subStatus ?? ""}: ${row.statusReason ?? ""}`).toContain(row.status);

  // 2. On chain exactly once, and 3. balances conserved to the Qwei.
  const chain = await expectOnChainExactlyOnce(options.devnet, options.sources, rows);

  // 4. Every status event delivered at least once; repeats identical and under the same id.
  const events = await options.db
    .select({ id: schema.eventOutbox.id })
    .from(schema.eventOutbox)
    .where(and(inArray(schema.eventOutbox.tenantId, options.tenantIds), eq(schema.eventOutbox.type, "transaction.status_changed")));
  const delivered = await eventually(
    async () => {
      const grouped = options.sink.byWebhookId();
      return events.every((event) => grouped.has(event.id)) ? grouped : undefined;
    },
    remaining(),
    250,
  ).catch(async (error: unknown) => {
    const grouped = options.sink.byWebhookId();
    const missing = events.filter((event) => !grouped.has(event.id)).map((event) => event.id);
    const deliveries = missing.length
      ? await options.db
          .select()
          .from(schema.webhookDeliveries)
          .where(inArray(schema.webhookDeliveries.eventId, missing.slice(0, 5)))
      : [];
    const states = deliveries.map(
      (d) =>
        `${d.eventId}: ${d.status} attempts=${d.attemptCount} last=${d.lastStatusCode ?? d.lastError ?? "-"} next=${d.nextAttemptAt?.toISOString() ?? "-"}`,
    );
    throw new Error(
      `${missing.length} of ${events.length} status events never reached the receiver; deliveries of the first: ${states.join("; ") || "none created"} (${String(error)})`,
    );
  });
  let duplicateDeliveries = 0;
  for (const [webhookId, copies] of delivered) {
    for (const copy of copies) {
      expect(copy.json.id, "the body's id is the webhook-id").toBe(webhookId);
      expect(copy.body.equals(copies[0]!.body), `copies of ${webhookId} differ`).toBe(true);
    }
    duplicateDeliveries += copies.length - 1;
  }
  return {
    transactions: rows.length,
    byStatus,
    mined: chain.mined,
    fees: chain.fees,
    events: events.length,
    deliveries: options.sink.requests().length,
    duplicateDeliveries,
  };
}

/**
 * Logs the scenario's progress every `everyMs` (status counts, events delivered): a chaos run that
 * times out must say where it stood. Returns the stop function.
 */
export function logProgress(scenario: string, db: Database, tenantIds: string[], sink: WebhookSink, everyMs = 10_000): () => void {
  const started = performance.now();
  const timer = setInterval(() => {
    void statusCounts(db, tenantIds)
      .then((counts) => {
        const seconds = Math.round((performance.now() - started) / 1000);
        console.log(`[chaos] ${scenario} +${seconds}s: ${JSON.stringify(counts)}; webhook ids received ${sink.byWebhookId().size}`);
      })
      .catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Statuses counted, for a failure message. */
export async function statusCounts(db: Database, tenantIds: string[]): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: schema.transactions.status })
    .from(schema.transactions)
    .where(inArray(schema.transactions.tenantId, tenantIds));
  return countBy(rows, (row) => row.status);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** Mined on the devnet: a COMPLETED transaction (a transfer, a NONCE_FILL…), or one that reverted there. */
export const minedOnChain = (row: TransactionRow) =>
  row.status === "COMPLETED" || (row.status === "FAILED" && row.subStatus === "REVERTED_ON_CHAIN");

/**
 * The chain's view of the sources against the rows: every hash mined once and exactly the recorded
 * ones; each source's account nonce equal to its mined rows, their nonces 0..n-1; its balance
 * funded − amounts − fees (gasUsed × effectiveGasPrice from the receipts), to the Qwei; every
 * destination holding exactly what was sent to it. A self-send (a NONCE_FILL, a cancellation:
 * CONTRACT §17) moves no value and costs only its fee.
 */
export async function expectOnChainExactlyOnce(
  devnet: TestDevnet,
  sources: { wallet: { id: string; address: Address }; funded: bigint }[],
  rows: TransactionRow[],
) {
  const client = devnet.publicClient();
  // Every transaction mined from our sources, read block by block from the canonical chain.
  const sourceAddresses = new Set(sources.map((source) => source.wallet.address.toLowerCase()));
  const minedHashes = new Map<string, number>();
  for (const block of devnet.node.blockRange(0n, devnet.node.head().number)) {
    for (const tx of block.transactions) {
      if (!sourceAddresses.has(tx.from.toLowerCase())) continue;
      minedHashes.set(tx.hash.toLowerCase(), (minedHashes.get(tx.hash.toLowerCase()) ?? 0) + 1);
    }
  }
  for (const [hash, times] of minedHashes) expect(times, `${hash} mined ${times} times`).toBe(1);

  const expectedHashes = rows.filter(minedOnChain).map((row) => row.chainTxHash?.toLowerCase());
  for (const hash of expectedHashes) expect(hash, "a mined transaction has its hash recorded").toMatch(/^0x[0-9a-f]{64}$/);
  expect(new Set(expectedHashes).size, "no two transactions share a hash").toBe(expectedHashes.length);
  // Exactly the recorded ones are on chain: nothing missing, nothing broadcast twice under another hash.
  expect([...minedHashes.keys()].sort()).toEqual([...(expectedHashes as string[])].sort());

  const destinationTotals = new Map<string, bigint>();
  let fees = 0n;
  for (const source of sources) {
    const own = rows.filter((row) => row.sourceWalletId === source.wallet.id && minedOnChain(row));
    const nonce = await client.getTransactionCount({ address: source.wallet.address, blockTag: "latest" });
    expect(nonce, `account nonce of ${source.wallet.address}`).toBe(own.length);
    expect(
      own.map((row) => row.nonce).sort((a, b) => a! - b!),
      `nonces of ${source.wallet.address}`,
    ).toEqual(own.map((_, i) => i));
    let spent = 0n;
    for (const row of own) {
      const receipt = await client.getTransactionReceipt({ hash: row.chainTxHash as Hex });
      const fee = receipt.gasUsed * receipt.effectiveGasPrice;
      fees += fee;
      spent += fee;
      if (row.status === "COMPLETED") {
        expect(receipt.status, `${row.id} succeeded on chain`).toBe("success");
        expect(Number(receipt.blockNumber), `${row.id} recorded in its block`).toBe(row.blockNumber);
        const to = row.destinationAddress!.toLowerCase();
        if (to === source.wallet.address.toLowerCase()) {
          expect(BigInt(row.amount), `${row.id}: a self-send moves no value`).toBe(0n);
          continue;
        }
        spent += BigInt(row.amount);
        destinationTotals.set(to, (destinationTotals.get(to) ?? 0n) + BigInt(row.amount));
      }
    }
    const balance = await client.getBalance({ address: source.wallet.address, blockTag: "latest" });
    expect(balance, `balance of ${source.wallet.address}: funded ${source.funded} − amounts − fees`).toBe(source.funded - spent);
  }
  for (const [to, total] of destinationTotals) {
    expect(await client.getBalance({ address: to as Address, blockTag: "latest" }), `balance of destination ${to}`).toBe(total);
  }
  return { mined: minedHashes.size, fees };
}
