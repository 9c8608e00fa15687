// Devnet admission and mining throughput for signed 0x51 transfers, next to the raw
// ML-DSA-87 verify rate measured in the same process. Loopback only, bounded (< 2 min).
//
//   ./qc pnpm --filter @qc/bench devnet                            # 800 transfers from 16 senders
//   BENCH_TXS=2000 BENCH_SENDERS=40 ./qc pnpm --filter @qc/bench devnet
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import {
  addressFromPublicKey,
  generateKeyPair,
  mlDsa87,
  signingHash,
  signQuantumTransaction,
  TRANSACTION_SIGNATURE_CONTEXT,
  type QuantumTransactionSerializable,
} from "../packages/chain/src/index";
import { startDevnet, type DevnetMetrics } from "../apps/devnet/src/index";
import { jsonRpc } from "./json-rpc";
import { stopChild, stopOnSignal } from "./stop-on-signal";

// By default the devnet runs in its own process (as `./qc pnpm --filter @qc/devnet start` would),
// so the load generator does not steal its event loop; BENCH_IN_PROCESS=1 shares one.
const IN_PROCESS = process.env.BENCH_IN_PROCESS === "1";

const TXS = Number(process.env.BENCH_TXS ?? 800);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 16); // ≤ 64 pending per sender (MAX_NONCE_GAP)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const VERIFY_SAMPLES = Math.min(TXS, 400);
const DEADLINE = Date.now() + 110_000;
const CHAIN_ID = 20804;
const Q = 10n ** 18n;

const hexToBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const log = (msg: string) => process.stderr.write(`${msg}\n`);

const rpc = jsonRpc;

// 1. Keys and pre-signed transfers (signing is not what we measure).
log(`signing ${TXS} transfers from ${SENDERS} senders…`);
const senders = Array.from({ length: SENDERS }, () => generateKeyPair());
const raws: `0x${string}`[] = [];
const signed: { hash: Uint8Array; signature: Uint8Array; publicKey: Uint8Array }[] = [];
const signStarted = performance.now();
for (let i = 0; i < TXS; i++) {
  const sender = senders[i % SENDERS]!;
  const tx: QuantumTransactionSerializable = {
    chainId: CHAIN_ID,
    nonce: Math.floor(i / SENDERS),
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerGas: 100_000_000_000n,
    gas: 21_000n,
    to: `0x${(0x1000 + (i % 251)).toString(16).padStart(40, "0")}`, // plain accounts, clear of precompiles
    value: 1n,
  };
  const s = signQuantumTransaction({ transaction: tx, secretKey: sender.secretKey, publicKey: sender.publicKey });
  raws.push(s.serializedTransaction);
  if (signed.length < VERIFY_SAMPLES) {
    signed.push({ hash: hexToBytes(signingHash(tx)), signature: hexToBytes(s.signature), publicKey: sender.publicKey });
  }
  if (Date.now() > DEADLINE - 60_000) throw new Error("signing took too long; lower BENCH_TXS");
}
const signMs = performance.now() - signStarted;

// 2. Raw ml_dsa87.verify rate, same process, same messages.
const context = new TextEncoder().encode(TRANSACTION_SIGNATURE_CONTEXT);
for (const s of signed.slice(0, 20)) mlDsa87.verify(s.signature, s.hash, s.publicKey, { context }); // warm-up
const verifyStarted = performance.now();
for (const s of signed) if (!mlDsa87.verify(s.signature, s.hash, s.publicKey, { context })) throw new Error("bad signature");
const verifyMs = performance.now() - verifyStarted;
const rawVerifyPerSecond = (signed.length / verifyMs) * 1000;

// 3. Admission over HTTP JSON-RPC (eth_sendRawTransaction), CONCURRENCY requests in flight.
const prefund = Object.fromEntries(senders.map((s) => [addressFromPublicKey(s.publicKey), 1000n * Q]));

async function startChildDevnet(): Promise<{ url: string; close(): Promise<void> }> {
  const main = fileURLToPath(new URL("../apps/devnet/src/main.ts", import.meta.url));
  const args = ["--import", "tsx", main, "--chain-id", String(CHAIN_ID), "--port", "0", "--block-time", "0"];
  for (const [address, amount] of Object.entries(prefund)) args.push("--prefund", `${address}=${amount}`);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: fileURLToPath(new URL("../apps/devnet/", import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  stopOnSignal(() => stopChild(child));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (match) resolve(match[0]);
    });
    child.once("exit", (code) => reject(new Error(`devnet exited with ${code}`)));
  });
  return { url, close: () => stopChild(child) };
}

