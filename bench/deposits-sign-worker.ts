/** Signs a share of the deposits benchmark's transactions (./deposits-load.ts) on a worker thread. */
import { parentPort, workerData } from "node:worker_threads";
import { generateKeyPair, signQuantumTransaction, type QuantumKeyPair } from "@qc/chain";
import type { SignJob } from "./deposits-load";

const keys = new Map<string, QuantumKeyPair>();
const signed = (workerData as SignJob[]).map(({ seed, tx }) => {
  let key = keys.get(seed);
  if (!key) keys.set(seed, (key = generateKeyPair(Buffer.from(seed, "hex"))));
  const transaction = {
    ...tx,
    gas: BigInt(tx.gas),
    maxFeePerGas: BigInt(tx.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
    value: tx.value === undefined ? undefined : BigInt(tx.value),
  };
  return signQuantumTransaction({ transaction, secretKey: key.secretKey, publicKey: key.publicKey }).serializedTransaction;
});
parentPort!.postMessage(signed);
