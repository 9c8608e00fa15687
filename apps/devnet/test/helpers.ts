import { mlDsa87, serializeQuantumTransaction, signingHash, signQuantumTransaction, type QuantumTransactionSerializable } from "@qc/chain";
import { bytesToHex, hexToBytes, type Address, type Hex } from "viem";
import { DevnetRpcError, type TestAccount } from "../src/testing";

export const GWEI = 1_000_000_000n;
export const Q = 10n ** 18n;

export function transfer(
  from: Pick<TestAccount, "secretKey" | "publicKey">,
  fields: Partial<QuantumTransactionSerializable> & { nonce: number; to: Address | null },
): { raw: Hex; hash: Hex; tx: QuantumTransactionSerializable } {
  const tx: QuantumTransactionSerializable = {
    chainId: 20804,
    maxPriorityFeePerGas: GWEI,
    maxFeePerGas: 3n * GWEI,
    gas: 21_000n,
    value: 1n,
    data: "0x",
    ...fields,
  };
  const signed = signQuantumTransaction({ transaction: tx, secretKey: from.secretKey, publicKey: from.publicKey });
  return { raw: signed.serializedTransaction, hash: signed.hash, tx };
}

/** Signs with an arbitrary ML-DSA context (to prove the node checks the right one). */
export function signWithContext(
  from: Pick<TestAccount, "secretKey" | "publicKey">,
  tx: QuantumTransactionSerializable,
  context: string,
): Hex {
  const signature = mlDsa87.sign(hexToBytes(signingHash(tx)), from.secretKey, { context: new TextEncoder().encode(context) });
  return serializeQuantumTransaction({ ...tx, signature: bytesToHex(signature), publicKey: from.publicKey });
}

export async function rejection(promise: Promise<unknown>): Promise<DevnetRpcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DevnetRpcError) return error;
    throw error;
  }
  throw new Error("expected a JSON-RPC error");
}
