import { buildQuantumTransfer, serializeQuantumTransaction, signQuantumSigningHash } from "@qc/chain";
import { and, asc, eq, schema, type Database } from "@qc/db";
import type { TestDevnet } from "@qc/devnet/testing";
import { expect } from "vitest";
import type { Client } from "./custody-helpers";
import { eventually } from "./identity-helpers";

/** A record as the API returns it (CONTRACT §6). */
export type TransactionJson = Record<string, any> & { id: string; status: string };

/**
 * What the reference signer does for one pending transaction: finds it in
 * `GET /v1/signer/transactions`, rebuilds the unsigned transaction from the displayed fields and
 * refuses on any difference, signs the signing hash with ML-DSA-87 and submits the signature.
 */
export async function signPending(
  signer: Client,
  transactionId: string,
  secretKey: Uint8Array,
  token: string | null = null,
): Promise<TransactionJson> {
  const listed = await eventually(async () => {
    const res = await signer.get("/v1/signer/transactions?status=PENDING_SIGNATURE&limit=200");
    expect(res.status, res.text).toBe(200);
    return (res.json().transactions as TransactionJson[]).find((tx) => tx.id === transactionId);
  }, 30_000);
  const unsigned = buildQuantumTransfer({
    chainId: listed.chainId,
    nonce: listed.nonce,
    maxFeePerGas: BigInt(listed.fee.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(listed.fee.maxPriorityFeePerGas),
    gas: BigInt(listed.fee.gasLimit),
    to: listed.destinationAddress,
    amount: BigInt(listed.amount),
    token,
  });
  expect(listed.signingRequest.unsignedTransaction).toBe(serializeQuantumTransaction(unsigned));
  const signature = signQuantumSigningHash({ signingHash: listed.signingRequest.signingHash, secretKey });
  const res = await signer.post(`/v1/signer/transactions/${transactionId}/signature`, { signature });
  expect(res.status, res.text).toBe(200);
  expect(res.json().status).toBe("SIGNED");
  return res.json();
}

/** Waits (bounded) until the transaction is in one of `statuses`, as `GET /v1/transactions/{id}` says. */
export function waitForRecord(api: Client, transactionId: string, statuses: string[], timeoutMs = 60_000): Promise<TransactionJson> {
  return eventually(async () => {
    const res = await api.get(`/v1/transactions/${transactionId}`);
    const record = res.json() as TransactionJson;
    return statuses.includes(record.status) ? record : undefined;
  }, timeoutMs);
}

/** The `transaction.status_changed` events of a transaction in the outbox, in sequence order: [previousStatus, status]. */
export async function statusChanges(db: Database, transactionId: string): Promise<{ sequence: number; from: string; to: string }[]> {
  const rows = await db
    .select()
    .from(schema.eventOutbox)
    .where(and(eq(schema.eventOutbox.aggregateId, transactionId), eq(schema.eventOutbox.type, "transaction.status_changed")))
    .orderBy(asc(schema.eventOutbox.sequence));
  return rows.map((row) => {
    const data = row.data as { previousStatus: string; transaction: { status: string } };
    return { sequence: row.sequence, from: data.previousStatus, to: data.transaction.status };
  });
}

/** The statuses a transaction went through, from its status history (`GET /v1/transactions/{id}/events`). */
export async function statusPath(api: Client, transactionId: string): Promise<string[]> {
  const res = await api.get(`/v1/transactions/${transactionId}/events`);
  expect(res.status, res.text).toBe(200);
  return (res.json().events as { to: string }[]).map((event) => event.to);
}

/** Transactions the devnet has mined from `address` (its account nonce at the head). */
export async function minedFrom(devnet: TestDevnet, address: `0x${string}`): Promise<number> {
  return devnet.publicClient().getTransactionCount({ address, blockTag: "latest" });
}
