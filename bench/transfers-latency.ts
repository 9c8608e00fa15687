/**
 * Transfer latency (issue 10): from the signer's signature submission to BROADCASTING and to
 * COMPLETED, p50/p95 over BENCH_TRANSFERS transfers, next to the devnet's block time measured in
 * the same run (the floor: a transfer is mined in the next block and needs 2 confirmations on the
 * sandbox network, so about 1.5 block times). The web server, the daemon and the devnet (1 s
 * blocks) each run as their own process, as `./qc start` runs them; everything on loopback.
 *
 *   ./qc exec tsx bench/transfers-latency.ts                          # 200 transfers, 20 sources
 *   BENCH_TRANSFERS=60 BENCH_SOURCES=20 ./qc exec tsx bench/transfers-latency.ts
 *
 * Each source wallet has one transfer in flight at a time (the nonce design), so BENCH_SOURCES is
 * also how many signatures are outstanding at once. Transfers are created and released first
 * (not measured); then each source signs its transfers in turn as they are released. Start =
 * just before the signature POST; the ends are the status-history rows the daemon writes
 * (same host clock). Bounded: gives up after BENCH_DEADLINE_SECONDS (default 170).
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL.
 * Writes bench/results/transfers-latency-<time>.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { createApiKey } from "@qc/core";
import { createDatabase, inArray, schema, sql } from "@qc/db";
import { generate } from "selfsigned";
import { addressFromPublicKey, generateKeyPair, signOwnershipProof, signQuantumSigningHash } from "../packages/chain/src/index";
import { benchDatabase, freePort } from "./database";
import { stopChild, stopOnSignal } from "./stop-on-signal";

const root = resolve(import.meta.dirname, "..");
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 200);
const SOURCES = Math.min(Number(process.env.BENCH_SOURCES ?? 20), TRANSFERS);
const BLOCK_TIME_MS = 1000;
const DEADLINE = Date.now() + Number(process.env.BENCH_DEADLINE_SECONDS ?? 170) * 1000;
const Q = 10n ** 18n;
process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0"; // loopback, our own self-signed certificate

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Math.round(n);
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
function checkDeadline(what: string) {
  if (Date.now() > DEADLINE) throw new Error(`deadline passed while ${what}; lower BENCH_TRANSFERS`);
}

function start(args: string[], env: NodeJS.ProcessEnv, readyWhen: RegExp, cwd = root): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    stopOnSignal(() => stopChild(child));
    let output = "";
    const onData = (c: Buffer) => {
      output += c.toString();
      if (readyWhen.test(output)) done({ child, output: () => output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => fail(new Error(`${args[0]} exited ${code}: ${output.slice(-2000)}`)));
  });
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

const bench = await benchDatabase("qc-bench-transfers-latency");
const children: ChildProcess[] = [];
let stopBlockWatch = false;
try {
  const databaseUrl = bench.url;
  const work = bench.work;
  const pepper = randomBytes(32);
  const database = createDatabase({ url: databaseUrl });
  const [tenant] = await database.db.insert(schema.tenants).values({ name: "Bench", status: "VERIFIED" }).returning();
  const key = await createApiKey({ db: database.db, now: () => new Date() }, pepper, { tenantId: tenant!.id, userId: null, label: "bench" });

  log("starting the devnet, the web server and the daemon…");
  const devnet = await start(["src/main.ts", "--chain-id", "20804", "--port", "0", "--block-time", String(BLOCK_TIME_MS)], {}, /http:\/\/127\.0\.0\.1:\d+/, join(root, "apps/devnet"));
  children.push(devnet.child);
  const rpcUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(devnet.output())![0];
  const pems = await generate([{ name: "commonName", value: "localhost" }], { keySize: 2048 } as never);
  writeFileSync(join(work, "cert.pem"), pems.cert);
  writeFileSync(join(work, "key.pem"), pems.private);
  const shared = {
    DATABASE_URL: databaseUrl,
    QUANTUM_SANDBOX_RPC_URL: rpcUrl,
    DATA_DIR: work,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    KYC_WEBHOOK_SECRET: "bench-kyc-secret-0123456789abcdef",
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
  };
  const [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
  const web = spawn(process.execPath, ["--import", "tsx", "apps/web/server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...shared,
      HTTPS_PORT: String(httpsPort),
      HTTP_PORT: String(httpPort),
      HOST: "127.0.0.1",
      TLS_CERT_FILE: join(work, "cert.pem"),
      TLS_KEY_FILE: join(work, "key.pem"),
      WEB_DASHBOARD: "false",
      API_KEY_PEPPER: pepper.toString("hex"),
      RATE_LIMIT_PER_SECOND: "1000000",
      RATE_LIMIT_BURST: "1000000",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  stopOnSignal(() => stopChild(web));
  children.push(web);
  const base = `https://127.0.0.1:${httpsPort}`;
  for (;;) {
    checkDeadline("waiting for the web server");
    if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
    await sleep(200);
  }
  const daemon = spawn(process.execPath, ["--import", "tsx", "apps/daemon/src/main.ts"], { cwd: root, env: { ...process.env, ...shared, DAEMON_INSTANCE_ID: "bench-daemon" }, stdio: ["ignore", "inherit", "inherit"] });
  stopOnSignal(() => stopChild(daemon));
  children.push(daemon);
  while ((await database.db.select().from(schema.daemonHeartbeats)).length === 0) {
    checkDeadline("waiting for the daemon");
    await sleep(200);
  }

  const authorization = `Bearer ${key.keyId}:${key.secret}`;
  async function api<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: T }> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as T };
  }
  async function expectStatus<T>(pending: Promise<{ status: number; json: T }>, status: number, what: string): Promise<T> {
    const res = await pending;
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  }

  // Sources: enrolled signer keys, one generated wallet each, funded on the devnet.
  log(`setting up ${SOURCES} source wallets and ${TRANSFERS} transfers (not measured)…`);
  const vault = await expectStatus(api<{ id: string }>("POST", "/v1/vault/accounts", { name: "bench", networkCode: "QUANTUM_SANDBOX" }), 201, "vault");
  const keys = Array.from({ length: SOURCES }, () => {
    const pair = generateKeyPair();
    const publicKey = `0x${Buffer.from(pair.publicKey).toString("hex")}` as const;
    return { secretKey: pair.secretKey, publicKey, address: addressFromPublicKey(publicKey) };
  });
  for (let i = 0; i < keys.length; i += 50) {
    const batch = keys.slice(i, i + 50).map((k) => ({ publicKey: k.publicKey, proof: signOwnershipProof({ tenantId: tenant!.id, address: k.address, secretKey: k.secretKey }) }));
    await expectStatus(api("POST", "/v1/signer/keys", { keys: batch }), 201, "enroll");
  }
  const secretOf = new Map(keys.map((k) => [k.address, k.secretKey]));
  const sources: { walletId: string; address: `0x${string}`; secretKey: Uint8Array; transfers: string[] }[] = [];
  for (let i = 0; i < SOURCES; i++) {
    const wallet = await expectStatus(api<{ id: string; address: `0x${string}` }>("POST", `/v1/vault/accounts/${vault.id}/wallets/generate`, {}), 201, "wallet");
    await rpc(rpcUrl, "devnet_fund", [wallet.address, `0x${(1000n * Q).toString(16)}`]);
    sources.push({ walletId: wallet.id, address: wallet.address, secretKey: secretOf.get(wallet.address)!, transfers: [] });
  }
  const destination = `0x${"00".repeat(18)}b0b0`;
  for (let i = 0; i < TRANSFERS; i++) {
    const source = sources[i % SOURCES]!;
    const created = await expectStatus(
      api<{ id: string }>(
        "POST",
        "/v1/transactions",
        { networkCode: "QUANTUM_SANDBOX", sourceWalletId: source.walletId, destinationAddress: destination, assetId: "011620ab-6fee-5894-b105-6c22053cf11e", amount: "1000" },
        { "x-idempotency-key": `bench-${i}` },
      ),
      201,
      "create",
    );
    source.transfers.push(created.id);
  }

  // The block time, observed over the same window as the measurement.
  const heads: number[] = [];
  const blockWatch = (async () => {
    let last = -1;
    while (!stopBlockWatch) {
      const head = Number(BigInt(await rpc<string>(rpcUrl, "eth_blockNumber")));
      if (head !== last) {
        if (last !== -1) heads.push(performance.now() + performance.timeOrigin);
        last = head;
      }
      await sleep(10);
    }
  })();

  // A signer loop, as `./qc signer watch` runs one: whatever is released is signed at once. The
  // release order within a source is the order the checks clear, not the order of creation.
  log(`signing ${TRANSFERS} transfers as they are released (at most ${SOURCES} at a time, one per source)…`);
  const secretBySource = new Map(sources.map((s) => [s.walletId, s.secretKey]));
  const submittedAt = new Map<string, number>();
  const postMs: number[] = [];
  while (submittedAt.size < TRANSFERS) {
    checkDeadline("waiting for releases");
    const listed = await expectStatus(
      api<{ transactions: { id: string; sourceWalletId: string; signingRequest: { signingHash: string } }[] }>("GET", "/v1/signer/transactions?status=PENDING_SIGNATURE&limit=200"),
      200,
      "pending",
    );
    const fresh = listed.transactions.filter((tx) => !submittedAt.has(tx.id));
    await Promise.all(
      fresh.map(async (tx) => {
        const signature = signQuantumSigningHash({ signingHash: tx.signingRequest.signingHash as `0x${string}`, secretKey: secretBySource.get(tx.sourceWalletId)! });
        const started = Date.now();
        await expectStatus(api("POST", `/v1/signer/transactions/${tx.id}/signature`, { signature }), 200, "signature");
        postMs.push(Date.now() - started);
        submittedAt.set(tx.id, started);
      }),
    );
    if (fresh.length === 0) await sleep(25);
  }

  log("waiting for every transfer to complete…");
  const ids = [...submittedAt.keys()];
  for (;;) {
    checkDeadline("waiting for completion");
    const rows = await database.db.select({ status: schema.transactions.status }).from(schema.transactions).where(inArray(schema.transactions.id, ids));
    const failed = rows.filter((r) => !["SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"].includes(r.status));
    if (failed.length) throw new Error(`${failed.length} transfers ended ${failed[0]!.status}`);
    if (rows.every((r) => r.status === "COMPLETED")) break;
    await sleep(250);
  }
  stopBlockWatch = true;
  await blockWatch;

  const history = await database.db
    .select({ id: schema.transactionStatusHistory.transactionId, to: schema.transactionStatusHistory.toStatus, at: schema.transactionStatusHistory.createdAt })
    .from(schema.transactionStatusHistory)
    .where(inArray(schema.transactionStatusHistory.transactionId, ids));
  const at = (id: string, status: string) => {
    const row = history.find((h) => h.id === id && h.to === status);
    if (!row) throw new Error(`${id} has no ${status} history`);
    return row.at.getTime();
  };
  const toBroadcasting = ids.map((id) => at(id, "BROADCASTING") - submittedAt.get(id)!);
  const toCompleted = ids.map((id) => at(id, "COMPLETED") - submittedAt.get(id)!);
  // The daemon's share: from the SIGNED commit (the web's answer) to the BROADCASTING commit.
  const signedToBroadcasting = ids.map((id) => at(id, "BROADCASTING") - at(id, "SIGNED"));
  const intervals = heads.slice(1).map((t, i) => t - heads[i]!);
  await database.close();

  const summary = (values: number[]) => ({ p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), max: round(Math.max(...values)) });
  const blockTime = { mean: round(intervals.reduce((a, b) => a + b, 0) / intervals.length), ...summary(intervals), blocks: intervals.length };
  const report = {
    benchmark: "transfers-latency",
    at: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg1: loadavg()[0] },
    transfers: ids.length,
    sources: SOURCES,
    requiredConfirmations: 2,
    configuredBlockTimeMs: BLOCK_TIME_MS,
    signatureToBroadcastingMs: summary(toBroadcasting),
    signaturePostMs: summary(postMs),
    signedToBroadcastingMs: summary(signedToBroadcasting),
    signatureToCompletedMs: summary(toCompleted),
    blockTimeMs: blockTime,
    completedOverBlockTime: { p50: Number((percentile(toCompleted, 50) / blockTime.p50).toFixed(2)), p95: Number((percentile(toCompleted, 95) / blockTime.p50).toFixed(2)) },
  };
  console.log(`\n${ids.length} transfers from ${SOURCES} sources, 2 confirmations, loopback, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}\n`);
  console.log("signature → BROADCASTING".padEnd(28), `p50 ${report.signatureToBroadcastingMs.p50} ms`.padEnd(14), `p95 ${report.signatureToBroadcastingMs.p95} ms`);
  console.log("  of which POST …/signature".padEnd(28), `p50 ${report.signaturePostMs.p50} ms`.padEnd(14), `p95 ${report.signaturePostMs.p95} ms`);
  console.log("  of which SIGNED → BROADC.".padEnd(28), `p50 ${report.signedToBroadcastingMs.p50} ms`.padEnd(14), `p95 ${report.signedToBroadcastingMs.p95} ms`);
  console.log("signature → COMPLETED".padEnd(28), `p50 ${report.signatureToCompletedMs.p50} ms`.padEnd(14), `p95 ${report.signatureToCompletedMs.p95} ms`);
  console.log("devnet block time".padEnd(28), `p50 ${blockTime.p50} ms`.padEnd(14), `p95 ${blockTime.p95} ms  (mean ${blockTime.mean} ms over ${blockTime.blocks} blocks)`);
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/transfers-latency-${Date.now()}.json`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
} catch (error) {
  // Where the transfers stood when it went wrong.
  const diagnosis = createDatabase({ url: bench.url });
  const rows = await diagnosis.db
    .select({ status: schema.transactions.status, reason: schema.transactions.statusReason, n: sql<number>`count(*)::int` })
    .from(schema.transactions)
    .groupBy(schema.transactions.status, schema.transactions.statusReason)
    .catch(() => []);
  await diagnosis.close();
  log(`transfers by status: ${JSON.stringify(rows)}`);
  throw error;
} finally {
  stopBlockWatch = true;
  await Promise.all(children.map((child) => stopChild(child)));
  await bench.dispose();
  // On a shared server (DATABASE_URL), leave no benchmark database behind.
  if (process.env.DATABASE_URL) {
    const admin = createDatabase({ url: process.env.DATABASE_URL });
    await admin.db.execute(sql.raw(`drop database if exists "${new URL(bench.url).pathname.slice(1)}" with (force)`)).catch(() => undefined);
    await admin.close();
  }
}