const devnet = IN_PROCESS ? await startDevnet({ chainId: CHAIN_ID, port: 0, blockTimeMs: 0, prefund }) : await startChildDevnet();
let results: Record<string, unknown>;
try {
  // Warm the path (JIT, HTTP keep-alive) with a handful, then measure the rest.
  const warm = raws.slice(0, SENDERS * 2);
  for (const raw of warm) await rpc(devnet.url, "eth_sendRawTransaction", [raw]);
  await rpc(devnet.url, "devnet_mine", ["0x1"]);
  const measured = raws.slice(SENDERS * 2);
  const before = await rpc<DevnetMetrics>(devnet.url, "devnet_metrics");
  log(`admitting ${measured.length} transactions over HTTP (concurrency ${CONCURRENCY})…`);
  let next = 0;
  const admitStarted = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < measured.length) {
        const raw = measured[next++]!;
        await rpc(devnet.url, "eth_sendRawTransaction", [raw]);
      }
    }),
  );
  const admitMs = performance.now() - admitStarted;
  const afterAdmit = await rpc<DevnetMetrics>(devnet.url, "devnet_metrics");
  const status = await rpc<{ pending: string[] }>(devnet.url, "devnet_status");
  if (status.pending.length !== measured.length) throw new Error(`expected ${measured.length} pending, got ${status.pending.length}`);

  // 4. Mining: blocks of up to 30M gas (1428 transfers) until the pool is empty.
  log("mining…");
  const mineStarted = performance.now();
  let blocks = 0;
  while ((await rpc<{ pending: string[] }>(devnet.url, "devnet_status")).pending.length > 0) {
    await rpc(devnet.url, "devnet_mine", ["0x1"]);
    blocks++;
    if (Date.now() > DEADLINE) throw new Error("mining took too long");
  }
  const mineWallMs = performance.now() - mineStarted;
  const afterMine = await rpc<DevnetMetrics>(devnet.url, "devnet_metrics");

  const n = measured.length;
  const verifyInAdmissionMs = afterAdmit.signatureMs - before.signatureMs;
  const nodeMiningMs = afterMine.miningMs - afterAdmit.miningMs;
  const admissionPerSecond = (n / admitMs) * 1000;
  const miningPerSecond = (n / nodeMiningMs) * 1000;
  const admissionWithoutVerifyPerSecond = (n / Math.max(admitMs - verifyInAdmissionMs, 1e-9)) * 1000;
  results = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version },
    transactions: n,
    senders: SENDERS,
    concurrency: CONCURRENCY,
    devnetProcess: IN_PROCESS ? "same as load generator" : "separate child process",
    signPerSecond: round((TXS / signMs) * 1000),
    rawVerify: { samples: signed.length, perSecond: round(rawVerifyPerSecond), msEach: round(verifyMs / signed.length, 3) },
    admission: {
      wallMs: round(admitMs),
      perSecond: round(admissionPerSecond),
      signatureVerifyMs: round(verifyInAdmissionMs),
      signatureVerifyMsEach: round(verifyInAdmissionMs / n, 3),
      signatureShareOfWall: round(verifyInAdmissionMs / admitMs, 3),
      perSecondExcludingVerify: round(admissionWithoutVerifyPerSecond),
    },
    mining: {
      blocks,
      nodeMs: round(nodeMiningMs),
      wallMs: round(mineWallMs),
      perSecond: round(miningPerSecond),
      perSecondWall: round((n / mineWallMs) * 1000),
    },
    ratios: {
      admissionVsRawVerify: round(admissionPerSecond / rawVerifyPerSecond, 3),
      miningVsRawVerify: round(miningPerSecond / rawVerifyPerSecond, 3),
      endToEndPerSecond: round((n / (admitMs + mineWallMs)) * 1000),
    },
  };
} finally {
  await devnet.close();
}

console.log(JSON.stringify(results, null, 2));
const r = results as {
  rawVerify: { perSecond: number; msEach: number };
  admission: { perSecond: number; signatureVerifyMsEach: number; signatureShareOfWall: number; perSecondExcludingVerify: number };
  mining: { perSecond: number; perSecondWall: number };
  ratios: { admissionVsRawVerify: number; miningVsRawVerify: number; endToEndPerSecond: number };
};
const rows: [string, string][] = [
  ["raw ml_dsa87.verify", `${r.rawVerify.perSecond} /s (${r.rawVerify.msEach} ms each)`],
  ["admission (eth_sendRawTransaction, HTTP)", `${r.admission.perSecond} tx/s`],
  [
    "  of which signature verification",
    `${r.admission.signatureVerifyMsEach} ms/tx, ${round(r.admission.signatureShareOfWall * 100)}% of wall time`,
  ],
  ["  admission excluding verification", `${r.admission.perSecondExcludingVerify} tx/s`],
  ["mining (EVM execution + sealing)", `${r.mining.perSecond} tx/s (${r.mining.perSecondWall} tx/s incl. RPC round trips)`],
  ["admission ÷ raw verify", `${r.ratios.admissionVsRawVerify}`],
  ["mining ÷ raw verify", `${r.ratios.miningVsRawVerify}`],
  ["end to end (admit then mine)", `${r.ratios.endToEndPerSecond} tx/s`],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`\nDevnet throughput, ${(results as { transactions: number }).transactions} signed 0x51 transfers`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL(`./results/devnet-throughput-${Date.now()}.json`, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
