/**
 * The deposits benchmark's transfers, from outside keys: every transaction of the run, signed
 * before anything is measured (ML-DSA-87 signing costs ~15 ms here, so 200 a second cannot be
 * signed live on 2 cores). Keys derive from fixed seeds and nonces start at 0 on a fresh devnet,
 * so a run's transactions are the same every time: they are signed once, on two worker threads,
 * and kept in bench/results/ (not committed) for the next runs.
 *
 * Setup: the token owner deploys the ERC-20 (nonce 0) and sends each token sender its share
 * (nonces 1…). Measured: BLOCKS × PER_BLOCK transfers, in each block 3 in 5 native (from the
 * native senders) and 2 in 5 ERC-20 `transfer`s (from the token senders); 9 in 10 go to a tracked
 * wallet (spread over all of them), 1 in 10 to an address nobody holds.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { addressFromPublicKey, ERC20_ABI, generateKeyPair, type QuantumTransactionSerializable } from "@qc/chain";
import { QUANTUM_TEST_TOKEN } from "@qc/chain/contracts";
import { encodeDeployData, encodeFunctionData, getContractAddress, type Address, type Hex } from "viem";
import { trackedAddress, untrackedAddress } from "./deposits-setup";

export interface LoadPlan {
  chainId: number;
  blocks: number;
  perBlock: number;
  wallets: number;
  nativeSenders: number;
  tokenSenders: number;
}

export interface SignJob {
  seed: string;
  tx: Omit<QuantumTransactionSerializable, "maxPriorityFeePerGas" | "maxFeePerGas" | "gas" | "value"> & {
    maxPriorityFeePerGas: string;
    maxFeePerGas: string;
    gas: string;
    value?: string;
  };
}

export interface SignedLoad {
  owner: Address;
  token: Address;
  /** Genesis balances: every sender and the owner. */
  prefund: Record<Address, bigint>;
  /** The deployment, then the token senders' shares (mined before the measurement). */
  setup: Hex[];
  /** The measured transfers, in admission order. */
  transfers: Hex[];
}

const Q = 10n ** 18n;
// Far above the base fee even after a run of full blocks (EIP-1559 raises it 12.5 % per full block).
const MAX_FEE = 10n ** 15n;
const TIP = 10n ** 9n;
const TOKEN_SUPPLY = 10n ** 30n;

const seedOf = (label: string) => createHash("sha256").update(`qc-bench-deposits:${label}`).digest("hex");
const addressOfSeed = (seed: string) => addressFromPublicKey(generateKeyPair(Buffer.from(seed, "hex")).publicKey);

function job(seed: string, tx: { nonce: number; to: Address | null; value?: bigint; data?: Hex; gas: bigint }, chainId: number): SignJob {
  return {
    seed,
    tx: {
      chainId,
      nonce: tx.nonce,
      to: tx.to,
      data: tx.data,
      value: tx.value?.toString(),
      gas: tx.gas.toString(),
      maxFeePerGas: MAX_FEE.toString(),
      maxPriorityFeePerGas: TIP.toString(),
    },
  };
}

/** The run's transactions, signed (from the cache when this plan was signed before). */
export async function signedLoad(plan: LoadPlan, log: (message: string) => void): Promise<SignedLoad> {
  const ownerSeed = seedOf("owner");
  const owner = addressOfSeed(ownerSeed);
  const token = getContractAddress({ from: owner, nonce: 0n }).toLowerCase() as Address;
  const nativeSeeds = Array.from({ length: plan.nativeSenders }, (_, i) => seedOf(`native:${i}`));
  const tokenSeeds = Array.from({ length: plan.tokenSenders }, (_, i) => seedOf(`token:${i}`));
  const tokenSenders = tokenSeeds.map(addressOfSeed);
  const prefund: Record<Address, bigint> = { [owner]: 1_000_000n * Q };
  for (const seed of nativeSeeds) prefund[addressOfSeed(seed)] = 1_000_000n * Q;
  for (const address of tokenSenders) prefund[address] = 1_000_000n * Q;

  const jobs: SignJob[] = [
    job(
      ownerSeed,
      {
        nonce: 0,
        to: null,
        gas: 3_000_000n,
        data: encodeDeployData({
          abi: QUANTUM_TEST_TOKEN.abi,
          bytecode: QUANTUM_TEST_TOKEN.bytecode,
          args: ["Bench DBT", "DBT", 6, TOKEN_SUPPLY],
        }),
      },
      plan.chainId,
    ),
  ];
  tokenSenders.forEach((to, i) =>
    jobs.push(
      job(
        ownerSeed,
        { nonce: 1 + i, to: token, gas: 100_000n, data: transferData(to, TOKEN_SUPPLY / 2n / BigInt(plan.tokenSenders)) },
        plan.chainId,
      ),
    ),
  );
  const setupCount = jobs.length;
  let natives = 0;
  let tokens = 0;
  for (let k = 0; k < plan.blocks * plan.perBlock; k++) {
    const kind = k % 5 < 3 ? "native" : "token";
    const wallet = k % 10 === 9 ? null : (k * 7919) % plan.wallets;
    const to = wallet === null ? untrackedAddress(k) : trackedAddress(wallet);
    if (kind === "native") {
      const m = natives++;
      jobs.push(
        job(
          nativeSeeds[m % plan.nativeSenders]!,
          { nonce: Math.floor(m / plan.nativeSenders), to, value: 1000n + BigInt(k), gas: 21_000n },
          plan.chainId,
        ),
      );
    } else {
      const m = tokens++;
      jobs.push(
        job(
          tokenSeeds[m % plan.tokenSenders]!,
          { nonce: Math.floor(m / plan.tokenSenders), to: token, data: transferData(to, 1000n + BigInt(k)), gas: 100_000n },
          plan.chainId,
        ),
      );
    }
  }

  const signed = await signCached(jobs, log);
  return { owner, token, prefund, setup: signed.slice(0, setupCount), transfers: signed.slice(setupCount) };
}

function transferData(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: ERC20_ABI, functionName: "transfer", args: [to, amount] });
}

async function signCached(jobs: SignJob[], log: (message: string) => void): Promise<Hex[]> {
  const key = createHash("sha256").update(JSON.stringify(jobs)).digest("hex").slice(0, 16);
  const directory = new URL("./results/", import.meta.url);
  const file = new URL(`deposits-signed-${key}.bin`, directory);
  if (existsSync(file)) {
    log(`signed transactions from ${file.pathname}`);
    return decode(readFileSync(file));
  }
  log(`signing ${jobs.length} transactions on 2 threads (once: kept in ${file.pathname})…`);
  const started = performance.now();
  const halves = [jobs.filter((_, i) => i % 2 === 0), jobs.filter((_, i) => i % 2 === 1)];
  const [even, odd] = await Promise.all(halves.map(signOnWorker));
  const signed = jobs.map((_, i) => (i % 2 === 0 ? even![i / 2]! : odd![(i - 1) / 2]!));
  log(`signed in ${Math.round((performance.now() - started) / 1000)} s`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, encode(signed));
  return signed;
}

function signOnWorker(jobs: SignJob[]): Promise<Hex[]> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit tsx's loader (Node 20): it registers tsx, then loads the TypeScript.
    const script = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL("./deposits-sign-worker.ts", import.meta.url).href)}); })`;
    const worker = new Worker(script, { eval: true, workerData: jobs });
    worker.once("message", (signed: Hex[]) => {
      resolve(signed);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

/** Length-prefixed raw transactions. */
function encode(raws: Hex[]): Buffer {
  const parts: Buffer[] = [];
  for (const raw of raws) {
    const bytes = Buffer.from(raw.slice(2), "hex");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

function decode(buffer: Buffer): Hex[] {
  const raws: Hex[] = [];
  for (let at = 0; at < buffer.length;) {
    const length = buffer.readUInt32BE(at);
    raws.push(`0x${buffer.subarray(at + 4, at + 4 + length).toString("hex")}`);
    at += 4 + length;
  }
  return raws;
}
